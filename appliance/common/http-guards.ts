/**
 * Guards around hyper-express 6.18's handling of request bodies: the one module that reaches into
 * its internals (the version is pinned in package.json; test/common/http-guards.test.ts fails when
 * an upgrade moves them).
 *
 * - Ambiguous headers are refused before a byte of the body is read. uWS frames the body by the
 *   first Content-Length and hyper-express sizes its buffer by the last, so two different values
 *   gave a body padded with zero bytes, or a RangeError inside uWS's data callback that ended the
 *   process. Several Authorization or X-API-Key headers are refused for the same reason: which
 *   one counted was an accident of the parser.
 * - An exception inside hyper-express's body chunk handler runs in uWS's callback, where nothing
 *   catches it and the process ends: it now closes that one connection instead.
 * - hyper-express's abort handler resumes a request that was paused (a long reply holds its request
 *   paused), and resuming touches the uWS response, which throws once uWS has reported the abort:
 *   a client leaving a held reply ended the process. Pausing or resuming a request whose response
 *   is gone now does nothing.
 * - An error answer does not wait for the rest of the body. hyper-express holds every response
 *   until the whole body is in, so a refused 1 GB upload was read to its end before its 413 left.
 *   `replyBeforeBody` stops the body parser (from then on hyper-express drops incoming chunks
 *   without touching the uWS response) and writes the answer straight to uWS on the next turn of
 *   the event loop. The connection stays open and uWS drops what is left of the body without
 *   storing it: closing it instead made Node's fetch report a broken connection (EPIPE, "other
 *   side closed") in place of the answer, while curl and browsers stop sending once they read it.
 *   uWS itself answers `Expect: 100-continue` before any handler runs; the refusal follows at once.
 * - An answer without a body (204, and HEAD without a known length) went out with
 *   `Content-Length: 9223372036854775808`: hyper-express hands uWS an explicit `undefined` length,
 *   which uWS reads as a number. The client then waited for a body that never came, or dropped the
 *   kept-alive connection. An undefined length is now left out, as uWS means it to be.
 */
import { createRequire } from 'node:module';
import type { MiddlewareHandler, Response, Server } from 'hyper-express';
import { payloadTooLarge } from './body-size.js';
import { AppError, ErrorCode } from './errors.js';
import type { Logger } from './logger.js';

/** Headers that must come at most once: their duplicates make framing or identity ambiguous. */
const SINGLE_HEADERS = new Set(['content-length', 'transfer-encoding', 'authorization', 'x-api-key', 'content-type', 'host']);

/** What hyper-express 6.18 keeps on a Request and a Response that the guards use. */
interface RequestInternals {
  received: boolean;
  pause(): RequestInternals;
  resume(): RequestInternals;
  raw: { forEach(visit: (name: string, value: string) => void): void };
  _body_parser_stop(): void;
  _body_parser_on_chunk(response: Response, chunk: ArrayBuffer, isLast: boolean): void;
}

interface RawResponse {
  cork(write: () => void): void;
  writeStatus(status: string): void;
  writeHeader(name: string, value: string): void;
  end(body: string, closeConnection: boolean): void;
}

interface ResponseInternals {
  completed: boolean;
  initiated: boolean;
  _raw_response: RawResponse;
  _wrapped_request: RequestInternals;
  _headers: Record<string, string | string[]>;
  route: { app: { _resolve_pending_request(): void } };
}

function badRequest(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

/** The reason to refuse a request's headers, or null when they are unambiguous. */
export function ambiguousHeaders(headers: Iterable<[string, string]>): string | null {
  const seen = new Set<string>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (SINGLE_HEADERS.has(key)) {
      if (seen.has(key)) return `the ${key} header is given more than once`;
      seen.add(key);
    }
    if (key === 'content-length' && !/^\s*\d+\s*$/.test(value)) return `content-length must be one number of bytes, not "${value}"`;
  }
  if (seen.has('content-length') && seen.has('transfer-encoding')) return 'content-length and transfer-encoding must not both be given';
  return null;
}

/**
 * Refuses ambiguous headers (400). A synchronous middleware registered before any route, so it
 * runs first and inside uWS's callback, where the request's raw header list is still readable.
 */
const refuseAmbiguousHeaders: MiddlewareHandler = (request, _response, next) => {
  const headers: [string, string][] = [];
  (request as unknown as RequestInternals).raw.forEach((name, value) => {
    headers.push([name, value]);
  });
  const problem = ambiguousHeaders(headers);
  if (problem !== null) throw badRequest(problem);
  next();
};

let libraryGuarded = false;

/** What uWS throws when a response it has finished or reported aborted is touched. */
function isResponseGone(err: unknown): boolean {
  return err instanceof Error && /must not be accessed after/.test(err.message);
}

type EndWithoutBody = (reportedLength?: number, closeConnection?: boolean) => void;
const lengthFixed = new WeakSet<object>();

