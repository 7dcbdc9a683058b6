import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt, SignJWT } from 'jose';
import { SECRET_FILE } from '../../../../appliance/dashboard/auth/secret.js';
import { SETUP_CODE_FILE } from '../../../../appliance/dashboard/auth/setup-code.js';
import { BAD_CREDENTIALS } from '../../../../appliance/dashboard/auth/sessions.js';
import { expectError, startDashboardFixture, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { ADMIN, login, setupAdmin } from '../../../fixtures/dashboard-auth.js';

async function withDashboard(run: (dash: DashboardFixture) => Promise<void>, config?: unknown): Promise<void> {
  const dash = await startDashboardFixture(config === undefined ? {} : { config });
  try {
    await run(dash);
  } finally {
    await dash.cleanup();
  }
}

test('setup creates the first admin once; afterwards it is refused with 409', () =>
  withDashboard(async (dash) => {
    assert.deepEqual((await dash.request('GET', '/api/auth/setup')).json, { needed: true, setup_code_required: false });
    const created = await dash.request('POST', '/api/auth/setup', { body: { username: 'Owner', password: 'owner-password' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.json).sort(), ['created_at', 'id', 'role', 'updated_at', 'username']);
    assert.equal(created.json.role, 'admin');
    assert.deepEqual((await dash.request('GET', '/api/auth/setup')).json, { needed: false, setup_code_required: false });
    const again = await dash.request('POST', '/api/auth/setup', { body: { username: 'intruder', password: 'intruder-password' } });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'ERR_CONFLICT');
    const short = await dash.request('POST', '/api/auth/setup', { body: { username: 'x', password: 'short' } });
    assert.equal(short.status, 400, 'validation comes first');
  }));

test('setup validates its body with details', () =>
  withDashboard(async (dash) => {
    const bad = await dash.request('POST', '/api/auth/setup', { body: { username: 'bad name', password: 'short', extra: 1 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'ERR_VALIDATION');
    const paths = (bad.json.details as { path: string }[]).map((d) => d.path).sort();
    assert.deepEqual(paths, ['body/extra', 'body/password', 'body/username']);
    assert.deepEqual((await dash.request('GET', '/api/auth/setup')).json, { needed: true, setup_code_required: false });
  }));

test('login gives a JWT and the configured lifetime; wrong username and password get the same 401', () =>
  withDashboard(
    async (dash) => {
      await setupAdmin(dash);
      const ok = await dash.request('POST', '/api/auth/login', { body: { username: 'ADMIN', password: ADMIN.password } });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.expiresIn, '2h');
      const claims = decodeJwt(ok.json.token);
      assert.equal(claims.role, 'admin');
      assert.equal((claims.exp as number) - (claims.iat as number), 7200);
      assert.equal(typeof claims.jti, 'string');

      const wrongPassword = await dash.request('POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong-password' } });
      const wrongUser = await dash.request('POST', '/api/auth/login', { body: { username: 'nobody', password: ADMIN.password } });
      for (const refused of [wrongPassword, wrongUser]) {
        assert.equal(refused.status, 401);
        assert.deepEqual(refused.json, { error: BAD_CREDENTIALS, code: 'ERR_UNAUTHORIZED' });
      }
    },
    { auth: { token_expiry: '2h' } },
  ));

