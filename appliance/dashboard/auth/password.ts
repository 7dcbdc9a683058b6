/**
 * Password hashing with scrypt. Each hash carries its own parameters and salt, so the cost can be
 * raised later without invalidating stored passwords: verification always uses what was stored.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';

/** Shortest accepted password. */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest accepted password: scrypt reads all of it, and nobody types more. */
export const PASSWORD_MAX_LENGTH = 256;

export interface PasswordHash {
  algorithm: 'scrypt';
  /** CPU/memory cost. */
  N: number;
  r: number;
  p: number;
  key_length: number;
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
}

/** The cost of new hashes: about 16 MB and a few tens of milliseconds on a Raspberry Pi 4. */
export const SCRYPT_PARAMETERS = { N: 16384, r: 8, p: 1, key_length: 64 } as const;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: Omit<PasswordHash, 'algorithm' | 'salt' | 'hash'>): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MB) would refuse a cost raised later.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, params.key_length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Throws ERR_VALIDATION when the password does not meet the length rules. */
export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new AppError(ErrorCode.validation, 400, `the password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new AppError(ErrorCode.validation, 400, `the password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  }
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  checkPasswordRules(password);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, SCRYPT_PARAMETERS);
  return { algorithm: 'scrypt', ...SCRYPT_PARAMETERS, salt: salt.toString('base64'), hash: key.toString('base64') };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(password, Buffer.from(stored.salt, 'base64'), stored);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when the value read from a state file has the shape of a PasswordHash. */
export function isPasswordHash(value: unknown): value is PasswordHash {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  const positiveInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) > 0;
  return (
    h.algorithm === 'scrypt' &&
    positiveInt(h.N) &&
    positiveInt(h.r) &&
    positiveInt(h.p) &&
    positiveInt(h.key_length) &&
    typeof h.salt === 'string' &&
    typeof h.hash === 'string'
  );
}
