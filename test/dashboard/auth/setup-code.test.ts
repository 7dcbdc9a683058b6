import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { SETUP_CODE_FILE, SetupCode } from '../../../appliance/dashboard/auth/setup-code.js';

let dir: string;
let lines: string[];
const log = () => createLogger({ name: 'test', level: 'warn', write: (line) => void lines.push(line) });

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-setup-code-'));
  lines = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, SETUP_CODE_FILE);

test('a code is made once, written to a private file and logged with the reason', async () => {
  const code = await SetupCode.open(dir, log());
  assert.equal(code.active, false);
  assert.equal(code.matches(''), false);
  await code.issue('because');
  const text = readFileSync(file(), 'utf8').trim();
  assert.match(text, /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
  assert.equal(statSync(file()).mode & 0o777, 0o600);
  assert.match(lines.join(''), new RegExp(`because: one-time setup code ${text}`));
  await code.issue('again');
  assert.equal(readFileSync(file(), 'utf8').trim(), text, 'a waiting code is kept');
  assert.ok(code.matches(text));
  assert.ok(code.matches(` ${text.toLowerCase().replaceAll('-', ' ')} `), 'case, spaces and hyphens do not matter');
  assert.equal(code.matches(text.slice(0, -1)), false);
  assert.equal(code.matches(text.slice(0, -1) + (text.endsWith('0') ? '1' : '0')), false);
});

test('a code outlives a restart; once discarded it is gone, file and all', async () => {
  const first = await SetupCode.open(dir, log());
  await first.issue('why');
  const text = readFileSync(file(), 'utf8').trim();
  const reopened = await SetupCode.open(dir, log());
  assert.ok(reopened.active);
  assert.ok(reopened.matches(text));
  await reopened.discard();
  assert.equal(existsSync(file()), false);
  assert.equal(reopened.matches(text), false);
  await reopened.issue('new');
  assert.notEqual(readFileSync(file(), 'utf8').trim(), text, 'the next code is another');
});

test('a malformed code file counts as no code', async () => {
  writeFileSync(file(), 'hello\n');
  const code = await SetupCode.open(dir, log());
  assert.equal(code.active, false);
  assert.equal(code.matches('hello'), false);
});
