/**
 * What the slicer service's answers mean to the dashboard. Two kinds of failure:
 * - the service cannot be used right now (connection refused, time-out, incompatible API, 501,
 *   a refused token, shutting down, its disk too full to take a job: 507): `RemoteUnavailableError`, a BackendUnavailableError, so the
 *   fallback chain moves on to the next backend, and the proxy routes answer 503;
 * - the service answered about the request itself (unknown profile, bad model, busy, slicing
 *   failed): an AppError with the service's own status, code and message, so a 404
 *   ERR_PROFILE_NOT_FOUND stays a 404 ERR_PROFILE_NOT_FOUND.
 *
 * A 401 from the service is about the dashboard's token, not the browser's session: passing it
 * on would make the browser think its own login expired, so it counts as "unavailable".
 *
 * "Unavailable" has two texts. Its `message` is what anyone may read (a proxy's 503, a skipped
 * backend's reason, the status, a notification): for every failure to get an answer at all it is
 * the one sentence `UNREACHABLE`, so that refused, reset, timed-out and "not a slicer service"
 * addresses cannot be told apart from outside. Its `detail` says what happened, for admins (the
 * status's `error_detail`) and the log. Text the service wrote is cleaned (redact.ts) in both.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { BackendUnavailableError } from '../backend.js';
import { cleanCode, cleanText } from './redact.js';

/** Code of errors whose upstream body carried none (a proxy's HTML page, an empty body). */
export const ERR_SLICER_SERVICE = 'ERR_SLICER_SERVICE';
/** The public reason of every failure to get a usable answer from the service's address. */
export const UNREACHABLE = 'the slicer service cannot be reached';

export class RemoteUnavailableError extends BackendUnavailableError {
  /** What happened, for admins and the log; `message` is the reason anyone may read. */
  readonly detail: string;

  constructor(reason: string, detail: string = reason) {
    super('remote', reason);
    this.name = 'RemoteUnavailableError';
    this.detail = detail;
  }
}

/** The full story of a failure, for admins and the log. */
export function detailOf(err: unknown): string {
  if (err instanceof RemoteUnavailableError) return err.detail;
  if (err instanceof AppError) return `${err.message} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}

/** Statuses after which the service is not usable for now, whatever the request was. */
const UNUSABLE_STATUSES = new Set([401, 403, 501, 502, 503, 504, 507]);

/**
 * Statuses of the codes the slicer service sends in `error` events (which carry no status), from
 * its README; unknown codes are server-side failures.
 */
const STATUS_BY_CODE: Record<string, number> = {
  ERR_BAD_REQUEST: 400,
  ERR_INVALID_SETTING: 400,
  ERR_UNKNOWN_SETTING: 400,
  ERR_UNAUTHORIZED: 401,
  ERR_PROFILE_NOT_FOUND: 404,
  ERR_JOB_NOT_FOUND: 404,
  ERR_CANCELLED: 409,
  ERR_JOB_FINISHED: 409,
  ERR_JOB_NOT_DONE: 409,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MODEL: 415,
  ERR_BAD_MODEL: 422,
  ERR_MODEL_OUTSIDE_BED: 422,
  ERR_OUTPUT_TOO_LARGE: 422,
  ERR_TOO_MANY_JOBS: 429,
  ERR_SLICE_FAILED: 500,
  ERR_INTERNAL: 500,
  ERR_SHUTTING_DOWN: 503,
  ERR_JOB_TIMEOUT: 504,
  ERR_INSUFFICIENT_STORAGE: 507,
};

export function statusOfCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}

/** `{ error, code }` as the contract's error body, if the text is one; its text cleaned of `secrets`. */
function errorBody(text: string, secrets: readonly string[]): { message: string; code: string | null } | null {
  try {
    const body = JSON.parse(text) as unknown;
    if (body === null || typeof body !== 'object') return null;
    const { error, message, code } = body as Record<string, unknown>;
    let said: string;
    if (typeof error === 'string') said = error;
    else if (typeof message === 'string') said = message;
    else return null;
    return { message: cleanText(said, secrets), code: typeof code === 'string' && code !== '' ? cleanCode(code, ERR_SLICER_SERVICE) : null };
  } catch {
    return null;
  }
}

/**
 * The error an unsuccessful upstream answer stands for. `what` names the call, for messages;
 * `secrets` (the token) never appear in what the service's text becomes.
 */
export function upstreamError(what: string, status: number, bodyText: string, secrets: readonly string[] = []): AppError | RemoteUnavailableError {
  const body = errorBody(bodyText, secrets);
  const said = body ? `${body.message}${body.code ? ` (${body.code})` : ''}` : `HTTP ${status}`;
  if (status === 501) return new RemoteUnavailableError(`the slicer service does not implement ${what} (501)`);
  if (status === 401 || status === 403) {
    return new RemoteUnavailableError(
      "the slicer service refused the dashboard's token",
      `the slicer service refused the dashboard's token for ${what}: ${said}`,
    );
  }
  if (UNUSABLE_STATUSES.has(status)) {
    return new RemoteUnavailableError(
      `the slicer service could not serve ${what} (${status})`,
      `the slicer service could not serve ${what}: ${said} (${status})`,
    );
  }
  if (body === null)
    return new AppError(ERR_SLICER_SERVICE, status >= 400 && status <= 599 ? status : 502, `the slicer service answered ${what} with HTTP ${status}`);
  return new AppError(body.code ?? ERR_SLICER_SERVICE, status, body.message);
}

/** Why a fetch to the service failed before any answer, in words a person can act on. */
export function connectionProblem(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return code ? `${code} (${cause.message})` : cause.message;
    }
    return err.message;
  }
  return String(err);
}

/** For the proxy routes: "unavailable" becomes the dashboard's 503 with its public reason, everything else stays as is. */
export function asHttpError(err: unknown): unknown {
  if (err instanceof BackendUnavailableError) return new AppError(ErrorCode.unavailable, 503, err.message);
  return err;
}
