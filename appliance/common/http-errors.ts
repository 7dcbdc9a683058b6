/**
 * The one place where errors become HTTP responses: `{ error: <message>, code: <code> }` with the
 * error's status. AppErrors carry their own code and status; anything else is a bug, logged with
 * its stack and answered as the service's internal error without leaking details.
 *
 * The dashboard's shape adds `details` (e.g. which fields failed validation) when the AppError
 * has them; the slicer service's contract has no such field, so it is opt-in.
 */
import type { Response } from 'hyper-express';
import { AppError, ErrorCode } from './errors.js';
import { bodyStillArriving, replyBeforeBody } from './http-guards.js';
import type { Logger } from './logger.js';

export interface ErrorBody {
  error: string;
  code: string;
  details?: unknown;
}

export interface ErrorShape {
  /** Include the AppError's `details` in the body when it has any. */
  details?: boolean;
  /** Headers that replace the defaults, e.g. an exact Retry-After. */
  headers?: Record<string, string>;
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** Extra response headers, e.g. Retry-After for 429 and 503. */
  headers: Record<string, string>;
}

/** Seconds a client should wait before retrying, for the statuses where that is meaningful. */
const RETRY_AFTER_S: Record<number, string> = { 429: '5', 503: '10' };

export function mapError(err: unknown, log: Logger, shape: ErrorShape = {}): MappedError {
  if (err instanceof AppError) {
    const status = Number.isInteger(err.status) && err.status >= 400 && err.status <= 599 ? err.status : 500;
    if (status >= 500) log.warn(err.message, { code: err.code, status });
    const retry = RETRY_AFTER_S[status];
    const body: ErrorBody = { error: err.message, code: err.code };
    if (shape.details && err.details !== undefined) body.details = err.details;
    return { status, body, headers: { ...(retry ? { 'retry-after': retry } : {}), ...shape.headers } };
  }
  log.error(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return { status: 500, body: { error: 'internal error', code: ErrorCode.internal }, headers: {} };
}

/**
 * Sends an error unless the response is already under way (then the connection is closed). While
 * the request body is still arriving the error goes out at once, instead of after the rest of a
 * body that is refused anyway.
 */
export function sendError(response: Response, err: unknown, log: Logger, shape: ErrorShape = {}): void {
  const mapped = mapError(err, log, shape);
  if (response.completed) return;
  if (response.initiated) {
    response.close();
    return;
  }
  if (bodyStillArriving(response)) {
    replyBeforeBody(response, { status: mapped.status, headers: mapped.headers, body: JSON.stringify(mapped.body) });
    return;
  }
  response.status(mapped.status);
  for (const [name, value] of Object.entries(mapped.headers)) response.header(name, value, true);
  response.json(mapped.body);
}
