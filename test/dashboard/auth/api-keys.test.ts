import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { API_KEY_PATTERN, ApiKeyStore, LAST_USED_WRITE_INTERVAL_MS } from '../../../appliance/dashboard/auth/api-keys.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-api-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fileText = () => readFileSync(path.join(dir, 'api-keys.json'), 'utf8');

test('a new key is pyk_ + 32 random bytes, shown once and stored only as its hash', async () => {
  const keys = await ApiKeyStore.open(new JsonStores(dir, log), log);
  const { key, record } = await keys.create({ name: ' node-red ', role: 'print', ownerId: 'user-1' });
  assert.match(key, new RegExp(API_KEY_PATTERN));
  assert.equal(Buffer.from(key.slice(4), 'base64url').length, 32);
  assert.deepEqual(
    { name: record.name, role: record.role, owner_id: record.owner_id, last_used_at: record.last_used_at },
    { name: 'node-red', role: 'print', owner_id: 'user-1', last_used_at: null },
  );
  assert.equal(key.startsWith(record.prefix), true);
  assert.equal('hash' in record, false);
  assert.equal(fileText().includes(key), false);
  assert.equal(fileText().includes(key.slice(4)), false);
  assert.deepEqual(keys.list(), [record]);
  assert.notEqual((await keys.create({ name: 'other', role: 'view', ownerId: 'user-1' })).key, key);
});

test('a key is found by its text until it is removed, also after a reopen', async () => {
  const keys = await ApiKeyStore.open(new JsonStores(dir, log), log);
  const { key, record } = await keys.create({ name: 'ci', role: 'view', ownerId: 'user-1' });
  assert.equal(keys.find(key)?.id, record.id);
  assert.equal(keys.find(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')), undefined);
  assert.equal(keys.find('pyk_short'), undefined);
  const again = await ApiKeyStore.open(new JsonStores(dir, log), log);
  assert.equal(again.find(key)?.id, record.id);
  await again.remove(record.id);
  assert.equal(again.find(key), undefined);
  await assert.rejects(again.remove(record.id), (err: AppError) => err.status === 404);
});

test("removing a user's keys leaves the others", async () => {
  const keys = await ApiKeyStore.open(new JsonStores(dir, log), log);
  const a = await keys.create({ name: 'a', role: 'view', ownerId: 'user-1' });
  const b = await keys.create({ name: 'b', role: 'view', ownerId: 'user-2' });
  const c = await keys.create({ name: 'c', role: 'view', ownerId: 'user-1' });
  assert.equal(await keys.removeOwnedBy('user-1'), 2);
  assert.deepEqual(
    keys.list().map((k) => k.name),
    ['b'],
  );
  assert.equal(keys.find(a.key), undefined);
  assert.equal(keys.find(c.key), undefined);
  assert.equal(keys.find(b.key)?.name, 'b');
  await assert.rejects(keys.create({ name: '   ', role: 'view', ownerId: 'user-1' }), (err: AppError) => err.status === 400);
});

/** A store with one key, used once at the start of its own clock (`now`, moved by `advance`). */
async function usedKey() {
  let now = Date.UTC(2025, 0, 1);
  const stores = new JsonStores(dir, log);
  const keys = await ApiKeyStore.open(stores, log, () => now);
  const { key } = await keys.create({ name: 'busy', role: 'view', ownerId: 'user-1' });
  const record = keys.find(key)!;
  keys.touch(record);
  return {
    stores,
    keys,
    key,
    record,
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

test('last_used_at is exact in memory and written at most once per interval', async () => {
  const { stores, keys, record, now, advance } = await usedKey();
  const first = new Date(now()).toISOString();
  await stores.settled();
  assert.equal(JSON.parse(fileText()).keys[0].last_used_at, first);
  advance(1000);
  keys.touch(record);
  assert.equal(record.last_used_at, new Date(now()).toISOString());
  await stores.settled();
  assert.equal(JSON.parse(fileText()).keys[0].last_used_at, first, 'a use within the interval is held back');
  advance(LAST_USED_WRITE_INTERVAL_MS);
  keys.touch(record);
  const third = new Date(now()).toISOString();
  await stores.settled();
  assert.equal(JSON.parse(fileText()).keys[0].last_used_at, third);
});

test('saveUsage writes the last use that the interval held back, and only then', async () => {
  const { stores, keys, key, record, now, advance } = await usedKey();
  await stores.settled();
  const inode = () => statSync(path.join(dir, 'api-keys.json')).ino;
  const written = inode();
  await keys.saveUsage();
  assert.equal(inode(), written, 'nothing held back, nothing written (a write renames a new file in)');
  advance(1000);
  keys.touch(record);
  await keys.saveUsage();
  assert.equal(JSON.parse(fileText()).keys[0].last_used_at, new Date(now()).toISOString());
  const reopened = await ApiKeyStore.open(new JsonStores(dir, log), log, now);
  assert.equal(reopened.find(key)!.last_used_at, new Date(now()).toISOString());
});