test('me shows the user, never the hash; no or bad credentials get 401', () =>
  withDashboard(async (dash) => {
    const token = await setupAdmin(dash);
    const me = await dash.request('GET', '/api/auth/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.json.kind, 'user');
    assert.equal(me.json.username, ADMIN.username);
    assert.equal(me.json.role, 'admin');
    assert.equal(me.json.token_expires_at, new Date((decodeJwt(token).exp as number) * 1000).toISOString());
    assert.equal(me.text.includes('hash'), false);
    for (const options of [{}, { token: 'nonsense' }, { token: token.slice(0, -2) }, { headers: { authorization: `Basic ${token}` } }]) {
      const refused = await dash.request('GET', '/api/auth/me', options);
      assert.equal(refused.status, 401, JSON.stringify(options));
      assert.equal(refused.json.code, 'ERR_UNAUTHORIZED');
    }
  }));

test('an expired token is refused with 401', () =>
  withDashboard(async (dash) => {
    const token = await setupAdmin(dash);
    const adminId = decodeJwt(token).sub as string;
    const secret = Buffer.from(readFileSync(path.join(dash.dataDir, SECRET_FILE), 'utf8').trim(), 'base64url');
    const nowS = Math.floor(Date.now() / 1000);
    const sign = (exp: number) =>
      new SignJWT({ role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(adminId)
        .setJti(randomUUID())
        .setIssuedAt(nowS - 7200)
        .setExpirationTime(exp)
        .sign(secret);
    assert.equal(
      (await dash.request('GET', '/api/auth/me', { token: await sign(nowS + 60) })).status,
      200,
      'the forged-with-the-real-key control passes',
    );
    const expired = await dash.request('GET', '/api/auth/me', { token: await sign(nowS - 60) });
    assert.equal(expired.status, 401);
    assert.equal(expired.json.code, 'ERR_UNAUTHORIZED');
  }));

test('logout revokes the token; other sessions go on; an API key cannot log out', () =>
  withDashboard(async (dash) => {
    const first = await setupAdmin(dash);
    const second = await login(dash, ADMIN.username, ADMIN.password);
    const out = await dash.request('POST', '/api/auth/logout', { token: second });
    assert.equal(out.status, 204);
    assert.equal((await dash.request('GET', '/api/auth/me', { token: second })).status, 401);
    assert.equal((await dash.request('POST', '/api/auth/logout', { token: second })).status, 401);
    assert.equal((await dash.request('GET', '/api/auth/me', { token: first })).status, 200);

    const key = await dash.request('POST', '/api/api-keys', { token: first, body: { name: 'script', role: 'view' } });
    const keyLogout = await dash.request('POST', '/api/auth/logout', { apiKey: key.json.key });
    assert.equal(keyLogout.status, 400);
    assert.equal((await dash.request('GET', '/api/auth/me', { apiKey: key.json.key })).status, 200);
  }));

test('after a restart on the same data, tokens stay valid and revoked ones stay revoked', async () => {
  const dash = await startDashboardFixture();
  let restarted: DashboardFixture | undefined;
  try {
    const kept = await setupAdmin(dash);
    const revoked = await login(dash, ADMIN.username, ADMIN.password);
    assert.equal((await dash.request('POST', '/api/auth/logout', { token: revoked })).status, 204);
    await dash.stop();
    restarted = await startDashboardFixture({ dataDir: dash.dataDir });
    assert.equal((await restarted.request('GET', '/api/auth/me', { token: kept })).status, 200);
    assert.equal((await restarted.request('GET', '/api/auth/me', { token: revoked })).status, 401);
    assert.deepEqual((await restarted.request('GET', '/api/auth/setup')).json, { needed: false, setup_code_required: false });
  } finally {
    await restarted?.stop();
    await dash.cleanup();
  }
});

test('failed logins are throttled with 429 and Retry-After; after the wait the right password works', () =>
  withDashboard(
    async (dash) => {
      await setupAdmin(dash);
      for (let i = 0; i < 5; i++) {
        const refused = await dash.request('POST', '/api/auth/login', { body: { username: 'admin', password: `guess-${i}` } });
        assert.equal(refused.status, 401, `attempt ${i + 1}`);
      }
      const throttled = await dash.request('POST', '/api/auth/login', { body: ADMIN });
      assert.equal(throttled.status, 429);
      assert.equal(throttled.json.code, 'ERR_RATE_LIMITED');
      const retryAfter = Number(throttled.headers.get('retry-after'));
      assert.equal(retryAfter, 1);
      const otherUser = await dash.request('POST', '/api/auth/login', { body: { username: 'someone', password: 'some-password' } });
      assert.equal(otherUser.status, 401, 'another username from the same address is not locked');
      await sleep(retryAfter * 1000);
      const ok = await dash.request('POST', '/api/auth/login', { body: ADMIN });
      assert.equal(ok.status, 200);
      const afterReset = await dash.request('POST', '/api/auth/login', { body: { username: 'admin', password: 'guess-again' } });
      assert.equal(afterReset.status, 401, 'the success reset the count');
    },
    { rate_limit: { enabled: false } },
  ));

test('failures over many usernames lock the whole address', () =>
  withDashboard(
    async (dash) => {
      for (let i = 0; i < 20; i++) {
        const refused = await dash.request('POST', '/api/auth/login', { body: { username: `user${i}`, password: 'some-password' } });
        assert.equal(refused.status, 401, `attempt ${i + 1}`);
      }
      const locked = await dash.request('POST', '/api/auth/login', { body: { username: 'fresh-name', password: 'some-password' } });
      assert.equal(locked.status, 429);
      assert.ok(Number(locked.headers.get('retry-after')) >= 1);
    },
    { rate_limit: { enabled: false } },
  ));

/** POST /api/auth/login sent from `address` (any of 127.0.0.0/8 reaches the loopback listener on Linux). */
function loginFrom(dash: DashboardFixture, address: string, body: object): Promise<{ status: number; json: any; retryAfter: string | undefined }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: dash.port,
        path: '/api/auth/login',
        method: 'POST',
        localAddress: address,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let answer = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (answer += chunk))
          .on('end', () => {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(answer), retryAfter: res.headers['retry-after'] as string | undefined });
          });
      },
    );
    req.on('error', reject).end(text);
  });
}

