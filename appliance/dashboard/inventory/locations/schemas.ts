/** JSON Schemas of the storage-location routes: what they validate and what the OpenAPI description shows. */
import { NAME_FORMAT } from '../../../common/names.js';
import type { JsonSchema } from '../../http/route.js';
import { MAX_READINGS_PER_LOCATION } from './climate-log.js';
import { RFC3339 } from './climate-time.js';
import { HUMIDITY_RANGE_PCT, TEMPERATURE_RANGE_C } from './climate.js';

export const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };
export const locationIdSchema: JsonSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
/** The validator only documents `date-time`: input times are held to RFC 3339 by a pattern (climate-time.ts checks the calendar). */
export const dateTimeInput: JsonSchema = { ...dateTime, pattern: RFC3339 };
const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, format: NAME_FORMAT };
const description: JsonSchema = { type: ['string', 'null'], maxLength: 1000 };
const limit: JsonSchema = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 100,
  description: 'Highest relative humidity (%) for this location, replacing the limit of the materials stored here; null for the material table.',
};

export const locationCreateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name, description, humidity_limit_pct: limit },
};

export const locationUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { name, description, humidity_limit_pct: limit },
};

export const readingSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'temperature_c', 'humidity_pct'],
  properties: { at: dateTime, temperature_c: { type: 'number' }, humidity_pct: { type: 'number' } },
};

export const climateInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['temperature_c', 'humidity_pct'],
  properties: {
    temperature_c: { type: 'number', minimum: TEMPERATURE_RANGE_C.min, maximum: TEMPERATURE_RANGE_C.max, description: 'Air temperature, °C.' },
    humidity_pct: { type: 'number', minimum: HUMIDITY_RANGE_PCT.min, maximum: HUMIDITY_RANGE_PCT.max, description: 'Relative humidity, %.' },
    at: { ...dateTimeInput, description: 'When it was measured; default now. At most 5 minutes ahead of the box, at most 7 days old.' },
  },
};

const effectiveLimitSchema: JsonSchema = {
  type: ['object', 'null'],
  description: 'The humidity limit in force: the override, or the strictest material stored here; null when neither exists.',
  additionalProperties: false,
  required: ['limit_pct', 'source', 'material'],
  properties: {
    limit_pct: { type: 'number' },
    source: { type: 'string', enum: ['override', 'material'] },
    material: { type: ['string', 'null'] },
  },
};

const excursionSchema: JsonSchema = {
  type: ['object', 'null'],
  description: 'The humidity excursion in progress, or null.',
  additionalProperties: false,
  required: ['since', 'limit_pct'],
  properties: { since: dateTime, limit_pct: { type: 'number' } },
};

export const locationViewSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'description',
    'humidity_limit_pct',
    'created_at',
    'updated_at',
    'spool_count',
    'effective_limit',
    'latest_reading',
    'excursion',
  ],
  properties: {
    id: locationIdSchema,
    name,
    description,
    humidity_limit_pct: limit,
    created_at: dateTime,
    updated_at: dateTime,
    spool_count: { type: 'integer', minimum: 0, description: 'Spools (not archived) whose location_id is this location.' },
    effective_limit: effectiveLimitSchema,
    latest_reading: { anyOf: [readingSchema, { type: 'null' }] },
    excursion: excursionSchema,
  },
};

export const climateEventSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['location_id', 'location_name', 'at', 'temperature_c', 'humidity_pct', 'humidity_limit_pct', 'excursion'],
  properties: {
    location_id: locationIdSchema,
    location_name: name,
    at: dateTime,
    temperature_c: { type: 'number' },
    humidity_pct: { type: 'number' },
    humidity_limit_pct: { type: ['number', 'null'] },
    excursion: { type: 'boolean', description: 'True while a humidity excursion is open, after this reading.' },
  },
};

export const climateSeriesSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['location_id', 'from', 'to', 'readings', 'effective_limit', 'excursion'],
  properties: {
    location_id: locationIdSchema,
    from: dateTime,
    to: dateTime,
    readings: { type: 'array', maxItems: MAX_READINGS_PER_LOCATION, items: readingSchema, description: 'Oldest first.' },
    effective_limit: effectiveLimitSchema,
    excursion: excursionSchema,
  },
};
