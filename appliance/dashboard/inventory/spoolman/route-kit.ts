/**
 * How a `/api/v1` route is declared: public to the router (Spoolman clients send no credentials;
 * access.ts decides), with the level it needs checked first, and failures answered in Spoolman's
 * shapes (errors.ts).
 */
import type { Logger } from '../../../common/logger.js';
import type { JsonSchema, Level, ResponseSpec, RouteContext, RouteSpec } from '../../http/route.js';
import type { SpoolmanAccess } from './access.js';
import { spoolmanHandler } from './errors.js';
import { MAX_BODY_BYTES, textQuery } from './input.js';

export const SPOOLMAN_TAG = 'spoolman';
export const messageSchema: JsonSchema = { type: 'object', properties: { message: { type: 'string' } } };

export interface V1Route {
  method: RouteSpec['method'];
  path: string;
  level: Level;
  summary: string;
  description?: string;
  query?: readonly string[];
  body?: JsonSchema;
  ok: ResponseSpec & { status?: number };
  handler(ctx: RouteContext): unknown;
}

export function v1Route(access: SpoolmanAccess, log: Logger, route: V1Route): RouteSpec {
  const errors: Record<number, ResponseSpec> = {
    400: { description: 'Refused: `{"message"}`.', schema: messageSchema },
    404: { description: 'Not found: `{"message"}`.', schema: messageSchema },
    422: { description: 'Invalid input: `{"detail": [...]}` as FastAPI answers.', schema: { type: 'object' } },
  };
  return {
    method: route.method,
    path: `/api/v1${route.path}`,
    level: 'public',
    tag: SPOOLMAN_TAG,
    summary: route.summary,
    description: `${route.description ?? ''} Needs ${route.level} (see the inventory README for /api/v1 access).`.trim(),
    params: Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map((m) => [m[1], { type: 'string', maxLength: 32 }])),
    query: textQuery(route.query ?? []),
    body: route.body ? { kind: 'raw', contentType: 'application/json', maxBytes: MAX_BODY_BYTES, schema: route.body } : undefined,
    responses: { [route.ok.status ?? 200]: route.ok, ...errors },
    handler: spoolmanHandler(log, async (ctx) => {
      if (route.level !== 'public') await access.require(ctx.req.headers, ctx.ip, route.level);
      return route.handler(ctx);
    }),
  };
}
