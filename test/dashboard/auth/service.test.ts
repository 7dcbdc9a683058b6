import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { AuthService } from '../../../appliance/dashboard/auth/service.js';
import { SETUP_CODE_FILE } from '../../../appliance/dashboard/auth/setup-code.js';
import { BAD_CREDENTIALS, LoginThrottled } from '../../../appliance/dashboard/auth/sessions.js';
import { FileSettings } from '../../../appliance/dashboard/settings/file-settings.js';

let logLines: string[] = [];
const log = createLogger({ name: 'test', level: 'warn', write: (line) => void logLines.push(line) });
let dir: string;
let nowMs: number;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-auth-'));
  logLines = [];
  nowMs = Date.UTC(2025, 0, 1);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function open(): Promise<AuthService> {
  const deps = { dataDir: dir, stores: new JsonStores(dir, log), settings: await FileSettings.load(dir, {}, log), log };
  return AuthService.open(deps, { now: () => nowMs });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function withAdmin(): Promise<{ auth: AuthService; adminId: string }> {
  const auth = await open();
  const admin = await auth.users.createFirstAdmin('root', 'root-password');
  return { auth, adminId: admin.id };
}

test("login gives a token the authenticator accepts, with the user's current role", async () => {
  const { auth, adminId } = await withAdmin();
  const bob = await auth.users.create({ username: 'bob', password: 'bob-password', role: 'print' });
  const { token, expiresIn } = await auth.sessions.login('BOB', 'bob-password', '10.0.0.1');
  assert.equal(expiresIn, '24h');
  const principal = await auth.authenticate(bearer(token));
  assert.deepEqual(
    { ...principal, token_id: undefined },
    { kind: 'user', id: bob.id, name: 'bob', role: 'print', token_id: undefined, token_exp: nowMs / 1000 + 86_400 },
  );
  assert.equal(typeof principal?.token_id, 'string');
  assert.deepEqual(await auth.authenticateToken(token), principal);

  await auth.users.update(bob.id, { role: 'view' });
  assert.equal((await auth.authenticate(bearer(token)))?.role, 'view', 'a demotion applies at once');
  await auth.deleteUser(bob.id);
  assert.equal(await auth.authenticate(bearer(token)), null, "a deleted user's token is refused");
  assert.ok(auth.users.get(adminId));
});

test('a wrong password and an unknown user get the same refusal', async () => {
  const { auth } = await withAdmin();
  const wrongPassword = await auth.sessions.login('root', 'not-the-password', '10.0.0.1').catch((err: AppError) => err);
  const unknownUser = await auth.sessions.login('nobody', 'root-password', '10.0.0.1').catch((err: AppError) => err);
  for (const err of [wrongPassword, unknownUser]) {
    assert.ok(!('token' in err));
    assert.deepEqual([err.status, err.code, err.message], [401, 'ERR_UNAUTHORIZED', BAD_CREDENTIALS]);
  }
});

test('repeated failures are throttled; the right password waits too; a success resets', async () => {
  const { auth } = await withAdmin();
  for (let i = 0; i < 5; i++) await assert.rejects(auth.sessions.login('root', `guess-${i}`, '10.0.0.1'), (err: AppError) => err.status === 401);
  const throttled = await auth.sessions.login('root', 'root-password', '10.0.0.1').catch((err: unknown) => err);
  assert.ok(throttled instanceof LoginThrottled);
  assert.deepEqual([throttled.status, throttled.code, throttled.retryAfterS], [429, 'ERR_RATE_LIMITED', 1]);
  nowMs += 1000;
  await auth.sessions.login('root', 'root-password', '10.0.0.1');
  await assert.rejects(auth.sessions.login('root', 'wrong-again', '10.0.0.1'), (err: AppError) => err.status === 401);
});

test('the token lifetime comes from the settings, and tokens expire', async () => {
  await withAdmin();
  const settings = await FileSettings.load(dir, {}, log);
  assert.equal(settings.current.auth.token_expiry, '24h');
  const deps = { dataDir: dir, stores: new JsonStores(dir, log), settings, log };
  const shortLived = await AuthService.open(deps, { now: () => nowMs });
  await settings.update({ auth: { token_expiry: '30m' } });
  const { token, expiresIn } = await shortLived.sessions.login('root', 'root-password', '10.0.0.1');
  assert.equal(expiresIn, '30m');
  nowMs += 29 * 60_000;
  assert.notEqual(await shortLived.authenticateToken(token), null);
  nowMs += 2 * 60_000;
  assert.equal(await shortLived.authenticateToken(token), null);
});

test('logout revokes the token, also for a service opened later on the same data', async () => {
  const { auth } = await withAdmin();
  const { token } = await auth.sessions.login('root', 'root-password', '10.0.0.1');
  const other = await auth.sessions.login('root', 'root-password', '10.0.0.1');
  const principal = (await auth.authenticate(bearer(token)))!;
  await auth.sessions.logout(principal);
  assert.equal(await auth.authenticate(bearer(token)), null);
  assert.notEqual(await auth.authenticate(bearer(other.token)), null, 'other sessions go on');
  const reopened = await open();
  assert.equal(await reopened.authenticate(bearer(token)), null);
  assert.notEqual(await reopened.authenticate(bearer(other.token)), null, 'the signing key is kept');
});

test('API keys work in X-API-Key and as a bearer token, never above their owner', async () => {
  const { auth, adminId } = await withAdmin();
  const admin = (await auth.authenticateToken((await auth.sessions.login('root', 'root-password', '10.0.0.1')).token))!;
  const { key, record } = await auth.createApiKey(admin, 'farm', 'admin');
  assert.equal(record.owner_id, adminId);
  const expected = { kind: 'api_key', id: record.id, name: 'farm', role: 'admin' };
  assert.deepEqual(await auth.authenticate({ 'x-api-key': key }), expected);
  assert.deepEqual(await auth.authenticate(bearer(key)), expected);
  assert.deepEqual(await auth.authenticateToken(key), expected);
  assert.deepEqual(auth.me((await auth.authenticate({ 'x-api-key': key }))!).kind, 'api_key');

  const keyPrincipal = (await auth.authenticate({ 'x-api-key': key }))!;
  const child = await auth.createApiKey(keyPrincipal, 'made by a key', 'print');
  assert.equal(child.record.owner_id, adminId, 'a key made by a key belongs to the same user');

  await auth.users.create({ username: 'second', password: 'second-password', role: 'admin' });
  await auth.users.update(adminId, { role: 'print' });
  assert.equal((await auth.authenticate({ 'x-api-key': key }))?.role, 'print', "capped at the owner's current role");
  const demoted = (await auth.authenticate({ 'x-api-key': key }))!;
  await assert.rejects(auth.createApiKey(demoted, 'too strong', 'admin'), (err: AppError) => err.status === 403);

  await auth.deleteUser(adminId);
  assert.equal(await auth.authenticate({ 'x-api-key': key }), null, 'the keys go with their owner');
  assert.deepEqual(auth.apiKeys.list(), []);
});

test('malformed or missing credentials give no principal', async () => {
  const { auth } = await withAdmin();
  const { key } = await auth.createApiKey(
    (await auth.authenticateToken((await auth.sessions.login('root', 'root-password', '1.1.1.1')).token))!,
    'k',
    'view',
  );
  for (const headers of [
    {},
    { authorization: '' },
    { authorization: 'Bearer' },
    { authorization: 'Basic cm9vdDpyb290' },
    { authorization: 'Bearer a b' },
    { authorization: 'Bearer not.a.jwt' },
    { 'x-api-key': `pyk_${'A'.repeat(43)}` },
    { 'x-api-key': '' },
    { authorization: 'Bearer garbage', 'x-api-key': key },
  ]) {
    assert.equal(await auth.authenticate(headers), null, JSON.stringify(headers));
  }
  assert.equal(await auth.authenticateToken(''), null);
});

/** The error a login was refused with. */
async function refusal(login: Promise<unknown>): Promise<AppError> {
  try {
    await login;
  } catch (err) {
    return err as AppError;
  }
  assert.fail('the login should have been refused');
}

/** Ten wrong guesses at root, each from its own address: the account's allowance. */
async function guessFromTenAddresses(auth: AuthService): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await assert.rejects(auth.sessions.login('root', `guess-${i}`, `10.9.0.${i}`), (err: AppError) => err.status === 401, `guess ${i + 1}`);
  }
}

