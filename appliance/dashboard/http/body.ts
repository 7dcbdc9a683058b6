/**
 * Reading a request body within a size limit, answering in the dashboard's error shape.
 * hyper-express's own limit answers an empty 413 before any handler runs, so the router lifts it
 * (ROUTE_BODY_OPTIONS) and the limit is enforced here: a declared Content-Length over the limit
 * is refused before a byte is read, a chunked body is counted as it arrives.
 */
import { Writable } from 'node:stream';
import type { Request } from 'hyper-express';
import { payloadTooLarge } from '../../common/body-size.js';

/** Route option: hyper-express lets any size through; the router and raw handlers limit it. */
export const ROUTE_BODY_OPTIONS = { max_body_length: Number.MAX_SAFE_INTEGER };

/** True when the request announces a body (a positive length or chunked transfer). */
function hasBody(request: Request): boolean {
  return Number(request.headers['content-length']) > 0 || /\bchunked\b/i.test(request.headers['transfer-encoding'] ?? '');
}

/** Throws 413 when the declared Content-Length is over the limit (before reading anything). */
export function checkDeclaredLength(request: Request, maxBytes: number): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
}

/** The whole body, at most `maxBytes`; an empty Buffer when there is none. */
export async function readBody(request: Request, maxBytes: number): Promise<Buffer> {
  checkDeclaredLength(request, maxBytes);
  if (!hasBody(request)) return Buffer.alloc(0);
  if (Number(request.headers['content-length']) > 0) return request.buffer();
  // hyper-express feeds a chunked body to pipe() (not to 'data' listeners).
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(payloadTooLarge(maxBytes));
      chunks.push(chunk);
      done();
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      sink.once('finish', resolve);
      sink.once('error', reject);
      request.pipe(sink);
    });
  } finally {
    request.unpipe(sink);
  }
  return Buffer.concat(chunks);
}
