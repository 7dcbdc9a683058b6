/**
 * The OpenAPI 3.1 description, built from the router's RouteSpecs: one operation per registered
 * route, its parameters, body and responses, plus what the router adds to every route (the error
 * shape, 401/403 by level, 429 when rate limited, 400 when it validates input, 413 when it takes
 * a body, 500). Public routes say `security: []`; the others accept a session token (bearer
 * JWT) or an API key in X-API-Key.
 */
import { NAME_FORMAT, NAME_RULE } from '../../common/names.js';
import { packageVersion } from '../../common/version.js';
import { pathParameterNames, queryValueSchema } from '../http/router.js';
import type { JsonSchema, ResponseSpec, RouteSpec } from '../http/route.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from '../live/protocol.js';
import { WS_PATH } from '../live/websocket.js';

export const API_KEY_HEADER = 'X-API-Key';

type Json = Record<string, unknown>;

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The body of every error response.',
  required: ['error', 'code'],
  properties: {
    error: { type: 'string', description: 'What went wrong, for people.' },
    code: { type: 'string', description: 'Stable machine-readable code, e.g. ERR_VALIDATION.', examples: ['ERR_VALIDATION'] },
    details: {
      type: 'array',
      description: 'For validation errors: each bad field and what is wrong with it.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'Where: `body/rate_limit/per_minute`, `query/limit`, `path/id`.' },
          message: { type: 'string' },
        },
      },
    },
  },
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const COMMON_RESPONSES: Record<string, Json> = {
  BadRequest: { description: 'The input is not valid (ERR_VALIDATION); `details` names each bad field.', content: errorContent },
  Unauthorized: { description: 'No valid session token or API key (ERR_UNAUTHORIZED).', content: errorContent },
  Forbidden: { description: 'The credentials are valid but their role is below the level of this endpoint (ERR_FORBIDDEN).', content: errorContent },
  PayloadTooLarge: { description: 'The body is larger than this endpoint accepts (ERR_PAYLOAD_TOO_LARGE).', content: errorContent },
  RateLimited: {
    description: 'Too many requests from this client (ERR_RATE_LIMITED).',
    headers: { 'Retry-After': { description: 'Seconds until the next request is allowed.', schema: { type: 'integer', minimum: 1 } } },
    content: errorContent,
  },
  InternalError: { description: 'An unexpected error (ERR_INTERNAL); the details are in the server log.', content: errorContent },
};

/** `/api/printers/:id` → `/api/printers/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationId(route: RouteSpec): string {
  const words = route.path
    .split('/')
    .filter((s) => s !== '' && s !== 'api')
    .map((s) => (s.startsWith(':') ? `by_${s.slice(1)}` : s));
  return [route.method, ...words].join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

function responseObject(spec: ResponseSpec): Json {
  const out: Json = { description: spec.description };
  if (spec.schema !== undefined) out.content = { [spec.contentType ?? 'application/json']: { schema: spec.schema } };
  else if (spec.contentType !== undefined) out.content = { [spec.contentType]: {} };
  return out;
}

function responses(route: RouteSpec): Json {
  const out: Json = {};
  for (const [status, spec] of Object.entries(route.responses)) out[status] = responseObject(spec);
  const common = (status: number, name: string) => {
    out[String(status)] ??= { $ref: `#/components/responses/${name}` };
  };
  const validates = route.body?.kind === 'json' || pathParameterNames(route.path).length > 0 || Object.keys(route.query ?? {}).length > 0;
  if (validates) common(400, 'BadRequest');
  if (route.level !== 'public') {
    common(401, 'Unauthorized');
    common(403, 'Forbidden');
  }
  if (route.body !== undefined) common(413, 'PayloadTooLarge');
  if (route.rateLimited !== false) common(429, 'RateLimited');
  common(500, 'InternalError');
  return out;
}

function parameters(route: RouteSpec): Json[] {
  const list: Json[] = pathParameterNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: route.params?.[name] ?? { type: 'string' },
  }));
  for (const [name, schema] of Object.entries(route.query ?? {})) {
    list.push({ name, in: 'query', required: schema.required === true, schema: queryValueSchema(schema) });
  }
  return list;
}

function operation(route: RouteSpec): Json {
  const level = route.level === 'public' ? 'Public: no credentials needed.' : `Needs the ${route.level} level or higher.`;
  const op: Json = {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, level].filter(Boolean).join('\n\n'),
    'x-level': route.level,
  };
  const params = parameters(route);
  if (params.length > 0) op.parameters = params;
  if (route.body?.kind === 'json') {
    op.requestBody = { required: true, content: { 'application/json': { schema: route.body.schema } } };
  } else if (route.body?.kind === 'raw') {
    op.requestBody = { required: true, content: { [route.body.contentType]: route.body.schema ? { schema: route.body.schema } : {} } };
  }
  op.responses = responses(route);
  if (route.level === 'public') op.security = [];
  return op;
}

/** The WebSocket's events, listed in the description's text (OpenAPI 3.1 has no place for them). */
function liveEventsText(): string {
  const events = EVENT_TYPES.map((type) => `- \`${type}\`: ${EVENT_DESCRIPTIONS[type]}`).join('\n');
  return (
    `Live events: a WebSocket at \`${WS_PATH}\` (the same credentials, as \`?token=\` or a header) sends \`{ type, payload }\` ` +
    'messages, the payload being the event as the server publishes it on its event bus; a client narrows the feed with ' +
    '`{ "type": "subscribe", "types": [...] }`. A print-role session confirms a plate clear with ' +
    '`{ "type": "plate.clear", "printer_id": "…" }`, with the effect and the `printer.plate` event of ' +
    '`POST /api/printers/{id}/plate-cleared`; it is answered `{ "type": "plate.cleared", "payload": <the plate> }`, or ' +
    '`{ "type": "error", "payload": { code, error } }` (ERR_FORBIDDEN for a view session, ERR_NOT_FOUND, ERR_CONFLICT), ' +
    `and the socket stays open.\n\n${events}`
  );
}

/** The whole description of `routes`. */
export function buildOpenApi(routes: readonly RouteSpec[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Printyard dashboard API',
      version: packageVersion(),
      description:
        'The REST API of the Printyard print-farm dashboard. Errors share one body shape (`Error`). ' +
        'Each endpoint states the level it needs (view < print < admin); send a session token from ' +
        `POST /api/auth/login as \`Authorization: Bearer <token>\`, or an API key in \`${API_KEY_HEADER}\`. ` +
        'Requests are rate limited per client (429 with Retry-After). ' +
        `Strings of format \`${NAME_FORMAT}\` are names: ${NAME_RULE}.\n\n${liveEventsText()}`,
    },
    tags,
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      responses: COMMON_RESPONSES,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session token from POST /api/auth/login.' },
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'API key for machine clients.' },
      },
    },
  };
}