test('guesses from many addresses lock the account for strangers; a known device gets through', async () => {
  const { auth } = await withAdmin();
  const { device_token: device } = await auth.sessions.login('root', 'root-password', '192.168.1.5');
  await guessFromTenAddresses(auth);
  const stranger = await refusal(auth.sessions.login('root', 'root-password', '10.9.1.1'));
  assert.ok(stranger instanceof LoginThrottled);
  assert.equal(stranger.retryAfterS, 1);
  assert.match(stranger.message, /this account from several addresses/);
  const otherAccount = await refusal(auth.sessions.login('nobody', 'some-password', '10.9.1.1'));
  assert.equal(otherAccount.status, 401, 'other accounts are not locked');

  const owner = await auth.sessions.login('root', 'root-password', '192.168.1.5', { deviceToken: device });
  assert.ok(await auth.authenticateToken(owner.token));
  const forged = await refusal(auth.sessions.login('root', 'root-password', '10.9.1.1', { deviceToken: `${device.slice(0, -3)}AAA` }));
  assert.ok(forged instanceof LoginThrottled, 'a forged device token does not');
  const bob = await auth.users.create({ username: 'bob', password: 'bob-password', role: 'view' });
  const bobsDevice = (await auth.sessions.login('bob', 'bob-password', '10.9.1.2')).device_token;
  assert.ok(auth.users.get(bob.id));
  const wrongAccount = await refusal(auth.sessions.login('root', 'root-password', '10.9.1.2', { deviceToken: bobsDevice }));
  assert.ok(wrongAccount instanceof LoginThrottled, "another account's device token does not");
  nowMs += 1000;
  await auth.sessions.login('root', 'root-password', '10.9.1.1');
});

