/**
 * Follows the event stream of one slice (POST /api/slice with Accept: text/event-stream) to its
 * end, by the consumer rules of the dashboard spec (section 6):
 * - `done` resolves with the Slice result;
 * - `error` rejects with the service's message and code (the text from `message`, `error` as the
 *   fallback older builds send), as an AppError with the code's status;
 * - a stream that ends without `done` (closed, reset, the service killed) rejects with exactly
 *   "SSE stream ended without a done event", as "unavailable", so the fallback chain moves on.
 * A stream that stays silent (not even a keep-alive comment) for `idleMs` is given up the same
 * way. Every event is also handed to `onEvent` as it came, for the relay.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { RemoteUnavailableError, statusOfCode } from './errors.js';
import { cleanCode } from './redact.js';
import { SseReader, type UpstreamEvent } from '../../../common/sse-reader.js';

export const STREAM_ENDED_WITHOUT_DONE = 'SSE stream ended without a done event';
/** Four of the service's keep-alive intervals (15 s). */
export const DEFAULT_IDLE_MS = 60_000;

/** The `done` payload (the contract's Slice result, plus what our service adds). */
export interface RemoteSliceResult {
  ok?: boolean;
  job_id: string;
  gcode_path?: string;
  gcode_size?: number;
  estimated_time_s?: number;
  filament_used_g?: number[];
  filament_used_mm?: number[];
  layers?: number;
  format?: 'gcode' | 'gcode.3mf';
  warnings?: string[];
  [field: string]: unknown;
}

export interface FollowOptions {
  signal?: AbortSignal;
  idleMs?: number;
  onEvent?(event: UpstreamEvent): void;
  onProgress?(progress: { stage: string; pct: number }): void;
  /** Cleans the service's text before it becomes an error message (the client's `clean`). */
  clean?(text: string): string;
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/** The rejection an `error` event stands for, its text passed through `clean`. */
export function errorEventError(data: string, clean: (text: string) => string = (text) => text): AppError {
  const body = parse(data) as Record<string, unknown> | null;
  let text: string;
  if (typeof body?.message === 'string') text = body.message;
  else if (typeof body?.error === 'string') text = body.error;
  else text = data || 'the slicer service reported an error';
  const code = typeof body?.code === 'string' && body.code !== '' ? cleanCode(body.code, ErrorCode.sliceFailed) : ErrorCode.sliceFailed;
  return new AppError(code, statusOfCode(code), clean(text));
}

export class StreamIdleError extends RemoteUnavailableError {}

export async function followSliceStream(body: ReadableStream<Uint8Array>, options: FollowOptions = {}): Promise<RemoteSliceResult> {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const state: { outcome: { result: RemoteSliceResult } | { error: Error } | null } = { outcome: null };
  const reader = new SseReader({
    event(event) {
      if (state.outcome !== null) return;
      options.onEvent?.(event);
      if (event.type === 'progress') {
        const progress = parse(event.data) as { stage?: unknown; pct?: unknown } | null;
        if (typeof progress?.stage === 'string' && typeof progress.pct === 'number')
          options.onProgress?.({ stage: progress.stage, pct: progress.pct });
      } else if (event.type === 'done') {
        const result = parse(event.data) as RemoteSliceResult | null;
        state.outcome =
          result !== null && typeof result.job_id === 'string'
            ? { result }
            : { error: new RemoteUnavailableError('the slicer service finished the slice without a job id in its done event') };
      } else if (event.type === 'error') {
        state.outcome = { error: errorEventError(event.data, options.clean) };
      }
    },
  });

  const stream = body.getReader();
  let idle = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      void stream.cancel().catch(() => undefined);
    }, idleMs);
  };
  const onAbort = (): void => void stream.cancel().catch(() => undefined);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    arm();
    while (state.outcome === null) {
      let chunk: Awaited<ReturnType<typeof stream.read>>;
      try {
        chunk = await stream.read();
      } catch {
        break;
      }
      if (chunk.done) {
        reader.end();
        break;
      }
      arm();
      reader.push(chunk.value);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  // Past the outcome the service only closes the stream; nothing more is read.
  const done = state.outcome;
  if (done !== null) {
    void stream.cancel().catch(() => undefined);
    if ('error' in done) throw done.error;
    return done.result;
  }
  if (options.signal?.aborted) throw new AppError(ErrorCode.cancelled, 409, 'slicing was cancelled');
  if (idle) throw new StreamIdleError(`the slicer service sent nothing for ${idleMs / 1000} s; ${STREAM_ENDED_WITHOUT_DONE}`);
  throw new RemoteUnavailableError(STREAM_ENDED_WITHOUT_DONE);
}
