import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createTokenFile, ensureTokenFile, readTokenFile } from '../../appliance/common/token-file.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-token-file-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a token file is created once, for its owner only, in a folder made for its owner', () => {
  const file = path.join(root, 'state', 'box', 'slicer-token');
  assert.equal(createTokenFile(file), true);
  const token = readFileSync(file, 'utf8');
  assert.match(token, /^[A-Za-z0-9_-]{43}\n$/);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
  assert.equal(createTokenFile(file), false, 'the second creator reads the first one’s token');
  assert.equal(readFileSync(file, 'utf8'), token);
  assert.equal(ensureTokenFile(file, '--x'), token.trim());
  assert.deepEqual(readdirSync(path.dirname(file)), ['slicer-token'], 'no temporary file is left');
});

test('a token file others may read, an empty one or a missing one is refused naming the option', () => {
  const file = path.join(root, 'open-token');
  writeFileSync(file, 'secret\n');
  chmodSync(file, 0o644);
  assert.throws(() => readTokenFile(file, '--slicer-token-file'), /--slicer-token-file: .* is open to other users \(mode 0644\)/);
  chmodSync(file, 0o600);
  assert.equal(readTokenFile(file, '--slicer-token-file'), 'secret');
  writeFileSync(file, '\n');
  assert.throws(() => readTokenFile(file, '--slicer-token-file'), /is empty/);
  assert.throws(() => readTokenFile(path.join(root, 'none'), '--slicer-token-file'), /cannot read .*: no such file/);
});
