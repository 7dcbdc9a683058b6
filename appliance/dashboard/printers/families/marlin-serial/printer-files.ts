/**
 * The files a Marlin printer prints, kept on the box: `<data dir>/printer-files/<printer id>/<name>`.
 * The driver prints from here by streaming (host printing) rather than copying files to the
 * printer's SD card: M28 uploads run at serial speed with the printer busy, long names need
 * LFN_WRITE, and an SD print can only be followed by polling; streaming from the box gives line
 * by line control (pause with a park, extrusion per tool, exact progress).
 *
 * Names are checked (no paths, nothing hidden, a G-code extension), and a file is written to a
 * temporary name, synced, renamed into place and the directory synced: after a power cut the
 * file is either the old one or the complete new one, never a torn one.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, ErrorCode } from '../../../../common/errors.js';
import type { UploadProgress, UploadSource } from '../../driver.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._ ()+-]{0,127}$/;
const EXTENSION = /\.(gcode|gco|g)$/i;
/** Left free on the data partition besides the file, for the state files. */
const RESERVE_BYTES = 16 * 1024 * 1024;
/**
 * Files kept per printer, newest first: the box's storage is an SD card, and every slice-and-send
 * stores a file. A file being printed may go too: its open stream keeps reading the data.
 */
export const KEPT_FILES = 20;

/** A name for the printer's files: letters, digits, `. _ ( ) + -` and spaces, up to 128, a G-code extension. */
export function checkFileName(name: string): void {
  if (!NAME.test(name) || name.includes('..') || !EXTENSION.test(name)) {
    throw new AppError(
      ErrorCode.validation,
      400,
      `"${name}" is not a file name for a Marlin printer: letters, digits, ". _ ( ) + -" and spaces, up to 128, ` +
        'starting with a letter or digit, ending in .gcode, .gco or .g',
    );
  }
}

async function syncPath(target: string, flags: string): Promise<void> {
  const handle = await open(target, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class PrinterFiles {
  readonly dir: string;

  constructor(dataDir: string, printerId: string) {
    this.dir = path.join(dataDir, 'printer-files', printerId);
  }

  /** The path of a stored file; 404 when there is none by that name. */
  async find(name: string): Promise<string> {
    checkFileName(name);
    const file = path.join(this.dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new AppError(ErrorCode.notFound, 404, `no file "${name}" was uploaded for this printer`);
    return file;
  }

  /** Stores `source` as `name`, replacing a file of that name once the new one is complete. */
  async store(source: UploadSource, name: string, onProgress?: (progress: UploadProgress) => void): Promise<void> {
    checkFileName(name);
    const { stream, size } = await this.openSource(source);
    await mkdir(this.dir, { recursive: true });
    if (size !== null) await this.checkSpace(size, stream);
    const temp = path.join(this.dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await open(temp, 'w', 0o640);
    try {
      let written = 0;
      for await (const chunk of stream) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        await handle.write(bytes);
        written += bytes.length;
        onProgress?.({ sent_bytes: written, total_bytes: size });
      }
      await handle.sync();
    } catch (err) {
      stream.destroy();
      await handle.close();
      await rm(temp, { force: true });
      throw new AppError(ErrorCode.unavailable, 503, `storing ${name} failed: ${(err as Error).message}`);
    }
    await handle.close();
    await rename(temp, path.join(this.dir, name));
    await syncPath(this.dir, 'r');
    await this.prune();
  }

  /** Removes all but the newest KEPT_FILES files. */
  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => !n.startsWith('.'));
    if (names.length <= KEPT_FILES) return;
    const dated = await Promise.all(names.map(async (n) => ({ n, at: (await stat(path.join(this.dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => b.at - a.at);
    await Promise.all(dated.slice(KEPT_FILES).map(({ n }) => rm(path.join(this.dir, n), { force: true })));
  }

  private async openSource(source: UploadSource): Promise<{ stream: Readable; size: number | null }> {
    if ('path' in source) {
      const info = await stat(source.path).catch((err: Error) => {
        throw new AppError(ErrorCode.validation, 400, `cannot read ${source.path}: ${err.message}`);
      });
      return { stream: createReadStream(source.path), size: info.size };
    }
    return { stream: source.stream, size: source.size ?? null };
  }

  private async checkSpace(size: number, stream: Readable): Promise<void> {
    const fs = await statfs(this.dir);
    const free = fs.bavail * fs.bsize;
    if (free - RESERVE_BYTES >= size) return;
    stream.destroy();
    throw new AppError(ErrorCode.unavailable, 503, `not enough free space for ${size} bytes in ${this.dir} (${free} free)`);
  }
}