test("guesses at one account from ten addresses get 429 after the allowance; the owner's known device gets in", () =>
  withDashboard(
    async (dash) => {
      await setupAdmin(dash);
      const owner = await dash.request('POST', '/api/auth/login', { body: ADMIN });
      assert.equal(typeof owner.json.device_token, 'string');
      for (let i = 2; i <= 11; i++) {
        const guess = await loginFrom(dash, `127.0.0.${i}`, { username: 'admin', password: `guess-${i}` });
        assert.equal(guess.status, 401, `guess from 127.0.0.${i}`);
      }
      for (const address of ['127.0.0.12', '127.0.0.13']) {
        const throttled = await loginFrom(dash, address, ADMIN);
        assert.equal(throttled.status, 429, `a fresh address ${address} is held too`);
        assert.equal(throttled.json.code, 'ERR_RATE_LIMITED');
        assert.match(throttled.json.error, /this account from several addresses/);
        assert.equal(throttled.retryAfter, '1');
      }
      assert.equal(
        (await loginFrom(dash, '127.0.0.12', { username: 'someone', password: 'some-password' })).status,
        401,
        'other accounts are not held',
      );
      const known = await loginFrom(dash, '127.0.0.14', { ...ADMIN, device_token: owner.json.device_token });
      assert.equal(known.status, 200, "the owner's device gets through");
      assert.equal((await dash.request('GET', '/api/health')).status, 200);
      const users = await dash.request('GET', '/api/users', { token: known.json.token });
      assert.deepEqual(
        users.json.map((u: { username: string }) => u.username),
        ['admin'],
      );
    },
    { rate_limit: { enabled: false } },
  ));

/** A dashboard whose data held an admin and another user, restarted after `damage` changed users.json. */
async function restartDamaged(damage: (users: { users: object[] }) => string): Promise<DashboardFixture> {
  const first = await startDashboardFixture();
  await setupAdmin(first);
  const token = await login(first, ADMIN.username, ADMIN.password);
  await first.request('POST', '/api/users', { token, body: { username: 'carol', password: 'carol-password', role: 'print' } });
  await first.stop();
  const file = path.join(first.dataDir, 'users.json');
  writeFileSync(file, damage(JSON.parse(readFileSync(file, 'utf8'))));
  return startDashboardFixture({ dataDir: first.dataDir });
}

test('a torn users.json does not reopen setup: creating the admin needs the one-time code, then the code is gone', async () => {
  const dash = await restartDamaged((users) => JSON.stringify(users).slice(0, 60));
  try {
    assert.deepEqual((await dash.request('GET', '/api/auth/setup')).json, { needed: true, setup_code_required: true });
    const intruder = await dash.request('POST', '/api/auth/setup', { body: { username: 'intruder', password: 'intruder-password' } });
    expectError(intruder, 403, 'ERR_FORBIDDEN', /needs the one-time setup code \(setup_code\)/);
    const guessed = await dash.request('POST', '/api/auth/setup', {
      body: { username: 'intruder', password: 'intruder-password', setup_code: 'AAAAA-AAAAA-AAAAA-AAAAA' },
    });
    expectError(guessed, 403, 'ERR_FORBIDDEN', /setup code is wrong/);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);

    const codeFile = path.join(dash.dataDir, SETUP_CODE_FILE);
    assert.equal(statSync(codeFile).mode & 0o777, 0o600);
    const code = readFileSync(codeFile, 'utf8').trim();
    assert.ok(dash.logs().includes(code), 'the code is in the log');
    const owner = await dash.request('POST', '/api/auth/setup', { body: { username: 'owner', password: 'owner-password', setup_code: code } });
    assert.equal(owner.status, 201);
    assert.equal(existsSync(codeFile), false);
    const again = await dash.request('POST', '/api/auth/setup', { body: { username: 'intruder', password: 'intruder-password', setup_code: code } });
    assert.equal(again.status, 409);

    const token = await login(dash, 'owner', 'owner-password');
    const info = await dash.request('GET', '/api/system/info', { token });
    const [problem] = info.json.storage.problems;
    assert.equal(problem.file, 'users.json');
    assert.match(readFileSync(path.join(dash.dataDir, problem.moved_to), 'utf8'), /^\{"users":\[\{"id"/, 'the torn file is kept');
  } finally {
    await dash.cleanup();
  }
});

test('one bad record in users.json keeps the other users, reports the problem and leaves setup closed', async () => {
  const dash = await restartDamaged(({ users }) => JSON.stringify({ users: [...users, { id: 'x', username: 'evil', role: 'admin' }] }));
  try {
    assert.deepEqual((await dash.request('GET', '/api/auth/setup')).json, { needed: false, setup_code_required: false });
    const setup = await dash.request('POST', '/api/auth/setup', { body: { username: 'intruder', password: 'intruder-password' } });
    assert.equal(setup.status, 409);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
    const token = await login(dash, ADMIN.username, ADMIN.password);
    await login(dash, 'carol', 'carol-password');
    const users = await dash.request('GET', '/api/users', { token });
    assert.deepEqual(
      users.json.map((u: { username: string }) => u.username),
      ['admin', 'carol'],
    );
    const info = await dash.request('GET', '/api/system/info', { token });
    assert.match(info.json.storage.problems[0].reason, /users\[2\].*kept the valid part \(2 of 3 users\)/);
    assert.match(readFileSync(path.join(dash.dataDir, info.json.storage.problems[0].moved_to), 'utf8'), /"evil"/);
  } finally {
    await dash.cleanup();
  }
});
