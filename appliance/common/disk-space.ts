/**
 * Free disk space, and a full disk told apart from other write errors. Work that writes large
 * files (G-code, uploads) keeps a margin free for the rest of the system, whose state files must
 * still be writable, and a disk that fills anyway is a clear 507 for that one request or job,
 * never a crash of the service.
 */
import { statfs } from 'node:fs/promises';
import { AppError, ErrorCode } from './errors.js';

/** errno codes of a full file system or a used-up quota. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return String(Math.floor(bytes / MB));
}

export function insufficientStorage(message: string): AppError {
  return new AppError(ErrorCode.insufficientStorage, 507, message);
}

/** Bytes this process may still write on the file system that holds `path`. */
export async function freeBytes(path: string): Promise<number> {
  const s = await statfs(path);
  return s.bavail * s.bsize;
}

/**
 * Throws 507 when writing `writingBytes` more on the file system of `dir` would leave less than
 * `keepFreeBytes` free. `what` says what needs the space, for the message.
 */
export async function requireFreeSpace(dir: string, keepFreeBytes: number, what: string, writingBytes = 0): Promise<void> {
  if (keepFreeBytes <= 0) return;
  const free = await freeBytes(dir);
  if (free - writingBytes < keepFreeBytes) {
    throw insufficientStorage(`not enough disk space for ${what}: ${megabytes(free)} MB free, and ${megabytes(keepFreeBytes)} MB must stay free`);
  }
}

/** `err` as a 507 when it says the disk (or the quota) is full; any other error as it is. */
export function asStorageError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !NO_SPACE.has(code)) return err;
  return insufficientStorage(`the disk is full (${(err as Error).message})`);
}
