/** Sends a file from disk as a download: streamed with its length, never read into memory. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Response } from 'hyper-express';

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export interface DownloadOptions {
  contentType: string;
  /** Name offered to the client; inline (no Content-Disposition) when absent. */
  fileName?: string;
}

/** Streams `file`; rejects (before anything is sent) when it cannot be opened. */
export async function sendFile(response: Response, file: string, options: DownloadOptions): Promise<void> {
  const { size } = await stat(file);
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  response.header('content-type', options.contentType);
  if (options.fileName !== undefined) response.header('content-disposition', contentDisposition(options.fileName));
  if (size === 0) {
    stream.destroy();
    response.send('');
    return;
  }
  await response.stream(stream, size);
}
