/** JSON Schemas of the slicer-service routes: inputs (enforced) and responses (documented). */
import type { JsonSchema } from '../../http/route.js';
import { SLICE_FORM_PROPERTIES } from '../slice-http.js';

const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };
const BACKEND: JsonSchema = { type: 'string', enum: ['remote', 'bridge', 'native'] };

export const REMOTE_STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The slicer service integration: its settings and the last probe (cached 60 s).',
  required: ['enabled', 'configured', 'url', 'state', 'ok', 'version', 'api', 'upstream', 'last_check', 'error'],
  properties: {
    enabled: { type: 'boolean', description: 'slicer_service.enabled; when false the UI hides the indicator.' },
    configured: { type: 'boolean', description: 'Enabled with a URL to probe; the indicator shows only when true.' },
    url: { type: 'string' },
    state: { type: 'string', enum: ['unknown', 'reachable', 'unreachable'] },
    ok: { type: ['boolean', 'null'], description: 'Reachable, accepts the token, speaks API 1; null before the first probe or while disabled.' },
    version: NULLABLE_STRING,
    api: { type: ['integer', 'null'] },
    upstream: NULLABLE_STRING,
    last_check: { type: ['string', 'null'], format: 'date-time' },
    error: {
      type: ['string', 'null'],
      description:
        'Why the service cannot be used, in words anyone may read: every failure to reach the address ' +
        '(refused, timed out, not a slicer service) is "the slicer service cannot be reached".',
    },
    error_detail: {
      type: ['string', 'null'],
      description: "Admins only: what made the last probe fail (connection refused, time-out, the service's answer), cleaned of the token.",
    },
    token: { type: 'string', const: '***', description: 'Present only when a token is set; the token itself is never shown.' },
    token_set: { type: 'boolean' },
  },
};

export const CONFIGURE_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      maxLength: 2048,
      description:
        'Base URL of the slicer service (http or https), without a user name or password. ' +
        'On another origin than the stored URL the token must be given again.',
    },
    token: {
      type: 'string',
      maxLength: 4096,
      format: 'password',
      description: "Bearer token; '***' keeps the stored one (same origin only), '' removes it.",
    },
    enabled: { type: 'boolean' },
  },
};

export const CONFIGURE_RESPONSE_SCHEMA: JsonSchema = {
  ...REMOTE_STATUS_SCHEMA,
  required: [...(REMOTE_STATUS_SCHEMA.required as string[]), 'overridden'],
  properties: {
    ...(REMOTE_STATUS_SCHEMA.properties as Record<string, JsonSchema>),
    overridden: {
      type: 'array',
      items: { type: 'string', enum: ['url', 'token'] },
      description: 'Keys saved to config.json that stay overridden by the environment (SLICER_URL, SLICER_TOKEN).',
    },
  },
};

/** Upstream job ids are 16 hex digits with our service; any safe path segment is passed on. */
export const JOB_ID_SCHEMA: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' };
export const RESULT_ID_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-f]{16}$',
  description: 'A slice result of POST /api/slicer/remote/slice.',
};

export const JOB_OWNER_SCHEMA: JsonSchema = {
  type: ['object', 'null'],
  description: 'Who started the job or result: a user or an API key of this dashboard; null when unknown (a job not started through this dashboard).',
  required: ['kind', 'id', 'name'],
  properties: {
    kind: { type: 'string', enum: ['user', 'api_key'] },
    id: { type: 'string', description: 'User id, or API key id.' },
    name: { type: 'string', description: 'Username, or API key name, when the job started.' },
  },
};

export const JOB_RECORD_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'A job of the slicer service as it lists it (id, state, model_name, stage, pct, result, error, …), with its owner. Strings are cleaned of the ' +
    "dashboard's token and of credentials. For everyone but admins, server paths are removed: `result.gcode_path` and any `…_path`/`…_dir` field, " +
    "values that are absolute paths, and paths inside texts; a finished result's `gcode_url` and `preview_url` are the dashboard's.",
  required: ['id', 'owner'],
  properties: {
    id: { type: 'string' },
    state: { type: 'string' },
    owner: JOB_OWNER_SCHEMA,
    result: {
      type: ['object', 'null'],
      properties: {
        gcode_path: { type: 'string', description: 'Admins only: where the service keeps the file.' },
        gcode_url: { type: 'string', description: 'Download through the dashboard.' },
        preview_url: { type: 'string', description: 'PNG preview through the dashboard.' },
      },
    },
  },
};

export const JOB_LIST_SCHEMA: JsonSchema = {
  type: 'object',
  description: "The service's queue: its `running`, `queued` and `finished` jobs, and what else it sends (`limits`).",
  properties: {
    running: { type: 'array', items: JOB_RECORD_SCHEMA },
    queued: { type: 'array', items: JOB_RECORD_SCHEMA },
    finished: { type: 'array', items: JOB_RECORD_SCHEMA },
  },
};

export const PROFILE_LIST_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['profiles'],
  properties: {
    profiles: {
      type: 'array',
      description: "The slicer service's catalogue as it lists it (id, kind, name, vendor, is_default, settings…).",
      items: {
        type: 'object',
        required: ['id', 'kind', 'name'],
        properties: { id: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
      },
    },
  },
};

export const SLICE_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'created_at',
    'backend',
    'skipped',
    'file_name',
    'format',
    'size_bytes',
    'layers',
    'estimated_time_s',
    'filament_mm',
    'filament_g',
    'duration_ms',
    'warnings',
    'gcode_url',
    'owner',
  ],
  properties: {
    id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    backend: { ...BACKEND, description: 'The backend that produced the G-code.' },
    skipped: {
      type: 'array',
      description: 'Backends tried before, with the reason each was passed over.',
      items: { type: 'object', required: ['backend', 'reason'], properties: { backend: BACKEND, reason: { type: 'string' } } },
    },
    file_name: { type: 'string' },
    format: { type: 'string', enum: ['gcode', 'gcode.3mf'] },
    size_bytes: { type: 'integer' },
    layers: { type: ['integer', 'null'] },
    estimated_time_s: { type: ['integer', 'null'] },
    filament_mm: { type: 'array', items: { type: 'number' } },
    filament_g: { type: 'array', items: { type: 'number' } },
    duration_ms: { type: 'integer' },
    warnings: { type: 'array', items: { type: 'string' } },
    gcode_url: { type: 'string', description: 'Download path of the file (kept 24 h, the newest 20); results carry no server path.' },
    owner: JOB_OWNER_SCHEMA,
  },
};

export const SLICE_FORM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['model', 'printer_id', 'filament_ids', 'process_id'],
  properties: SLICE_FORM_PROPERTIES,
};

export const SLICE_AND_SEND_FORM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['model', 'printer_id', 'filament_ids', 'process_id'],
  properties: {
    ...SLICE_FORM_PROPERTIES,
    printer_id: { type: 'string', description: 'The dashboard printer to send the file to (GET /api/printers).' },
    printer_profile_id: { type: 'string', description: "Printer profile to slice with; default: the printer's printer_profile." },
  },
};

export const SEND_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['result', 'printer', 'remote_name', 'started'],
  properties: {
    result: SLICE_RESULT_SCHEMA,
    printer: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
    remote_name: { type: 'string', description: 'The file name on the printer.' },
    started: { const: true },
  },
};
