/** `GET /api/gcode/reference` (search) and `GET /api/gcode/reference/:code` (one code's entries). */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonSchema, RouteSpec } from '../http/route.js';
import type { GcodeReference } from './reference.js';
import { CATEGORIES, type Category, FIRMWARES, type Firmware } from './reference-check.js';
import { errorSchemaRef } from './schemas.js';

const commandSchema: JsonSchema = {
  type: 'object',
  required: ['code', 'name', 'category', 'firmware', 'summary', 'parameters', 'example'],
  properties: {
    code: { type: 'string', description: '`G1`, `M104`, `T` (any tool number), or a Klipper extended command such as `SET_VELOCITY_LIMIT`.' },
    name: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
    firmware: {
      type: 'array',
      items: { type: 'string', enum: [...FIRMWARES] },
      description: 'The firmwares that support the command with this meaning.',
    },
    summary: { type: 'string' },
    parameters: {
      type: 'array',
      items: { type: 'object', required: ['name', 'description'], properties: { name: { type: 'string' }, description: { type: 'string' } } },
    },
    example: { type: 'string' },
  },
};

const firmwareQuery: JsonSchema = { type: 'string', enum: [...FIRMWARES], description: 'Only commands this firmware supports.' };

export function referenceRoutes(reference: GcodeReference, tag: string): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/gcode/reference',
      level: 'view',
      tag,
      summary: 'Search the G-code reference (Marlin 2, Klipper, RepRapFirmware)',
      description:
        '`q` matches the code (`g1`, `M10` for M104…, `T2` for T), then the name, then the summary and parameters (every word must appear); ' +
        'best matches first, otherwise in code order. Without `q`, the whole reference filtered by `category` and `firmware`. A code whose ' +
        'meaning differs between firmwares (G10: retract in Marlin and Klipper, tool offsets in RepRapFirmware) has one entry per meaning.',
      query: {
        q: { type: 'string', maxLength: 100, description: 'Words or a code.' },
        category: { type: 'string', enum: [...CATEGORIES] },
        firmware: firmwareQuery,
      },
      responses: {
        200: {
          description: 'The matching commands.',
          schema: {
            type: 'object',
            required: ['count', 'commands', 'categories', 'firmwares'],
            properties: {
              count: { type: 'integer' },
              commands: { type: 'array', items: commandSchema },
              categories: { type: 'array', items: { type: 'string' } },
              firmwares: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        400: { description: 'An unknown category or firmware, or another query parameter (ERR_VALIDATION).', schema: errorSchemaRef },
      },
      handler: ({ query }) => {
        const commands = reference.search({
          q: query.q,
          category: query.category as Category | undefined,
          firmware: query.firmware as Firmware | undefined,
        });
        return { count: commands.length, commands, categories: CATEGORIES, firmwares: FIRMWARES };
      },
    },
    {
      method: 'get',
      path: '/api/gcode/reference/:code',
      level: 'view',
      tag,
      summary: 'One G-code: its entries in the reference',
      description: 'Case-insensitive, leading zeros ignored (`g01` is G1), any `T<n>` is T. One entry per meaning (see the search).',
      params: { code: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_.]{0,63}$' } },
      query: { firmware: firmwareQuery },
      responses: {
        200: {
          description: 'The entries for the code.',
          schema: {
            type: 'object',
            required: ['code', 'commands'],
            properties: { code: { type: 'string' }, commands: { type: 'array', items: commandSchema } },
          },
        },
        400: { description: 'A malformed code or firmware (ERR_VALIDATION).', schema: errorSchemaRef },
        404: { description: 'The reference has no such code (for that firmware) (ERR_NOT_FOUND).', schema: errorSchemaRef },
      },
      handler: ({ params, query }) => {
        const firmware = query.firmware as Firmware | undefined;
        const commands = reference.lookup(params.code, firmware);
        if (commands.length === 0) {
          throw new AppError(ErrorCode.notFound, 404, `the G-code reference has no ${params.code}${firmware ? ` for ${firmware}` : ''}`);
        }
        return { code: commands[0].code, commands };
      },
    },
  ];
}
