/** Response schemas of the system routes, for the OpenAPI description. */
import type { JsonSchema } from '../http/route.js';

const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };

export const HEALTH_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['ok', 'service', 'version', 'started_at'],
  properties: {
    ok: { const: true },
    service: { type: 'string' },
    version: { type: 'string' },
    started_at: { type: 'string', format: 'date-time' },
  },
};

const PROBLEM: JsonSchema = {
  type: 'object',
  description:
    'A state file that could not be read at start: moved aside, the service started from defaults or, ' +
    'where a store can tell (users.json), from its valid records (the reason says which).',
  required: ['file', 'moved_to', 'reason', 'at'],
  properties: {
    file: { type: 'string' },
    moved_to: { type: 'string' },
    reason: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
  },
};

export const SLICER_STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The remote slicer service: configuration and the last probe (null until probed).',
  required: ['enabled', 'url', 'ok', 'version', 'upstream', 'last_check', 'error'],
  properties: {
    enabled: { type: 'boolean' },
    url: { type: 'string' },
    ok: { type: ['boolean', 'null'] },
    version: NULLABLE_STRING,
    upstream: NULLABLE_STRING,
    last_check: NULLABLE_STRING,
    error: NULLABLE_STRING,
  },
};

export const SYSTEM_INFO_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Besides the keys below, every running feature that reports a state has a block under its name.',
  required: [
    'service',
    'box',
    'version',
    'versions',
    'started_at',
    'uptime_s',
    'data_dir',
    'storage',
    'hardware',
    'features',
    'slicer_service',
    'automation',
  ],
  properties: {
    service: { type: 'string' },
    box: {
      type: 'object',
      description: 'The box: its name (setting box.name, changed through PATCH /api/settings).',
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
    version: { type: 'string', description: 'Product version, shared with the slicer service.' },
    automation: {
      type: 'object',
      description:
        "The Node-RED editor's address as this request's browser reaches it (setting automation.node_red_url, else the request's " +
        'host on port 1880); null when the setting is no http(s) URL. Admins open it with `?access_token=<session token>`.',
      required: ['node_red_url'],
      properties: { node_red_url: NULLABLE_STRING },
    },
    versions: {
      type: 'object',
      properties: {
        printyard: { type: 'string' },
        node: { type: 'string' },
        uws: NULLABLE_STRING,
        hyper_express: NULLABLE_STRING,
      },
    },
    started_at: { type: 'string', format: 'date-time' },
    uptime_s: { type: 'integer' },
    data_dir: { type: 'string' },
    storage: {
      type: 'object',
      properties: {
        ok: { type: 'boolean', description: 'False when free space is unknown or a state file was unreadable.' },
        free_bytes: { type: ['integer', 'null'] },
        total_bytes: { type: ['integer', 'null'] },
        error: NULLABLE_STRING,
        problems: { type: 'array', items: PROBLEM },
      },
    },
    hardware: {
      type: 'object',
      properties: {
        serial: { type: 'object', properties: { available: { type: 'boolean' }, error: NULLABLE_STRING } },
        gpio: {
          type: 'object',
          properties: { available: { type: 'boolean' }, chips: { type: 'array', items: { type: 'string' } }, sysfs: { type: 'boolean' } },
        },
        systemd_notify: { type: 'object', properties: { available: { type: 'boolean' } } },
        mdns: { type: 'object', properties: { running: { type: 'boolean' }, note: { type: 'string' } } },
      },
    },
    features: {
      type: 'array',
      description: 'Every feature and whether it runs; one that failed to start says why, and its routes answer 503 ERR_UNAVAILABLE.',
      items: {
        type: 'object',
        required: ['name', 'state', 'error', 'since'],
        properties: {
          name: { type: 'string' },
          state: { type: 'string', enum: ['running', 'failed'] },
          error: NULLABLE_STRING,
          since: { type: 'string', format: 'date-time' },
        },
      },
    },
    slicer_service: SLICER_STATUS_SCHEMA,
  },
};
