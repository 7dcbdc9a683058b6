/**
 * Registers RouteSpecs on hyper-express and runs every request through the same steps: the
 * credentials (unless the route is public), the rate limit, 401/403 by level, path and query
 * parameters, the JSON body (size, syntax, nesting depth, schema), the handler, and the reply.
 * Every failure is answered in the one error shape `{ error, code, details? }`; unknown routes
 * get a 404 in it.
 *
 * The router keeps the list of what it registered: the OpenAPI description is built from it.
 */
import type { Request, Response, Server } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { assertSupportedSchema, validate, type ValidationIssue } from '../../common/json-schema.js';
import { sendError } from '../../common/http-errors.js';
import type { Logger } from '../../common/logger.js';
import { checkDeclaredLength, readBody, ROUTE_BODY_OPTIONS } from './body.js';
import { clientAddress } from './client-address.js';
import type { RateLimiter } from './rate-limit.js';
import {
  Reply,
  ROLES,
  type Authenticator,
  type JsonSchema,
  type Level,
  type Principal,
  type Role,
  type RouteContext,
  type RouteSpec,
} from './route.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parameterValue, validationError } from './validate.js';

/** Body limit of JSON routes that do not set their own. */
export const DEFAULT_JSON_MAX_BYTES = 1024 * 1024;

/** True when `role` may call a route of `level`. */
export function roleSatisfies(role: Role, level: Level): boolean {
  return level === 'public' || ROLES.indexOf(role) >= ROLES.indexOf(level);
}

export interface RouterDeps {
  auth: Authenticator;
  limiter: RateLimiter;
  log: Logger;
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined || value.trim() === '') return true;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** The parameter names of a hyper-express path, in order: `/a/:id/b/:x` → id, x. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

function readParams(spec: RouteSpec, request: Request, issues: ValidationIssue[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of pathParameterNames(spec.path)) {
    const raw = request.path_parameters[name] ?? '';
    let text: string;
    try {
      text = decodeURIComponent(raw);
    } catch {
      issues.push({ path: `path/${name}`, message: 'is not validly percent-encoded' });
      continue;
    }
    params[name] = text;
    const schema = spec.params?.[name];
    if (schema) issues.push(...validate(schema, parameterValue(schema, text), `path/${name}`));
  }
  return params;
}

function readQuery(spec: RouteSpec, request: Request, issues: ValidationIssue[]): Record<string, string> {
  const declared = spec.query ?? {};
  const query: Record<string, string> = {};
  for (const [name, text] of new URLSearchParams(request.path_query)) {
    const where = `query/${name}`;
    if (!Object.hasOwn(declared, name)) issues.push({ path: where, message: 'is not a parameter of this endpoint' });
    else if (Object.hasOwn(query, name)) issues.push({ path: where, message: 'is given more than once' });
    else query[name] = text;
  }
  for (const [name, schema] of Object.entries(declared)) {
    const valueSchema = queryValueSchema(schema);
    if (!Object.hasOwn(query, name)) {
      if (schema.required) issues.push({ path: `query/${name}`, message: 'is required' });
      continue;
    }
    issues.push(...validate(valueSchema, parameterValue(valueSchema, query[name]), `query/${name}`));
  }
  return query;
}

async function readJson(spec: RouteSpec, request: Request): Promise<unknown> {
  const body = spec.body;
  // Without a JSON body to parse, only an announced oversize is refused here; hyper-express
  // discards an unread body, and raw handlers count what they read themselves.
  if (body === undefined || body.kind === 'raw') {
    checkDeclaredLength(request, body?.maxBytes ?? DEFAULT_JSON_MAX_BYTES);
    return undefined;
  }
  const bytes = await readBody(request, body.maxBytes ?? DEFAULT_JSON_MAX_BYTES);
  if (!isJsonContentType(request.headers['content-type'])) {
    throw validationError([{ path: 'body', message: `must be sent as application/json, not ${request.headers['content-type']}` }]);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') throw validationError([{ path: 'body', message: 'is required (a JSON document)' }]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError([{ path: 'body', message: `is not valid JSON: ${(err as Error).message}` }]);
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw validationError([{ path: 'body', message: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }]);
  }
  const issues = validate(body.schema, value, 'body');
  if (issues.length > 0) throw validationError(issues);
  return value;
}

