/**
 * A slice with its progress as an event stream (`text/event-stream`), for every route that offers
 * one (`POST /api/slicer/remote/slice/events`, a scene's `slice/events`): `progress` {stage, pct}
 * from whichever backend slices, then `done` with the stored result, or `error` {message, code,
 * status, details?}; `: keep-alive` comments every 15 s. Closing the stream cancels the slice.
 * Whatever the route checks before calling this is answered as JSON: the stream is not open yet.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { EventStream } from '../../common/sse.js';
import type { Request, Response } from 'hyper-express';
import type { SliceJobRequest } from './backend.js';
import { asHttpError } from './remote/errors.js';

/** Keep-alive comments of the dashboard's event streams, as the slicer service sends its own. */
export const SLICE_EVENTS_KEEPALIVE_MS = 15_000;

export type ProgressListener = NonNullable<SliceJobRequest['onProgress']>;

/** Opens the stream, runs `slice` with a signal that ends when the stream closes, and sends its outcome. */
export async function streamSlice(
  req: Request,
  res: Response,
  log: Logger,
  slice: (signal: AbortSignal, onProgress: ProgressListener) => Promise<unknown>,
): Promise<void> {
  const gone = new AbortController();
  res.once('abort', () => gone.abort());
  const stream = new EventStream(req, res, { keepAliveMs: SLICE_EVENTS_KEEPALIVE_MS });
  stream.open('slicing');
  stream.onClose(() => gone.abort());
  try {
    const result = await slice(gone.signal, (progress) => stream.send('progress', progress));
    stream.send('done', result);
  } catch (err) {
    if (!gone.signal.aborted) stream.send('error', streamedError(asHttpError(err), log));
  }
  stream.end();
}

/** An error as the event stream carries it: the API's error shape plus its status; unexpected errors are logged, not shown. */
function streamedError(err: unknown, log: Logger): { message: string; code: string; status: number; details?: unknown } {
  if (err instanceof AppError)
    return { message: err.message, code: err.code, status: err.status, ...(err.details === undefined ? {} : { details: err.details }) };
  log.error(`slice with progress: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return { message: 'internal error', code: ErrorCode.internal, status: 500 };
}
