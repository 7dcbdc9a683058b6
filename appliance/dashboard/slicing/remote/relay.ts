/**
 * Passing an upstream file (G-code, preview PNG) through to the browser as it arrives: status
 * 200, the service's content type, length and download name, the bytes streamed with
 * backpressure. When the browser goes away the upstream download is dropped; when the upstream
 * breaks off mid-file the browser's connection is closed, so it sees an incomplete download
 * rather than a short file that looks whole.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Response as HttpResponse } from 'hyper-express';
import type { Logger } from '../../../common/logger.js';

/** Aborts when the browser's connection closes before the response is complete. */
export function responseGone(res: HttpResponse): AbortController {
  const controller = new AbortController();
  res.once('abort', () => controller.abort());
  return controller;
}

export async function relayFile(res: HttpResponse, upstream: Response, fallbackType: string, log: Logger): Promise<void> {
  res.status(200);
  res.header('content-type', upstream.headers.get('content-type') ?? fallbackType);
  const disposition = upstream.headers.get('content-disposition');
  if (disposition !== null) res.header('content-disposition', disposition);
  const length = Number(upstream.headers.get('content-length'));
  if (upstream.body === null) {
    res.send('');
    return;
  }
  const body = Readable.fromWeb(upstream.body as WebReadableStream<Uint8Array>);
  body.once('error', (err) => {
    log.warn(`the slicer service's download broke off: ${err.message}`);
    res.close();
  });
  await res.stream(body, Number.isInteger(length) && length > 0 ? length : undefined);
}
