/**
 * The one slicing entry point: tries the backends in the order given (the spec's order is remote
 * → bridge → native) and returns the first G-code, saying which backend produced it and why the
 * earlier ones were passed over.
 *
 * Rules, per backend:
 * - `availability()` says no → skipped with its reason;
 * - `BackendUnavailableError` (connection refused, 501, incompatible API) → skipped with its reason;
 * - an AppError that is the user's fault (4xx: bad model, unknown profile, bad setting) → thrown
 *   as is; another backend would refuse the same input, and retrying would hide the real answer;
 * - the caller cancelled (request.signal aborted) → thrown as is, nothing else is tried;
 * - anything else (5xx engine failure, a backend busy with 429, a crash) → recorded as
 *   "failed: …" and the next backend is tried, because a different engine may well slice the
 *   model the first one choked on.
 * When no backend produced G-code: the last failure's code and status if one failed, else 503
 * ERR_UNAVAILABLE; the message lists every backend's reason and `details.skipped` has them.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { BackendUnavailableError, type SliceJobRequest, type SliceJobResult, type SlicingBackend } from './backend.js';

type Skip = SliceJobResult['skipped'][number];

/** Statuses that mean "this backend cannot take it now", not "the request is wrong". */
const BACKEND_SIDE_4XX = new Set([408, 429]);

export async function sliceWithFallback(backends: readonly SlicingBackend[], request: SliceJobRequest): Promise<SliceJobResult> {
  const skipped: Skip[] = [];
  let lastFailure: AppError | null = null;
  for (const backend of backends) {
    throwIfCancelled(request.signal);
    const availability = await backend.availability();
    if (!availability.available) {
      skipped.push({ backend: backend.name, reason: availability.reason });
      continue;
    }
    try {
      const result = await backend.slice(request);
      return { ...result, skipped };
    } catch (err) {
      if (request.signal.aborted) throw err;
      if (err instanceof BackendUnavailableError) {
        skipped.push({ backend: backend.name, reason: err.message });
        continue;
      }
      if (isUsersFault(err)) throw err;
      lastFailure = asFailure(err);
      skipped.push({ backend: backend.name, reason: `failed: ${lastFailure.message} (${lastFailure.code})` });
    }
  }
  throw noBackendSliced(skipped, lastFailure);
}

function isUsersFault(err: unknown): err is AppError {
  return err instanceof AppError && err.status >= 400 && err.status < 500 && !BACKEND_SIDE_4XX.has(err.status);
}

function asFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError(ErrorCode.sliceFailed, 500, err instanceof Error ? err.message : String(err));
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new AppError(ErrorCode.cancelled, 409, 'slice cancelled');
}

function noBackendSliced(skipped: Skip[], lastFailure: AppError | null): AppError {
  const reasons = skipped.map((s) => `${s.backend}: ${s.reason}`).join('; ');
  const message = `no slicing backend produced G-code (${reasons || 'no backend configured'})`;
  if (lastFailure) return new AppError(lastFailure.code, lastFailure.status, message, { skipped });
  return new AppError(ErrorCode.unavailable, 503, message, { skipped });
}
