import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import {
  hashPassword,
  isPasswordHash,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SCRYPT_PARAMETERS,
  verifyPassword,
  type PasswordHash,
} from '../../../appliance/dashboard/auth/password.js';

test('a hash verifies its password and no other', async () => {
  const stored = await hashPassword('correct horse');
  assert.equal(await verifyPassword('correct horse', stored), true);
  assert.equal(await verifyPassword('correct horsf', stored), false);
  assert.equal(await verifyPassword('', stored), false);
});

test('each hash has its own 16-byte salt and carries its parameters', async () => {
  const a = await hashPassword('same password');
  const b = await hashPassword('same password');
  assert.notEqual(a.salt, b.salt);
  assert.notEqual(a.hash, b.hash);
  assert.equal(Buffer.from(a.salt, 'base64').length, 16);
  assert.equal(Buffer.from(a.hash, 'base64').length, 64);
  assert.deepEqual({ N: a.N, r: a.r, p: a.p, key_length: a.key_length }, { ...SCRYPT_PARAMETERS });
  assert.equal(JSON.stringify(a).includes('same password'), false);
  assert.equal(isPasswordHash(JSON.parse(JSON.stringify(a))), true);
});

test('verification uses the parameters stored with the hash, so they can change later', async () => {
  const salt = Buffer.alloc(16, 7);
  const old: PasswordHash = {
    algorithm: 'scrypt',
    N: 1024,
    r: 4,
    p: 2,
    key_length: 32,
    salt: salt.toString('base64'),
    hash: scryptSync('legacy password', salt, 32, { N: 1024, r: 4, p: 2 }).toString('base64'),
  };
  assert.equal(await verifyPassword('legacy password', old), true);
  assert.equal(await verifyPassword('legacy passwore', old), false);
});

test('passwords shorter than the minimum or absurdly long are refused', async () => {
  await assert.rejects(hashPassword('x'.repeat(PASSWORD_MIN_LENGTH - 1)), (err: AppError) => err.status === 400 && /at least 8/.test(err.message));
  await assert.rejects(hashPassword('x'.repeat(PASSWORD_MAX_LENGTH + 1)), (err: AppError) => err.status === 400);
  assert.ok(isPasswordHash(await hashPassword('x'.repeat(PASSWORD_MIN_LENGTH))));
});

test('isPasswordHash rejects records that are not hashes', () => {
  assert.equal(isPasswordHash(null), false);
  assert.equal(isPasswordHash('plain text'), false);
  assert.equal(isPasswordHash({ algorithm: 'scrypt', N: 0, r: 8, p: 1, key_length: 64, salt: '', hash: '' }), false);
  assert.equal(isPasswordHash({ algorithm: 'bcrypt', N: 16384, r: 8, p: 1, key_length: 64, salt: '', hash: '' }), false);
});
