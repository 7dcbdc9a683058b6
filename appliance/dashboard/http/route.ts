/**
 * The shape of a dashboard endpoint. Every feature describes its routes this way; the router
 * (http/router.ts) registers them on hyper-express, enforces the level, parses and validates the
 * JSON body, counts the request against the rate limit, maps errors to `{ error, code, details? }`,
 * and the OpenAPI description (openapi/) is generated from the same list, so the two cannot drift.
 */
import type { Request, Response } from 'hyper-express';
import type { JsonSchema } from '../../common/json-schema.js';

/** Roles of users and API keys, weakest first: each includes the rights of the ones before it. */
export const ROLES = ['view', 'print', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** What a route needs: `public` routes take no credentials at all. */
export type Level = 'public' | Role;

/** Who made the request, as the authenticator established it. */
export interface Principal {
  kind: 'user' | 'api_key';
  /** User id, or API key id. */
  id: string;
  /** Username, or API key name. */
  name: string;
  role: Role;
  /** The JWT's `jti` when the request came with a session token (logout revokes it). */
  token_id?: string;
  /** The JWT's expiry, seconds since the epoch. */
  token_exp?: number;
}

/** Resolves the credentials of a request; null when there are none or they are not valid. */
export interface Authenticator {
  authenticate(headers: Readonly<Record<string, string | undefined>>): Promise<Principal | null>;
  /** For the WebSocket, where the token may come in a query parameter or the first message. */
  authenticateToken(token: string): Promise<Principal | null>;
}

/** The router validates bodies against it (common/json-schema.ts). */
export type { JsonSchema };

export interface ResponseSpec {
  description: string;
  /** Schema of a JSON body; omit for empty bodies. */
  schema?: JsonSchema;
  /** Defaults to application/json; e.g. `text/csv`, `image/png`, `text/event-stream`. */
  contentType?: string;
}

export type BodySpec =
  /** A JSON body, parsed and validated before the handler runs (400 with `details` otherwise). */
  | { kind: 'json'; schema: JsonSchema; maxBytes?: number }
  /** A raw or multipart body that the handler reads itself. */
  | { kind: 'raw'; contentType: string; maxBytes: number; schema?: JsonSchema };

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** hyper-express style: `/api/printers/:id`. */
  path: string;
  level: Level;
  /** OpenAPI tag: the feature's name. */
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters by name. */
  params?: Record<string, JsonSchema>;
  /** Query parameters by name; `required` marks the mandatory ones. */
  query?: Record<string, JsonSchema & { required?: boolean }>;
  body?: BodySpec;
  /** Every status the route answers besides the common errors (401, 403, 429, 500). */
  responses: Record<number, ResponseSpec>;
  /** False for routes the rate limiter does not count (health). Default true. */
  rateLimited?: boolean;
  handler(ctx: RouteContext): unknown;
}

export interface RouteContext<B = unknown> {
  req: Request;
  res: Response;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The validated JSON body (undefined for routes without a JSON body). */
  body: B;
  principal: Principal | null;
  /** The client address, as the rate limiter and the login throttle see it. */
  ip: string;
}

/**
 * What a handler returns: a `Reply` sets status, headers and body; any other value is sent as a
 * 200 JSON body; undefined means 204. A handler that wrote the response itself (a stream, a
 * file) returns after doing so and the router leaves it alone.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
