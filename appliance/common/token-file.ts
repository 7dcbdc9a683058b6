/**
 * Bearer tokens kept in files: the slicer service's `--rest-token-file`, and the token the box's
 * two services share (created on the first start, so a box works with no setup).
 *
 * A created token file appears whole or not at all, and only once: the token is written to a
 * temporary file (mode 600, fsynced) that is then hard-linked to the final name, which fails if
 * the other service got there first (both may create it at the same moment when the units start
 * together); the loser reads the winner's token. The directory is fsynced so the link survives a
 * power cut.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { configError } from './config.js';

/** Random bytes of a created token: 256 bits. */
const TOKEN_BYTES = 32;
/** Permission bits that open a file to users outside its owner and group. */
const OTHERS_BITS = 0o007;

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * Creates `file` with a new random token unless it exists; true when this call created it. The
 * folder is created for its owner only when missing.
 */
export function createTokenFile(file: string): boolean {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(TOKEN_BYTES).toString('base64url')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  let created = true;
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    created = false;
  } finally {
    unlinkSync(temp);
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  return created;
}

/**
 * The token in `file`, read through one descriptor (the checked file is the read one), trailing
 * whitespace dropped. A missing, empty or multi-line file, or one that users other than its owner
 * and group may open, is a configuration error whose message starts with `label`.
 */
export function readTokenFile(file: string, label: string): string {
  let text: string;
  let mode: number;
  try {
    const fd = openSync(file, 'r');
    try {
      mode = fstatSync(fd).mode;
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw configError(`${label}: cannot read ${file}: ${reason}`);
  }
  if ((mode & OTHERS_BITS) !== 0) {
    throw configError(`${label}: ${file} is open to other users (mode ${modeOf(mode)}); allow its owner only (chmod 600 ${file})`);
  }
  const token = text.replace(/\s+$/, '');
  if (token === '') throw configError(`${label}: ${file} is empty`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters (a second line, a stray NUL) is this check's purpose
  if (/[\x00-\x1f\x7f]/.test(token)) throw configError(`${label}: ${file} must hold the token on one line`);
  return token;
}

/** The token of `file`, created first when missing (see createTokenFile). */
export function ensureTokenFile(file: string, label: string): string {
  if (!existsSync(file)) createTokenFile(file);
  return readTokenFile(file, label);
}
