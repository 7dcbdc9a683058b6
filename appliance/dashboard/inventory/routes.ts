/**
 * `/api/filaments`: the spools in the flat shape (SpoolView). view reads; print adds, changes,
 * loads into printers and uses; admin deletes.
 */
import { Reply, type RouteSpec } from '../http/route.js';
import type { Settings } from '../settings/settings.js';
import {
  createFlatSpool,
  deleteSpool,
  filterSpools,
  SPOOL_SORTS,
  sortSpools,
  updateFlatSpool,
  type FlatSpoolInput,
  type SpoolSort,
} from './flat-spools.js';
import type { Inventory } from './inventory.js';
import { idParam, spoolCreateSchema, spoolListSchema, spoolUpdateSchema, spoolViewSchema } from './schemas.js';
import { inventoryStats } from './stats.js';

export const TAG = 'inventory';

const errorRef = { $ref: '#/components/schemas/Error' };
const notFound = { description: 'No such spool (ERR_NOT_FOUND).', schema: errorRef };
const badInput = { description: 'Invalid input (ERR_VALIDATION).', schema: errorRef };

export function filamentRoutes(inventory: Inventory, settings: Settings): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/filaments',
      level: 'view',
      tag: TAG,
      summary: 'List spools',
      description: 'Unarchived spools unless `archived=true`; `text` searches short id, material, vendor, name, comment, lot and colour.',
      query: {
        material: { type: 'string', maxLength: 64 },
        vendor: { type: 'string', maxLength: 64 },
        location_id: { type: 'integer', minimum: 1 },
        printer_id: { type: 'string', maxLength: 128 },
        archived: { type: 'boolean', default: false },
        text: { type: 'string', maxLength: 128 },
        sort: { type: 'string', enum: [...SPOOL_SORTS, ...SPOOL_SORTS.map((s) => `-${s}`)], default: 'id' },
      },
      responses: { 200: { description: 'The spools and how many there are.', schema: spoolListSchema } },
      handler({ query }) {
        const items = filterSpools(inventory.list(), {
          material: query.material,
          vendor: query.vendor,
          location_id: query.location_id === undefined ? undefined : Number(query.location_id),
          printer_id: query.printer_id,
          archived: query.archived === 'true',
          text: query.text,
        });
        const sort = query.sort ?? 'id';
        const sorted = sortSpools(items, sort.replace(/^-/, '') as SpoolSort, sort.startsWith('-'));
        return { items: sorted, total: sorted.length };
      },
    },
    {
      method: 'get',
      path: '/api/filaments/stats',
      level: 'view',
      tag: TAG,
      summary: 'Consumption statistics, spools running low, value in stock',
      description:
        'Consumption per ISO week and per month (UTC) by material, colour and vendor, from every use of a spool; ' +
        'low stock against the setting inventory.low_stock_g; value = Σ price × remaining ÷ initial weight of unarchived spools.',
      query: {
        from: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'ISO date or time: uses from then on' },
        to: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'ISO date or time: uses before then' },
      },
      responses: { 200: { description: 'The statistics.', schema: { type: 'object' } } },
      handler({ query }) {
        return inventoryStats(inventory.useRecords(), inventory.list(), settings.current.inventory.low_stock_g, { from: query.from, to: query.to });
      },
    },
    {
      method: 'post',
      path: '/api/filaments',
      level: 'print',
      tag: TAG,
      summary: 'Add a spool',
      description: 'Finds or creates the vendor and filament records behind the flat fields. Loading: `printer_id` with `slot`.',
      body: { kind: 'json', schema: spoolCreateSchema, maxBytes: 16 * 1024 },
      responses: { 201: { description: 'The new spool.', schema: spoolViewSchema }, 400: badInput },
      async handler({ body }) {
        return new Reply(201, await createFlatSpool(inventory, body as FlatSpoolInput & { material: string }));
      },
    },
    {
      method: 'put',
      path: '/api/filaments/:id',
      level: 'print',
      tag: TAG,
      summary: 'Change, load or unload a spool',
      description:
        'Only the fields given change. `printer_id` + `slot` loads the spool; the spool that held that slot goes back to its shelf. ' +
        '`printer_id: null` unloads. `used_weight_g` is capped at `initial_weight_g`.',
      params: idParam,
      body: { kind: 'json', schema: spoolUpdateSchema, maxBytes: 16 * 1024 },
      responses: { 200: { description: 'The spool.', schema: spoolViewSchema }, 400: badInput, 404: notFound },
      handler({ params, body }) {
        return updateFlatSpool(inventory, Number(params.id), body as FlatSpoolInput);
      },
    },
    {
      method: 'delete',
      path: '/api/filaments/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Delete a spool',
      description: 'Its short id is never handed out again; its uses stay in the statistics.',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await deleteSpool(inventory, Number(params.id));
      },
    },
  ];
}
