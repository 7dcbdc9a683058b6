import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { FirstSetup, USERS_EXISTED_FILE } from '../../../appliance/dashboard/auth/first-setup.js';
import { SETUP_CODE_FILE, SetupCode } from '../../../appliance/dashboard/auth/setup-code.js';
import { UserStore } from '../../../appliance/dashboard/auth/users.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-first-setup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function open(): Promise<{ setup: FirstSetup; users: UserStore }> {
  const users = await UserStore.open(new JsonStores(dir, log));
  const setup = await FirstSetup.open(dir, users, await SetupCode.open(dir, log), log);
  return { setup, users };
}

const forbidden = (pattern: RegExp) => (err: AppError) => err.status === 403 && err.code === 'ERR_FORBIDDEN' && pattern.test(err.message);
const codeFile = () => path.join(dir, SETUP_CODE_FILE);

/** A box that had an admin, then lost users.json as `lose` does; returns the reopened setup. */
async function hadUsersThen(lose: () => void): Promise<FirstSetup> {
  const first = await open();
  await first.setup.createAdmin('owner', 'owner-password', undefined);
  lose();
  return (await open()).setup;
}

test('a fresh box needs no code; the first admin leaves the marker behind', async () => {
  const { setup } = await open();
  assert.deepEqual([setup.needed, setup.codeRequired], [true, false]);
  assert.equal(existsSync(codeFile()), false);
  await setup.createAdmin('owner', 'owner-password', undefined);
  assert.deepEqual([setup.needed, setup.codeRequired], [false, false]);
  assert.ok(existsSync(path.join(dir, USERS_EXISTED_FILE)));
  await assert.rejects(setup.createAdmin('other', 'other-password', undefined), (err: AppError) => err.status === 409);
});

test('each trace of earlier users closes setup behind the code', async (t) => {
  const users = () => path.join(dir, 'users.json');
  const cases: [string, () => void][] = [
    ['users.json deleted, the marker left', () => unlinkSync(users())],
    ['users.json torn', () => writeFileSync(users(), '{"users": [{"id": "a')],
    [
      'users.json of the wrong shape, the marker gone',
      () => {
        writeFileSync(users(), '[]');
        unlinkSync(path.join(dir, USERS_EXISTED_FILE));
      },
    ],
    [
      'users.json with no admin left, the marker gone',
      () => {
        writeFileSync(users(), '{"users": []}');
        unlinkSync(path.join(dir, USERS_EXISTED_FILE));
      },
    ],
  ];
  for (const [name, lose] of cases) {
    await t.test(name, async () => {
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-first-setup-'));
      const setup = await hadUsersThen(lose);
      assert.deepEqual([setup.needed, setup.codeRequired], [true, true]);
      assert.ok(existsSync(codeFile()));
    });
  }
});

test('with the code required, no code and a wrong one are refused; the right one works once', async () => {
  const setup = await hadUsersThen(() => unlinkSync(path.join(dir, 'users.json')));
  await assert.rejects(setup.createAdmin('intruder', 'intruder-password', undefined), forbidden(/needs the one-time setup code/));
  await assert.rejects(setup.createAdmin('intruder', 'intruder-password', 'AAAAA-AAAAA-AAAAA-AAAAA'), forbidden(/setup code is wrong/));
  const code = readFileSync(codeFile(), 'utf8').trim();
  const admin = await setup.createAdmin('owner2', 'owner2-password', code);
  assert.equal(admin.role, 'admin');
  assert.equal(existsSync(codeFile()), false);
  assert.deepEqual([setup.needed, setup.codeRequired], [false, false]);
  await assert.rejects(setup.createAdmin('intruder', 'intruder-password', code), (err: AppError) => err.status === 409);
});

test('a start with an admin writes the missing marker and drops a leftover code', async () => {
  const first = await open();
  await first.users.createFirstAdmin('owner', 'owner-password');
  writeFileSync(codeFile(), 'AAAAA-AAAAA-AAAAA-AAAAA\n');
  await open();
  assert.ok(existsSync(path.join(dir, USERS_EXISTED_FILE)));
  assert.equal(existsSync(codeFile()), false);
});
