/** The REST endpoints of the printer registry: thin, over PrinterFleet. */
import { Reply, type RouteSpec } from '../http/route.js';
import type { PrinterFleet } from './fleet.js';
import { printerFamilies } from './families/index.js';
import { printerCreateSchema, printerIdParams, printerListSchema, printerPatchSchema, printerTypeListSchema, printerViewSchema } from './schemas.js';
import { printerStatusSchema } from './status.js';

const TAG = 'printers';
const notFound = { description: 'No printer with this id (ERR_NOT_FOUND).' };
const invalid = { description: 'The body does not describe a valid printer (ERR_VALIDATION); `details` names the fields.' };
const conflict = { description: 'Another printer already has this name, serial device or serial number (ERR_CONFLICT).' };

export function printerRoutes(fleet: PrinterFleet): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/printers',
      level: 'view',
      tag: TAG,
      summary: 'List printers',
      description: 'Every configured printer with its vendor, online/offline state and live status.',
      responses: { 200: { description: 'The printers.', schema: printerListSchema } },
      handler: () => ({ items: fleet.list() }),
    },
    {
      method: 'get',
      path: '/api/printer-types',
      level: 'view',
      tag: TAG,
      summary: 'List printer types',
      description:
        'Each `type` a printer can have, with the JSON schema of its `connection` block, its defaults and its secret fields: ' +
        'what a client needs to build the form that adds or changes a printer of that type.',
      responses: { 200: { description: 'The types.', schema: printerTypeListSchema } },
      handler: () => ({
        items: printerFamilies().map((family) => ({
          type: family.type,
          label: family.label,
          fixed_vendor: family.fixedVendor,
          connection: family.connectionSchema,
          defaults: family.defaults,
          secrets: [...family.secrets],
        })),
      }),
    },
    {
      method: 'post',
      path: '/api/printers',
      level: 'admin',
      tag: TAG,
      summary: 'Add a printer',
      description: 'Validated per `type`; enabled printers are connected right away (in the background).',
      body: { kind: 'json', schema: printerCreateSchema() },
      responses: { 201: { description: 'The new printer.', schema: printerViewSchema }, 400: invalid, 409: conflict },
      handler: async ({ body }) => new Reply(201, await fleet.create(body)),
    },
    {
      method: 'get',
      path: '/api/printers/:id',
      level: 'view',
      tag: TAG,
      summary: 'Get a printer',
      params: printerIdParams,
      responses: { 200: { description: 'The printer with its live status.', schema: printerViewSchema }, 404: notFound },
      handler: ({ params }) => fleet.view(params.id),
    },
    {
      method: 'put',
      path: '/api/printers/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Change a printer',
      description:
        'Partial: only the fields sent change. A masked secret (`***`) keeps the stored value. ' +
        'Changing the connection, type, model or `enabled` restarts the driver.',
      params: printerIdParams,
      body: { kind: 'json', schema: printerPatchSchema() },
      responses: { 200: { description: 'The changed printer.', schema: printerViewSchema }, 400: invalid, 404: notFound, 409: conflict },
      handler: ({ params, body }) => fleet.update(params.id, body),
    },
    {
      method: 'delete',
      path: '/api/printers/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Delete a printer',
      description: 'Disconnects the printer first, then removes it.',
      params: printerIdParams,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      handler: async ({ params }) => {
        await fleet.remove(params.id);
      },
    },
    {
      method: 'get',
      path: '/api/printers/:id/status',
      level: 'view',
      tag: TAG,
      summary: 'Live status of a printer',
      params: printerIdParams,
      responses: { 200: { description: 'The live status.', schema: printerStatusSchema }, 404: notFound },
      handler: ({ params }) => fleet.status(params.id),
    },
  ];
}
