/** The shapes of the history routes, for the router's checks and the OpenAPI description. */
import type { JsonSchema } from '../http/route.js';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, SORT_FIELDS } from './query.js';
import { END_STATES, RECORD_ID_PATTERN, RECORD_STATES, STARTER_KINDS } from './record.js';

export const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };
export const recordIdSchema: JsonSchema = { type: 'string', pattern: RECORD_ID_PATTERN, description: 'A history record id.' };

const nullableString: JsonSchema = { type: ['string', 'null'] };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

const slotSchema: JsonSchema = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['kind', 'tool'], properties: { kind: { const: 'tool' }, tool: { type: 'integer' } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'unit', 'tray'],
      properties: { kind: { const: 'ams' }, unit: { type: 'integer' }, tray: { type: 'integer' } },
    },
    { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { const: 'external' } } },
  ],
};

const filamentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['slot', 'spool_id', 'material', 'color_hex', 'grams', 'length_mm', 'cost'],
  properties: {
    slot: slotSchema,
    spool_id: { type: ['integer', 'null'] },
    material: nullableString,
    color_hex: nullableString,
    grams: nullableNumber,
    length_mm: nullableNumber,
    cost: nullableNumber,
  },
};

const monitorNoteSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'source', 'event', 'service_event', 'receiver_id', 'message', 'image_url'],
  properties: {
    at: dateTime,
    source: { type: 'string', description: 'obico, octoeverywhere or simplyprint.' },
    event: { type: 'string', description: 'The event as the box classes it (failure_detected, print_done, …).' },
    service_event: { type: 'string', description: 'The event as the service named it.' },
    receiver_id: { type: 'string' },
    message: { type: 'string' },
    image_url: nullableString,
  },
};

export const recordSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'printer_id',
    'printer_name',
    'printer_type',
    'file',
    'started_by',
    'started_at',
    'ended_at',
    'duration_s',
    'state',
    'error',
    'progress',
    'filament',
    'cost',
    'thumbnail',
    'estimate_s',
    'filament_booked',
  ],
  properties: {
    id: { type: 'string' },
    printer_id: { type: 'string' },
    printer_name: { type: 'string' },
    printer_type: { type: 'string' },
    file: { type: 'string' },
    started_by: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'user', 'job_id', 'copy'],
      properties: {
        kind: { type: 'string', enum: [...STARTER_KINDS] },
        user: nullableString,
        job_id: nullableString,
        copy: { type: ['integer', 'null'] },
      },
    },
    started_at: dateTime,
    ended_at: { type: ['string', 'null'], format: 'date-time' },
    duration_s: nullableNumber,
    state: { type: 'string', enum: [...RECORD_STATES], description: '`printing` while the print runs; then how it ended.' },
    error: nullableString,
    progress: { type: 'number', minimum: 0, maximum: 100 },
    filament: { type: 'array', items: filamentSchema, description: 'Per slot; while printing, the plan announced by the queue.' },
    cost: nullableNumber,
    thumbnail: { type: ['string', 'null'], description: 'URL of the PNG, or null.' },
    estimate_s: nullableNumber,
    filament_booked: { type: 'boolean', description: 'The filament was taken off the spools.' },
    monitor_events: {
      type: 'array',
      items: monitorNoteSchema,
      description: "Outside monitors' events on this print (incoming webhooks); absent until the first one.",
    },
  },
};

/** The filters every reading route takes (list, export, stats). */
export const filterQuery: Record<string, JsonSchema> = {
  printer_id: { type: 'string', minLength: 1, maxLength: 64, description: 'Prints of this printer.' },
  state: { type: 'string', enum: [...RECORD_STATES] },
  started_by: { type: 'string', enum: [...STARTER_KINDS] },
  user: { type: 'string', minLength: 1, maxLength: 128, description: 'Started (or queued) by this user.' },
  job_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Prints of this queue job.' },
  from: { type: 'string', minLength: 10, maxLength: 40, description: 'Started at or after: an ISO 8601 date-time, or a date (UTC).' },
  to: { type: 'string', minLength: 10, maxLength: 40, description: 'Started before: a date-time, or a date (that whole day included).' },
  material: { type: 'string', minLength: 1, maxLength: 64, description: 'Any slot of this material (case-blind).' },
  q: { type: 'string', minLength: 1, maxLength: 200, description: 'Text in the file name (case-blind).' },
};

export const orderQuery: Record<string, JsonSchema> = {
  sort: { type: 'string', enum: [...SORT_FIELDS], default: 'started_at' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc', description: 'Prints still running come last either way.' },
};

export const pageQuery: Record<string, JsonSchema> = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  offset: { type: 'integer', minimum: 0, description: 'Skip this many (not with cursor).' },
  cursor: { type: 'string', minLength: 1, maxLength: 400, description: "The previous page's next_cursor (not with offset)." },
};

export const pageSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'total', 'limit', 'offset', 'next_cursor'],
  properties: {
    items: { type: 'array', items: recordSchema },
    total: { type: 'integer', minimum: 0, description: 'Records matching the filters.' },
    limit: { type: 'integer' },
    offset: { type: 'integer', description: 'Position of the first item among them.' },
    next_cursor: nullableString,
  },
};

const groupSchema: JsonSchema = {
  type: 'object',
  required: ['prints', 'finished', 'success_rate', 'print_hours', 'filament_g', 'cost'],
  properties: {
    prints: { type: 'integer' },
    finished: { type: 'integer' },
    success_rate: nullableNumber,
    print_hours: { type: 'number' },
    filament_g: { type: 'number' },
    cost: { type: 'number' },
    printer_name: { type: 'string' },
  },
};

export const statsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['total', 'by_state', 'by_printer', 'by_material', 'by_month', 'estimate_accuracy'],
  properties: {
    total: groupSchema,
    by_state: { type: 'object', properties: Object.fromEntries(END_STATES.map((s) => [s, { type: 'integer' }])) },
    by_printer: { type: 'object', additionalProperties: groupSchema },
    by_material: { type: 'object', additionalProperties: groupSchema },
    by_month: { type: 'object', additionalProperties: groupSchema, description: 'By YYYY-MM of the start (UTC).' },
    estimate_accuracy: {
      type: 'object',
      additionalProperties: false,
      required: ['samples', 'mean_ratio', 'median_ratio'],
      properties: { samples: { type: 'integer' }, mean_ratio: nullableNumber, median_ratio: nullableNumber },
    },
  },
};
