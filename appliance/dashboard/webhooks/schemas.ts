/** JSON Schemas of the webhook routes: the receivers admins manage and the answers to senders. */
import type { JsonSchema } from '../http/route.js';
import { EVENT_KINDS, MONITOR_SERVICES } from './monitor-event.js';
import { ACTIONS } from './receivers.js';
import { FAILURE_REASONS } from './verify.js';

const actionList: JsonSchema = { type: 'array', items: { type: 'string', enum: [...ACTIONS] }, maxItems: ACTIONS.length };
const actionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: actionList,
  description:
    `Per event kind (${EVENT_KINDS.join(', ')}), what to do: notify (a notification), pause (the mapped printer's print), ` +
    'record (on the print in the history). Kinds not listed do nothing.',
};
const mappingSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['service_printer', 'printer_id'],
  properties: {
    service_printer: { type: 'string', minLength: 1, maxLength: 200, description: "The service's printer id or name, as its payloads carry it." },
    printer_id: { type: 'string', minLength: 1, maxLength: 100, description: 'The printer of this box.' },
  },
};
const secretSchema: JsonSchema = {
  type: 'string',
  minLength: 16,
  maxLength: 200,
  format: 'password',
  description: 'The shared secret (write-only; at least 16 characters). Generated when a new receiver is given none.',
};

const inputProperties: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100, format: 'display-name' },
  enabled: { type: 'boolean' },
  secret: secretSchema,
  printers: { type: 'array', items: mappingSchema, maxItems: 100 },
  default_printer_id: { type: ['string', 'null'], maxLength: 100, description: 'The printer of messages no mapping names.' },
  actions: actionsSchema,
};

export const createReceiverSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'service'],
  properties: { ...inputProperties, service: { type: 'string', enum: [...MONITOR_SERVICES] } },
};

export const updateReceiverSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...inputProperties, service: { type: 'string', enum: [...MONITOR_SERVICES] } },
};

export const receiverSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'service', 'enabled', 'secret_set', 'printers', 'default_printer_id', 'actions', 'created_at', 'last_event'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    service: { type: 'string', enum: [...MONITOR_SERVICES] },
    enabled: { type: 'boolean' },
    secret_set: { type: 'boolean', description: 'The secret itself is never shown after creation.' },
    printers: { type: 'array', items: mappingSchema },
    default_printer_id: { type: ['string', 'null'] },
    actions: actionsSchema,
    created_at: { type: 'string', format: 'date-time' },
    last_event: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['at', 'kind', 'service_event'],
      properties: {
        at: { type: 'string', format: 'date-time' },
        kind: { type: 'string', enum: [...EVENT_KINDS] },
        service_event: { type: 'string' },
      },
    },
  },
};

export const createdReceiverSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['receiver', 'secret'],
  properties: { receiver: receiverSchema, secret: { type: 'string', description: 'The secret, shown this once.' } },
};

export const webhookResultSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['receiver_id', 'event', 'service_event', 'printer_id', 'actions'],
  properties: {
    receiver_id: { type: 'string' },
    event: { type: 'string', enum: [...EVENT_KINDS] },
    service_event: { type: 'string' },
    printer_id: { type: ['string', 'null'] },
    actions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['action', 'done', 'detail'],
        properties: { action: { type: 'string', enum: [...ACTIONS] }, done: { type: 'boolean' }, detail: { type: 'string' } },
      },
    },
  },
};

export const verifyFailureSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'code', 'reason'],
  properties: {
    error: { type: 'string' },
    code: { const: 'ERR_UNAUTHORIZED' },
    reason: { type: 'string', enum: [...FAILURE_REASONS] },
  },
};
