/** Spoolman's request bodies (its `*Parameters` models), for validation and the OpenAPI description. */
import type { JsonSchema } from '../../http/route.js';

const text = (maxLength: number): JsonSchema => ({ type: ['string', 'null'], maxLength });
const weight: JsonSchema = { type: ['number', 'null'], minimum: 0 };
const extra: JsonSchema = {
  type: ['object', 'null'],
  additionalProperties: { type: ['string', 'null'] },
  description: 'values are JSON-encoded strings',
};
const time: JsonSchema = { type: ['string', 'null'], pattern: '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}' };

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required });

const vendorFields = {
  name: { type: 'string', minLength: 1, maxLength: 64 },
  comment: text(1024),
  empty_spool_weight: weight,
  external_id: text(256),
  extra,
};
export const vendorCreate = object(vendorFields, ['name']);
export const vendorUpdate = object(vendorFields);

const filamentFields: Record<string, JsonSchema> = {
  name: text(64),
  vendor_id: { type: ['integer', 'null'] },
  material: text(64),
  price: weight,
  density: { type: 'number', exclusiveMinimum: 0 },
  diameter: { type: 'number', exclusiveMinimum: 0 },
  weight: { type: ['number', 'null'], exclusiveMinimum: 0 },
  spool_weight: weight,
  article_number: text(64),
  comment: text(1024),
  settings_extruder_temp: { type: ['integer', 'null'], minimum: 0 },
  settings_bed_temp: { type: ['integer', 'null'], minimum: 0 },
  color_hex: { type: ['string', 'null'], pattern: '^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$' },
  multi_color_hexes: { type: ['string', 'null'], pattern: '^#?[0-9A-Fa-f]{6,8}(,#?[0-9A-Fa-f]{6,8})+$' },
  multi_color_direction: { enum: ['coaxial', 'longitudinal', null] },
  external_id: text(256),
  extra,
};
export const filamentCreate = object(filamentFields, ['density', 'diameter']);
export const filamentUpdate = object(filamentFields);

const spoolFields: Record<string, JsonSchema> = {
  first_used: time,
  last_used: time,
  filament_id: { type: 'integer' },
  price: weight,
  initial_weight: weight,
  spool_weight: weight,
  remaining_weight: weight,
  used_weight: weight,
  location: text(64),
  lot_nr: text(64),
  comment: text(1024),
  archived: { type: 'boolean' },
  extra,
};
export const spoolCreate = object(spoolFields, ['filament_id']);
export const spoolUpdate = object(spoolFields);
export const spoolUse = object({ use_length: { type: ['number', 'null'] }, use_weight: { type: ['number', 'null'] } });
export const spoolMeasure = object({ weight: { type: 'number' } }, ['weight']);