function sendResult(response: Response, result: unknown): void {
  if (response.initiated || response.completed) return;
  if (result instanceof Reply) {
    response.status(result.status);
    for (const [name, value] of Object.entries(result.headers)) response.header(name, value, true);
    if (result.body === undefined) response.send();
    else if (typeof result.body === 'string' || Buffer.isBuffer(result.body)) response.send(result.body);
    else response.json(result.body);
    return;
  }
  if (result === undefined) {
    response.status(204).send();
    return;
  }
  response.json(result);
}

/** Checks a spec once, at registration: a mistake there is a bug, found at start not per request. */
function checkSpec(spec: RouteSpec): void {
  const where = `${spec.method.toUpperCase()} ${spec.path}`;
  const names = pathParameterNames(spec.path);
  for (const name of Object.keys(spec.params ?? {})) {
    if (!names.includes(name)) throw new AppError(ErrorCode.internal, 500, `${where}: params names "${name}", which is not in the path`);
  }
  for (const [name, schema] of Object.entries(spec.params ?? {})) assertSupportedSchema(schema, `${where} path parameter ${name}`);
  for (const [name, schema] of Object.entries(spec.query ?? {})) assertSupportedSchema(queryValueSchema(schema), `${where} query parameter ${name}`);
  if (spec.body?.schema) assertSupportedSchema(spec.body.schema, `${where} body`);
}

/** A query parameter's schema without the route-level `required` flag. */
export function queryValueSchema(schema: JsonSchema & { required?: boolean }): JsonSchema {
  const { required: _flag, ...valueSchema } = schema;
  return valueSchema;
}

export class DashboardRouter {
  private readonly registered: RouteSpec[] = [];
  private readonly keys = new Set<string>();

  constructor(
    private readonly app: Server,
    private readonly deps: RouterDeps,
  ) {}

  /** Every route registered so far, in order. */
  get routes(): readonly RouteSpec[] {
    return this.registered;
  }

  add(spec: RouteSpec): void {
    checkSpec(spec);
    // `/a/:id` and `/a/:name` are the same route to uWS.
    const key = `${spec.method} ${spec.path.replace(/:[A-Za-z0-9_]+/g, ':')}`;
    if (this.keys.has(key)) throw new AppError(ErrorCode.internal, 500, `route ${spec.method.toUpperCase()} ${spec.path} is registered twice`);
    this.keys.add(key);
    this.registered.push(spec);
    this.app[spec.method](spec.path, ROUTE_BODY_OPTIONS, (request, response) => this.handle(spec, request, response));
  }

  /** Installs the 404 for unknown routes and the last-resort error handler; call after all routes. */
  finish(): void {
    const { log } = this.deps;
    this.app.set_error_handler((_request, response, err) => sendError(response, err, log, { details: true }));
    this.app.set_not_found_handler((request, response) => {
      sendError(response, new AppError(ErrorCode.notFound, 404, `no route ${request.method} ${request.path}`), log);
    });
  }

  private async handle(spec: RouteSpec, request: Request, response: Response): Promise<void> {
    const { auth, limiter, log } = this.deps;
    try {
      const ip = clientAddress(request);
      const principal: Principal | null = spec.level === 'public' ? null : await auth.authenticate(request.headers);
      if (spec.rateLimited !== false) {
        const decision = limiter.take(principal ? `${principal.kind}:${principal.id}` : `ip:${ip}`);
        if (!decision.allowed) {
          const err = new AppError(ErrorCode.rateLimited, 429, `too many requests; retry in ${decision.retryAfterS} s`);
          sendError(response, err, log, { headers: { 'retry-after': String(decision.retryAfterS) } });
          return;
        }
      }
      if (spec.level !== 'public') {
        if (principal === null) throw new AppError(ErrorCode.unauthorized, 401, 'authentication required: send a session token or an API key');
        if (!roleSatisfies(principal.role, spec.level)) {
          throw new AppError(ErrorCode.forbidden, 403, `this needs the ${spec.level} level; ${principal.name} has ${principal.role}`);
        }
      }
      const issues: ValidationIssue[] = [];
      const params = readParams(spec, request, issues);
      const query = readQuery(spec, request, issues);
      if (issues.length > 0) throw validationError(issues);
      const body = await readJson(spec, request);
      const ctx: RouteContext = { req: request, res: response, params, query, body, principal, ip };
      sendResult(response, await spec.handler(ctx));
    } catch (err) {
      sendError(response, err, log, { details: true });
    }
  }
}
