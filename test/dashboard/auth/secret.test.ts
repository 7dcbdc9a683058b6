import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { loadOrCreateSecret, SECRET_FILE } from '../../../appliance/dashboard/auth/secret.js';

let lines: string[];
const log = createLogger({ name: 'test', level: 'info', write: (line) => void lines.push(line) });
let dir: string;

beforeEach(() => {
  lines = [];
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-secret-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('the key is made once, kept private, and read back on the next start', async () => {
  const first = await loadOrCreateSecret(dir, log);
  assert.equal(first.length, 32);
  const file = path.join(dir, SECRET_FILE);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url').length, 32);
  const second = await loadOrCreateSecret(dir, log);
  assert.deepEqual(second, first);
});

test('a key file with loose permissions is made private', async () => {
  const first = await loadOrCreateSecret(dir, log);
  const file = path.join(dir, SECRET_FILE);
  chmodSync(file, 0o644);
  assert.deepEqual(await loadOrCreateSecret(dir, log), first);
  assert.equal(statSync(file).mode & 0o777, 0o600);
});

test('an unusable key file is replaced by a new key, and that is logged', async () => {
  const file = path.join(dir, SECRET_FILE);
  writeFileSync(file, 'too-short\n');
  const key = await loadOrCreateSecret(dir, log);
  assert.equal(key.length, 32);
  assert.notEqual(readFileSync(file, 'utf8').trim(), 'too-short');
  assert.match(lines.join(''), /does not hold a 32-byte key/);
});
