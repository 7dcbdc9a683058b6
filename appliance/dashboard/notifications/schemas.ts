/**
 * JSON Schemas of the notifications API: what the router validates and the OpenAPI description
 * shows. Channel schemas are built from the channel types, so a new type brings its own fields.
 */
import { NAME_FORMAT } from '../../common/names.js';
import type { JsonSchema } from '../http/route.js';
import type { ChannelType } from './channel.js';
import { DATA_MAX_BYTES, DATA_MAX_DEPTH, NOTIFICATION_LEVELS } from './notification.js';

/** The dashboard's error body `{ error, code, details? }`, as the OpenAPI description defines it. */
export const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const KIND_PATTERN = '^[a-z][a-z0-9_.-]*$';
export const kindSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: KIND_PATTERN,
  description: 'What happened: `print.finished`, `printer.error`, `slicer_service_disconnected`…',
};

export const notificationIdSchema: JsonSchema = { type: 'string', pattern: '^[1-9][0-9]{0,15}$' };

export const notificationSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'level', 'title', 'message', 'data', 'created_at', 'read'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    level: { type: 'string', enum: [...NOTIFICATION_LEVELS] },
    title: { type: 'string' },
    message: { type: 'string' },
    data: { type: 'object', description: 'Machine-readable details: printer id, file name…' },
    created_at: dateTime,
    read: { type: 'boolean' },
  },
};

export const notificationInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'level', 'title', 'message'],
  properties: {
    kind: kindSchema,
    level: { type: 'string', enum: [...NOTIFICATION_LEVELS] },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    message: { type: 'string', maxLength: 4000 },
    data: {
      type: 'object',
      description: `Machine-readable details: at most ${DATA_MAX_BYTES / 1024} KB as JSON, nesting at most ${DATA_MAX_DEPTH} levels.`,
    },
  },
};

export const pageSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'unread_count', 'next_before'],
  properties: {
    items: { type: 'array', items: notificationSchema, description: 'Newest first.' },
    unread_count: { type: 'integer', minimum: 0 },
    next_before: { type: ['string', 'null'], description: 'Pass as `before` for the next page; null on the last one.' },
  },
};

export const deliveryResultSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ok', 'attempts', 'http_status', 'error', 'at'],
  properties: {
    ok: { type: 'boolean' },
    attempts: { type: 'integer', minimum: 1 },
    http_status: { type: ['integer', 'null'], description: "The receiver's last HTTP status; null without an answer." },
    error: { type: ['string', 'null'] },
    at: dateTime,
  },
};

export const channelIdSchema: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };

const commonInput: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100, format: NAME_FORMAT },
  enabled: { type: 'boolean', description: 'Default true.' },
  kinds: {
    type: ['array', 'null'],
    items: kindSchema,
    maxItems: 100,
    description: 'Notification kinds this channel receives; null or absent for all.',
  },
};

function oneOrOneOf(schemas: JsonSchema[]): JsonSchema {
  return schemas.length === 1 ? schemas[0] : { oneOf: schemas };
}

/** POST body: `type` picks the channel type, whose fields come beside the common ones. */
export function channelCreateSchema(types: readonly ChannelType[]): JsonSchema {
  return oneOrOneOf(
    types.map((t) => ({
      type: 'object',
      additionalProperties: false,
      description: t.description,
      required: ['type', 'name', ...t.required],
      properties: { type: { const: t.type }, ...commonInput, ...t.fields },
    })),
  );
}

/** PUT body: any of the fields; `type` may be repeated but not changed. */
export function channelUpdateSchema(types: readonly ChannelType[]): JsonSchema {
  const fields: Record<string, JsonSchema> = {};
  for (const t of types) Object.assign(fields, t.fields);
  return {
    type: 'object',
    additionalProperties: false,
    properties: { type: { type: 'string', enum: types.map((t) => t.type) }, ...commonInput, ...fields },
  };
}

export function channelViewSchema(types: readonly ChannelType[]): JsonSchema {
  return oneOrOneOf(
    types.map((t) => {
      const own: Record<string, JsonSchema> = {};
      for (const [key, schema] of Object.entries(t.fields)) {
        if (t.secrets.includes(key)) {
          own[key] = { type: ['string', 'null'], enum: ['***', null], description: '"***" when set; never returned in clear.' };
          own[`${key}_set`] = { type: 'boolean' };
        } else {
          own[key] = t.required.includes(key) ? schema : { anyOf: [schema, { type: 'null' }] };
        }
      }
      return {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'type',
          'name',
          'enabled',
          'kinds',
          ...Object.keys(own),
          'created_at',
          'updated_at',
          'last_status',
          'last_error',
          'last_delivery_at',
        ],
        properties: {
          id: { type: 'string' },
          type: { const: t.type },
          name: { type: 'string' },
          enabled: { type: 'boolean' },
          kinds: { type: ['array', 'null'], items: { type: 'string' } },
          ...own,
          created_at: dateTime,
          updated_at: dateTime,
          last_status: {
            type: ['string', 'null'],
            enum: ['delivered', 'failed', null],
            description: 'Outcome of the last delivery; null before the first.',
          },
          last_error: { type: ['string', 'null'] },
          last_delivery_at: nullableDateTime,
        },
      };
    }),
  );
}