/** Wraps uWS's endWithoutBody, once per prototype, so that an undefined length is not passed on. */
function omitUndefinedLength(raw: RawResponse): void {
  const rawPrototype = Object.getPrototypeOf(raw) as { endWithoutBody: EndWithoutBody };
  if (lengthFixed.has(rawPrototype)) return;
  lengthFixed.add(rawPrototype);
  const endWithoutBody = rawPrototype.endWithoutBody;
  rawPrototype.endWithoutBody = function withoutFakeLength(this: unknown, reportedLength?: number, closeConnection?: boolean) {
    if (reportedLength !== undefined) return endWithoutBody.call(this, reportedLength, closeConnection);
    // uWS omits the header only when no length is passed at all; closing needs both arguments.
    return closeConnection ? endWithoutBody.call(this, 0, true) : endWithoutBody.call(this);
  };
}

/** Patches hyper-express's Request and Response once per process (see the header). */
function guardLibrary(log: Logger): void {
  if (libraryGuarded) return;
  libraryGuarded = true;
  const library = createRequire(import.meta.url)('hyper-express') as {
    Request: { prototype: RequestInternals };
    Response: { prototype: { send(this: ResponseInternals, ...args: unknown[]): unknown } };
  };
  const send = library.Response.prototype.send;
  library.Response.prototype.send = function sendWithoutFakeLength(this: ResponseInternals, ...args: unknown[]) {
    omitUndefinedLength(this._raw_response);
    return send.apply(this, args);
  };
  const prototype = library.Request.prototype;
  const handleChunk = prototype._body_parser_on_chunk;
  prototype._body_parser_on_chunk = function guarded(this: RequestInternals, response, chunk, isLast) {
    try {
      handleChunk.call(this, response, chunk, isLast);
    } catch (err) {
      log.warn(`closed a connection whose request body could not be read: ${err instanceof Error ? err.message : String(err)}`);
      try {
        this._body_parser_stop();
      } finally {
        response.close();
      }
    }
  };
  for (const name of ['pause', 'resume'] as const) {
    const original = prototype[name];
    prototype[name] = function flowControl(this: RequestInternals) {
      try {
        return original.call(this);
      } catch (err) {
        if (isResponseGone(err)) return this;
        throw err;
      }
    };
  }
}

/**
 * Refuses a declared Content-Length over the route's limit (its `max_body_length` option, else
 * `defaultMaxBytes`) with a 413 in the service's error shape. hyper-express's own check would
 * answer an empty 413 before any middleware ran, so the server's limit is lifted and this one
 * takes its place; bodies that are read are counted by their readers.
 */
function refuseDeclaredOversize(defaultMaxBytes: number): MiddlewareHandler {
  return (request, _response, next) => {
    const route = (request as unknown as { route: { options: { max_body_length?: number } } }).route;
    const limit = route.options.max_body_length ?? defaultMaxBytes;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      throw payloadTooLarge(limit);
    }
    next();
  };
}

/** Installs the guards on a server; call before any route or middleware is registered. */
export function guardRequestBodies(server: Server, log: Logger, defaultMaxBytes: number): void {
  guardLibrary(log);
  server.use(refuseAmbiguousHeaders);
  server.use(refuseDeclaredOversize(defaultMaxBytes));
}

/** True while the request's body is still arriving (a response now would otherwise wait for it). */
export function bodyStillArriving(response: Response): boolean {
  const request = (response as unknown as ResponseInternals)._wrapped_request;
  return request !== undefined && request.received === false;
}

export interface EarlyReply {
  status: number;
  headers: Record<string, string>;
  /** A JSON text. */
  body: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** Headers that the early answer writes itself (uWS adds Content-Length). */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'connection']);

/**
 * Answers now, before the rest of the body, which uWS then reads and drops. Headers already set
 * on the response (e.g. the security headers) go out with it.
 */
export function replyBeforeBody(response: Response, reply: EarlyReply): void {
  const internals = response as unknown as ResponseInternals;
  if (internals.completed || internals.initiated) return;
  internals._wrapped_request._body_parser_stop();
  // A body that nobody read yet is held by pausing the socket once hyper-express's buffer is full;
  // the rest must flow again for uWS to read and drop it, or the connection would stall.
  internals._wrapped_request.resume();
  // hyper-express may still be inside its chunk handler for this request: write on the next turn.
  setImmediate(() => {
    if (internals.completed) return;
    internals.completed = true;
    internals.initiated = true;
    const headers: [string, string][] = [];
    for (const [name, value] of Object.entries(internals._headers ?? {})) {
      if (OWN_HEADERS.has(name.toLowerCase())) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
    }
    for (const [name, value] of Object.entries(reply.headers)) headers.push([name, value]);
    headers.push(['content-type', 'application/json']);
    const raw = internals._raw_response;
    raw.cork(() => {
      raw.writeStatus(`${reply.status} ${STATUS_TEXT[reply.status] ?? 'Error'}`);
      for (const [name, value] of headers) raw.writeHeader(name, value);
      raw.end(reply.body, false);
    });
    internals.route.app._resolve_pending_request();
  });
}
