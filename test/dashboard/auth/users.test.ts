import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { verifyPassword } from '../../../appliance/dashboard/auth/password.js';
import { UserStore } from '../../../appliance/dashboard/auth/users.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;
let stores: JsonStores;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-users-'));
  stores = new JsonStores(dir, log);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const status = (code: number, pattern?: RegExp) => (err: AppError) => err.status === code && (pattern === undefined || pattern.test(err.message));

test('the first admin can be created once; afterwards setup is refused', async () => {
  const users = await UserStore.open(stores);
  assert.equal(users.count(), 0);
  const admin = await users.createFirstAdmin('Root', 'first-password');
  assert.equal(admin.role, 'admin');
  assert.equal('password' in admin, false);
  await assert.rejects(users.createFirstAdmin('other', 'first-password'), status(409, /already done/));
  assert.equal(users.count(), 1);
});

test('concurrent setups create exactly one admin', async () => {
  const users = await UserStore.open(stores);
  const results = await Promise.allSettled([users.createFirstAdmin('a', 'password-1'), users.createFirstAdmin('b', 'password-2')]);
  assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
  assert.equal(users.count(), 1);
});

test('usernames are unique without regard to case and follow the character rules', async () => {
  const users = await UserStore.open(stores);
  await users.create({ username: 'Alice', password: 'password-a', role: 'view' });
  await assert.rejects(users.create({ username: 'aLICE', password: 'password-b', role: 'view' }), status(409, /taken/));
  assert.equal(users.findByUsername('ALICE')?.username, 'Alice');
  for (const bad of ['', 'a b', 'x'.repeat(65), 'ünïcode', 'semi;colon']) {
    await assert.rejects(users.create({ username: bad, password: 'password-c', role: 'view' }), status(400), bad);
  }
  await users.create({ username: 'a.b_c-9', password: 'password-d', role: 'print' });
  await users.create({ username: 'x'.repeat(64), password: 'password-e', role: 'print' });
});

test('the hash is stored, never the password, and users survive a reopen', async () => {
  const users = await UserStore.open(stores);
  const alice = await users.create({ username: 'alice', password: 'secret-password', role: 'print' });
  const file = readFileSync(path.join(dir, 'users.json'), 'utf8');
  assert.equal(file.includes('secret-password'), false);
  const again = await UserStore.open(new JsonStores(dir, log));
  assert.deepEqual(again.list(), [alice]);
  assert.equal(await verifyPassword('secret-password', again.get(alice.id)!.password), true);
});

test('role and password change independently; an empty change is refused', async () => {
  const users = await UserStore.open(stores);
  await users.createFirstAdmin('root', 'root-password');
  const bob = await users.create({ username: 'bob', password: 'bob-password', role: 'view' });
  const promoted = await users.update(bob.id, { role: 'print' });
  assert.equal(promoted.role, 'print');
  assert.equal(await verifyPassword('bob-password', users.get(bob.id)!.password), true);
  await users.update(bob.id, { password: 'new-bob-password' });
  assert.equal(users.get(bob.id)!.role, 'print');
  assert.equal(await verifyPassword('new-bob-password', users.get(bob.id)!.password), true);
  await assert.rejects(users.update(bob.id, {}), status(400, /nothing to change/));
  await assert.rejects(users.update('nobody', { role: 'view' }), status(404));
  await assert.rejects(users.update(bob.id, { password: 'short' }), status(400));
});

test('the last admin can be neither demoted nor deleted', async () => {
  const users = await UserStore.open(stores);
  const root = await users.createFirstAdmin('root', 'root-password');
  await assert.rejects(users.update(root.id, { role: 'print' }), status(409, /at least one admin/));
  await assert.rejects(users.remove(root.id), status(409, /at least one admin/));
  const second = await users.create({ username: 'second', password: 'second-password', role: 'admin' });
  await users.update(root.id, { role: 'view' });
  await assert.rejects(users.remove(second.id), status(409));
  await users.remove(root.id);
  assert.deepEqual(
    users.list().map((u) => u.username),
    ['second'],
  );
  await assert.rejects(users.remove(root.id), status(404));
});

test('a users file with a broken record keeps its good ones; the original is moved aside and reported', async () => {
  const first = await UserStore.open(stores);
  const root = await first.createFirstAdmin('root', 'root-password');
  const carol = await first.create({ username: 'carol', password: 'carol-password', role: 'print' });
  const file = path.join(dir, 'users.json');
  const original = JSON.parse(readFileSync(file, 'utf8'));
  const broken = { users: [original.users[0], { id: 'x', username: 'evil', role: 'admin' }, original.users[1], { ...original.users[1], id: 'y' }] };
  writeFileSync(file, JSON.stringify(broken));

  const users = await UserStore.open(stores);
  assert.deepEqual(users.list(), [root, carol], 'the bad record and the repeated username are dropped');
  const [problem] = stores.problems();
  assert.match(problem.reason, /users\[1\] is not a valid user record.*kept the valid part \(2 of 4 users\)/);
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, problem.moved_to), 'utf8')), broken, 'nothing is lost');
  const reopened = await UserStore.open(new JsonStores(dir, log));
  assert.deepEqual(reopened.list(), [root, carol], 'the kept users were written back');
});

test('a users file of the wrong shape is moved aside and the store starts empty', async () => {
  writeFileSync(path.join(dir, 'users.json'), JSON.stringify([{ id: 'x' }]));
  const users = await UserStore.open(stores);
  assert.equal(users.count(), 0);
  assert.match(stores.problems()[0].reason, /"users" array/);
});

test('the password policy applies to the first admin, new users and password changes', async () => {
  const users = await UserStore.open(stores);
  const policy = (pattern: RegExp) => (err: AppError) => err.status === 400 && pattern.test(err.message);
  await assert.rejects(users.createFirstAdmin('root', 'password'), policy(/most common/));
  await assert.rejects(users.createFirstAdmin('root', 'RootRoot'), policy(/most common/));
  await assert.rejects(users.createFirstAdmin('rootadmin', 'RootAdmin'), policy(/user name/));
  assert.equal(users.count(), 0);
  await users.createFirstAdmin('root', 'root-password');
  await assert.rejects(users.create({ username: 'bob', password: '12345678', role: 'view' }), policy(/most common/));
  await assert.rejects(users.create({ username: 'bob', password: '        ', role: 'view' }), policy(/repeated/));
  const bob = await users.create({ username: 'bob.builder', password: 'bob-password', role: 'view' });
  await assert.rejects(users.update(bob.id, { password: 'Bob.Builder' }), policy(/user name/));
  await assert.rejects(users.update(bob.id, { password: 'iloveyou' }), policy(/most common/));
  await assert.rejects(users.update(bob.id, { role: 'print', password: 'Bob' }), policy(/at least 8/));
  assert.equal(users.get(bob.id)!.role, 'view', 'a refused change changes nothing');
  assert.equal(await verifyPassword('bob-password', users.get(bob.id)!.password), true);
});
