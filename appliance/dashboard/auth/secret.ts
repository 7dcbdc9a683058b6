/**
 * The key that signs session tokens: 32 random bytes made on first start and kept in
 * `<data-dir>/auth-secret.key` (base64url, mode 0600), so tokens stay valid across restarts.
 * An unreadable key file is replaced by a new key: the only cost is that everyone logs in again.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';

export const SECRET_FILE = 'auth-secret.key';
export const SECRET_BYTES = 32;
const OWNER_ONLY = 0o600;

async function readSecret(file: string, log: Logger): Promise<Uint8Array | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== SECRET_BYTES) {
    log.error(`${SECRET_FILE} does not hold a ${SECRET_BYTES}-byte key; making a new one (existing sessions end)`);
    return null;
  }
  // The file may have been copied in with looser permissions; the key must stay private.
  if (((await stat(file)).mode & 0o777) !== OWNER_ONLY) await chmod(file, OWNER_ONLY);
  return new Uint8Array(key);
}

export async function loadOrCreateSecret(dataDir: string, log: Logger): Promise<Uint8Array> {
  const file = path.join(dataDir, SECRET_FILE);
  const existing = await readSecret(file, log);
  if (existing) return existing;
  const key = randomBytes(SECRET_BYTES);
  await writeFileAtomic(file, `${key.toString('base64url')}\n`);
  await chmod(file, OWNER_ONLY);
  log.info(`made a new token signing key in ${SECRET_FILE}`);
  return new Uint8Array(key);
}
