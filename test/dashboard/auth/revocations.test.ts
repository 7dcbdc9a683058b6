import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { RevocationList } from '../../../appliance/dashboard/auth/revocations.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-revocations-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a revoked token id stays revoked after a reopen', async () => {
  const now = () => 1_000_000_000;
  const list = await RevocationList.open(new JsonStores(dir, log), now);
  assert.equal(list.has('jti-1'), false);
  await list.revoke('jti-1', 1_000_000 + 3600);
  assert.equal(list.has('jti-1'), true);
  const again = await RevocationList.open(new JsonStores(dir, log), now);
  assert.equal(again.has('jti-1'), true);
  assert.equal(again.has('jti-2'), false);
});

test('entries of tokens that have expired are pruned', async () => {
  let nowMs = 1_000_000_000;
  const list = await RevocationList.open(new JsonStores(dir, log), () => nowMs);
  await list.revoke('short', 1_000_000 + 10);
  await list.revoke('long', 1_000_000 + 1000);
  nowMs += 20_000;
  await list.revoke('third', 1_000_000 + 1000);
  assert.equal(list.size, 2);
  assert.equal(list.has('short'), false);
  nowMs += 2_000_000;
  const reopened = await RevocationList.open(new JsonStores(dir, log), () => nowMs);
  assert.equal(reopened.size, 0);
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'revoked-tokens.json'), 'utf8')), { revoked: {} }, 'the pruned list is written back');
});