test('a device token ends with a password change and is never a session token', async () => {
  const { auth, adminId } = await withAdmin();
  const { device_token: device } = await auth.sessions.login('root', 'root-password', '192.168.1.5');
  assert.equal(await auth.authenticateToken(device), null);
  assert.equal(await auth.authenticate(bearer(device)), null);
  await auth.users.update(adminId, { password: 'new-root-password' });
  await guessFromTenAddresses(auth);
  const stale = await refusal(auth.sessions.login('root', 'new-root-password', '192.168.1.5', { deviceToken: device }));
  assert.ok(stale instanceof LoginThrottled);
});

test('when the account lock starts the setup code is made and logged; it lets the owner in once', async () => {
  const { auth } = await withAdmin();
  assert.equal(existsSync(path.join(dir, SETUP_CODE_FILE)), false);
  await guessFromTenAddresses(auth);
  const code = readFileSync(path.join(dir, SETUP_CODE_FILE), 'utf8').trim();
  assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  assert.match(logLines.join(''), new RegExp(`logins to root are slowed.*${code}`));
  const wrongCode = await refusal(auth.sessions.login('root', 'root-password', '10.9.1.1', { setupCode: 'AAAAA-AAAAA-AAAAA-AAAAA' }));
  assert.ok(wrongCode instanceof LoginThrottled);
  const wrongPassword = await refusal(auth.sessions.login('root', 'not-it', '10.9.1.1', { setupCode: code }));
  assert.equal(wrongPassword.status, 401, 'the code gets past the lock, not past the password');
  await auth.sessions.login('root', 'root-password', '10.9.1.1', { setupCode: code.toLowerCase() });
  assert.equal(existsSync(path.join(dir, SETUP_CODE_FILE)), false, 'used, the code is gone');
  const again = await refusal(auth.sessions.login('root', 'root-password', '10.9.1.1', { setupCode: code }));
  assert.ok(again instanceof LoginThrottled);
});
