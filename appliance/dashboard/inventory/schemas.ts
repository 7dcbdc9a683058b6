/**
 * JSON Schemas of the flat spool API (`/api/filaments`): what the router validates and the OpenAPI
 * description shows.
 */
import type { JsonSchema } from '../http/route.js';

const text = (maxLength: number): JsonSchema => ({ type: ['string', 'null'], maxLength });
const grams = { type: 'number', minimum: 0, maximum: 100_000 } as const;
const colorPattern = '^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$';
const datePattern = '^\\d{4}-\\d{2}-\\d{2}$';

export const slotSchema: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'tool'],
      properties: { kind: { const: 'tool' }, tool: { type: 'integer', minimum: 0, maximum: 63 } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'unit', 'tray'],
      properties: { kind: { const: 'ams' }, unit: { type: 'integer', minimum: 0, maximum: 15 }, tray: { type: 'integer', minimum: 0, maximum: 3 } },
    },
    { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { const: 'external' } } },
  ],
};

/** Fields a client may set; `material` is required on create. */
const inputProperties: Record<string, JsonSchema> = {
  material: { type: 'string', minLength: 1, maxLength: 64 },
  color_hex: { type: ['string', 'null'], pattern: colorPattern, description: '`#rrggbb` (or `rrggbb`, with an optional alpha pair)' },
  multi_color_hexes: { type: 'array', maxItems: 16, items: { type: 'string', pattern: colorPattern } },
  vendor: text(64),
  name: text(64),
  diameter: { type: 'number', exclusiveMinimum: 0, maximum: 10, description: 'mm; default 1.75' },
  density: { type: 'number', exclusiveMinimum: 0, maximum: 25, description: 'g/cm³; default: the material’s' },
  initial_weight_g: { ...grams, exclusiveMinimum: 0, description: 'net filament weight when full; default 1000' },
  spool_weight_g: { type: ['number', 'null'], minimum: 0, maximum: 100_000 },
  used_weight_g: { ...grams, description: 'capped at initial_weight_g' },
  remaining_weight_g: { ...grams, description: 'sets used_weight_g to initial_weight_g − this; not with used_weight_g' },
  price: { type: ['number', 'null'], minimum: 0 },
  location_id: { type: ['integer', 'null'], minimum: 1 },
  lot: text(64),
  expiry_date: { type: ['string', 'null'], pattern: datePattern },
  opened_at: { type: ['string', 'null'], pattern: datePattern },
  archived: { type: 'boolean' },
  comment: text(1024),
  printer_id: { type: ['string', 'null'], minLength: 1, maxLength: 128, description: 'load into this printer (with `slot`); null unloads' },
  slot: { oneOf: [{ type: 'null' }, slotSchema] },
};

export const spoolCreateSchema: JsonSchema = { type: 'object', additionalProperties: false, required: ['material'], properties: inputProperties };
export const spoolUpdateSchema: JsonSchema = { type: 'object', additionalProperties: false, properties: inputProperties };

const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });

export const spoolViewSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    short_id: { type: 'string' },
    material: { type: 'string' },
    color_hex: nullable({ type: 'string' }),
    multi_color_hexes: { type: 'array', items: { type: 'string' } },
    vendor: nullable({ type: 'string' }),
    name: nullable({ type: 'string' }),
    diameter: { type: 'number' },
    density: { type: 'number' },
    initial_weight_g: { type: 'number' },
    spool_weight_g: nullable({ type: 'number' }),
    used_weight_g: { type: 'number' },
    remaining_weight_g: { type: 'number' },
    price: nullable({ type: 'number' }),
    location_id: nullable({ type: 'integer' }),
    lot: nullable({ type: 'string' }),
    expiry_date: nullable({ type: 'string' }),
    opened_at: nullable({ type: 'string' }),
    archived: { type: 'boolean' },
    comment: nullable({ type: 'string' }),
    printer_id: nullable({ type: 'string' }),
    slot: { oneOf: [{ type: 'null' }, slotSchema] },
    registered_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
};

export const spoolListSchema: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: spoolViewSchema }, total: { type: 'integer' } },
};

export const idParam = { id: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 } };
