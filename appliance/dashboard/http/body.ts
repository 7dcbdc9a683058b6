/**
 * Reading a request body within a size limit, answering in the dashboard's error shape.
 * hyper-express's own limit answers an empty 413 before any handler runs, so the router lifts it
 * (ROUTE_BODY_OPTIONS) and the limit is enforced here: a declared Content-Length over the limit
 * is refused before a byte is read, a chunked body is counted as it arrives. Large uploads
 * (G-code, update bundles) are streamed to a file the same way, never held in memory.
 */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

/** Streams the body into the file `target` (mode 600), failing at the first byte over `maxBytes`; the bytes written. */
export async function saveBody(request: Request, target: string, maxBytes: number): Promise<number> {
  checkDeclaredLength(request, maxBytes);
  // Without a length or chunked transfer there is no body, and the request stream would never end.
  if (!hasBody(request)) return 0;
  let seen = 0;
  const out = createWriteStream(target, { mode: 0o600 });
  // A Writable in front of the file, not a Transform: hyper-express resumes its request only through a pipe's 'drain'.
  const meter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(payloadTooLarge(maxBytes));
      if (out.write(chunk)) done();
      else out.once('drain', () => done());
    },
    final(done) {
      out.end(done);
    },
  });
  try {
    await pipeline(request, meter);
  } finally {
    request.unpipe(meter);
    out.destroy();
  }
  return seen;
}
