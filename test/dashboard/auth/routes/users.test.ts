import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { expectError, startDashboardFixture, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { login, setupAdmin } from '../../../fixtures/dashboard-auth.js';

let dash: DashboardFixture;
let admin: string;

before(async () => {
  dash = await startDashboardFixture({ config: { rate_limit: { enabled: false } } });
  admin = await setupAdmin(dash);
});
after(() => dash.cleanup());

const USER_KEYS = ['created_at', 'id', 'role', 'updated_at', 'username'];

test('admins add, list, read and change users; the hash never shows', async () => {
  const created = await dash.request('POST', '/api/users', { token: admin, body: { username: 'carol', password: 'carol-password', role: 'view' } });
  assert.equal(created.status, 201);
  assert.deepEqual(Object.keys(created.json).sort(), USER_KEYS);
  const id = created.json.id as string;

  const list = await dash.request('GET', '/api/users', { token: admin });
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.json.map((u: { username: string }) => u.username),
    ['admin', 'carol'],
  );
  for (const user of list.json) assert.deepEqual(Object.keys(user).sort(), USER_KEYS);

  const one = await dash.request('GET', `/api/users/${id}`, { token: admin });
  assert.deepEqual(one.json, created.json);

  const carol = await login(dash, 'carol', 'carol-password');
  const changed = await dash.request('PUT', `/api/users/${id}`, { token: admin, body: { role: 'print' } });
  assert.equal(changed.status, 200);
  assert.equal(changed.json.role, 'print');
  assert.equal((await dash.request('GET', '/api/auth/me', { token: carol })).json.role, 'print', 'the open session has the new role');

  assert.equal((await dash.request('PUT', `/api/users/${id}`, { token: admin, body: { password: 'carol-new-password' } })).status, 200);
  assert.equal((await dash.request('POST', '/api/auth/login', { body: { username: 'carol', password: 'carol-password' } })).status, 401);
  await login(dash, 'carol', 'carol-new-password');

  for (const response of [list, one, changed]) assert.equal(/hash|salt|password/.test(response.text), false);
});

test('deleting a user ends their sessions at once', async () => {
  const created = await dash.request('POST', '/api/users', { token: admin, body: { username: 'dave', password: 'dave-password', role: 'admin' } });
  const dave = await login(dash, 'dave', 'dave-password');
  assert.equal((await dash.request('GET', '/api/users', { token: dave })).status, 200);
  assert.equal((await dash.request('DELETE', `/api/users/${created.json.id}`, { token: admin })).status, 204);
  assert.equal((await dash.request('GET', '/api/users', { token: dave })).status, 401);
  assert.equal((await dash.request('GET', `/api/users/${created.json.id}`, { token: admin })).status, 404);
  assert.equal((await dash.request('DELETE', `/api/users/${created.json.id}`, { token: admin })).status, 404);
});

test('the last admin can be neither demoted nor deleted', async () => {
  const me = await dash.request('GET', '/api/auth/me', { token: admin });
  const demote = await dash.request('PUT', `/api/users/${me.json.id}`, { token: admin, body: { role: 'view' } });
  assert.equal(demote.status, 409);
  assert.equal(demote.json.code, 'ERR_CONFLICT');
  const remove = await dash.request('DELETE', `/api/users/${me.json.id}`, { token: admin });
  assert.equal(remove.status, 409);
  assert.equal((await dash.request('GET', '/api/auth/me', { token: admin })).json.role, 'admin');
});

test('bad input gets 400 with details, taken names 409, unknown ids 404', async () => {
  const cases: [string, string, unknown, number][] = [
    ['POST', '/api/users', { username: 'eve', password: 'eve-password' }, 400],
    ['POST', '/api/users', { username: 'eve', password: 'eve-password', role: 'root' }, 400],
    ['POST', '/api/users', { username: 'e v e', password: 'eve-password', role: 'view' }, 400],
    ['POST', '/api/users', { username: 'eve', password: 'short', role: 'view' }, 400],
    ['POST', '/api/users', { username: 'eve', password: 'eve-password', role: 'view', admin: true }, 400],
    ['POST', '/api/users', { username: 'ADMIN', password: 'eve-password', role: 'view' }, 409],
    ['PUT', '/api/users/no-such-id', { role: 'view' }, 404],
    ['GET', '/api/users/no-such-id', undefined, 404],
  ];
  for (const [method, path, body, status] of cases) {
    const response = await dash.request(method, path, { token: admin, body });
    assert.equal(response.status, status, `${method} ${path} ${JSON.stringify(body)}: ${response.text}`);
    assert.equal(typeof response.json.error, 'string');
    if (status === 400) assert.ok(Array.isArray(response.json.details), response.text);
  }
  const list = await dash.request('GET', '/api/users', { token: admin });
  const someone = list.json[0].id as string;
  const empty = await dash.request('PUT', `/api/users/${someone}`, { token: admin, body: {} });
  assert.equal(empty.status, 400);
  assert.equal(empty.json.code, 'ERR_VALIDATION');
  const malformed = await dash.request('POST', '/api/users', { token: admin, body: '{"username":', headers: { 'content-type': 'application/json' } });
  assert.equal(malformed.status, 400);
});

test('weak passwords are refused with 400 naming the rule, at setup, creation and change; nothing stored changes', async () => {
  const earlier = await dash.request('GET', '/api/users', { token: admin });
  const dave = await dash.request('POST', '/api/users', { token: admin, body: { username: 'dave.admin', password: 'dave-password', role: 'print' } });
  assert.equal(dave.status, 201);
  // [password for dave.admin, the same rule for a new user dave.admin2, the rule]
  const cases: [string, string, RegExp][] = [
    ['password', 'password', /most common/],
    ['12345678', '12345678', /most common/],
    ['        ', '        ', /one character repeated/],
    ['Dave.Admin', 'Dave.Admin2', /user name/],
  ];
  for (const [password, newUserPassword, rule] of cases) {
    const created = await dash.request('POST', '/api/users', {
      token: admin,
      body: { username: 'dave.admin2', password: newUserPassword, role: 'view' },
    });
    expectError(created, 400, 'ERR_VALIDATION', rule);
    const changed = await dash.request('PUT', `/api/users/${dave.json.id}`, { token: admin, body: { password, role: 'admin' } });
    expectError(changed, 400, 'ERR_VALIDATION', rule);
    const setup = await dash.request('POST', '/api/auth/setup', { body: { username: 'dave.admin', password } });
    expectError(setup, 400, 'ERR_VALIDATION', rule);
  }
  assert.equal((await dash.request('GET', '/api/health')).status, 200);
  const now = await dash.request('GET', '/api/users', { token: admin });
  assert.deepEqual(now.json, [...earlier.json, dave.json], 'no user was added and dave is unchanged');
  await login(dash, 'dave.admin', 'dave-password');
});
