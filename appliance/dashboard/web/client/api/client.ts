/**
 * The one way the app calls the API: `api('GET /api/printers/{id}', { path: { id } })`. The key,
 * the parameters, the body and the answer's type all come from the generated `Operations`
 * (openapi.gen.ts, written from the dashboard's OpenAPI description at build time), so a call to
 * an endpoint that changed does not compile. Errors arrive as ApiError in the API's one error
 * shape; a 401 on a credentialed call ends the session (session.ts decides what happens next).
 */
import type { Operations } from './openapi.gen';

export type OperationKey = keyof Operations;
export type Ok<K extends OperationKey> = Operations[K]['ok'];
type Op<K extends OperationKey> = Operations[K];

type Part<T, Name extends string, Optional extends boolean> = [T] extends [never]
  ? { [P in Name]?: undefined }
  : Optional extends true
    ? { [P in Name]?: T }
    : { [P in Name]: T };

export type CallFields<K extends OperationKey> = Part<Op<K>['path'], 'path', false> &
  Part<Op<K>['query'], 'query', true> &
  Part<Op<K>['body'], 'body', false> & { signal?: AbortSignal };

/** The fields may be left out when none is required. */
type CallArgs<K extends OperationKey> = Record<string, never> extends CallFields<K> ? [fields?: CallFields<K>] : [fields: CallFields<K>];

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

export interface ApiHooks {
  /** The session token to send, if any. */
  token(): string | null;
  /** A credentialed call was refused with 401: the session is over. */
  unauthorized(): void;
}

let hooks: ApiHooks = { token: () => null, unauthorized: () => {} };

export function setApiHooks(next: ApiHooks): void {
  hooks = next;
}

function url(template: string, path: Record<string, string> | undefined, query: Record<string, unknown> | undefined): string {
  const filled = template.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => encodeURIComponent(path?.[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? filled : `${filled}?${text}`;
}

async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: string; code?: string; details?: unknown };
    // Field errors are a list; other errors' details are an object of their own (a scene's overlapping `objects`).
    const fields = Array.isArray(body.details) ? (body.details as ErrorDetail[]) : [];
    return new ApiError(response.status, body.code ?? 'ERR_UNKNOWN', body.error ?? response.statusText, fields);
  } catch {
    return new ApiError(response.status, 'ERR_UNKNOWN', response.statusText || `HTTP ${response.status}`);
  }
}

/**
 * Sends a call and returns its answer once it is known to be a success (2xx); anything else is
 * thrown as ApiError. `accept` is what the caller reads: JSON by default, `text/event-stream` for
 * a stream (api/events.ts).
 */
export async function send<K extends OperationKey>(key: K, fields: CallFields<K> | undefined, accept = 'application/json'): Promise<Response> {
  const [method, template] = (key as string).split(' ');
  const f = (fields ?? {}) as { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal };
  const headers: Record<string, string> = { accept };
  const token = hooks.token();
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (f.body instanceof FormData || f.body instanceof Blob || f.body instanceof ArrayBuffer || f.body instanceof Uint8Array) {
    // Sent as it is: a form's content type (with its boundary) is the browser's to write.
    body = f.body as BodyInit;
  } else if (f.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(f.body);
  }
  const response = await fetch(url(template, f.path, f.query), { method, headers, body, signal: f.signal });
  if (!response.ok) {
    const err = await errorOf(response);
    // Only if the refused token is still the session's: a late answer to an old one ends nothing.
    if (response.status === 401 && token !== null && hooks.token() === token) hooks.unauthorized();
    throw err;
  }
  return response;
}

export async function api<K extends OperationKey>(key: K, ...[fields]: CallArgs<K>): Promise<Ok<K>> {
  const response = await send(key, fields);
  if (response.status === 204) return undefined as Ok<K>;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return (await response.json()) as Ok<K>;
  if (type.startsWith('text/')) return (await response.text()) as Ok<K>;
  return (await response.blob()) as Ok<K>;
}

/** The message to show for a failed call: the API's own, or a word about the network. */
export function reason(err: unknown, networkText: string): string {
  if (err instanceof ApiError) {
    const fields = err.details.map((d) => `${d.path.replace(/^body\//, '')} ${d.message}`);
    return fields.length > 0 ? fields.join('; ') : err.message;
  }
  return err instanceof TypeError ? networkText : String(err);
}

/** The API's field errors by field (`body/password` → password), for forms that show them beside their fields. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) for (const d of err.details) out[d.path.replace(/^body\//, '')] = d.message;
  return out;
}
