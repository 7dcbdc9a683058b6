import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDashboardFixture, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { createApiKey, setupAdmin } from '../../../fixtures/dashboard-auth.js';

let dash: DashboardFixture;
let admin: string;

before(async () => {
  dash = await startDashboardFixture({ config: { rate_limit: { enabled: false } } });
  admin = await setupAdmin(dash);
});
after(() => dash.cleanup());

test('a key is shown once at creation; the list has no secrets', async () => {
  const created = await dash.request('POST', '/api/api-keys', { token: admin, body: { name: 'node-red', role: 'print' } });
  assert.equal(created.status, 201);
  assert.match(created.json.key, /^pyk_[A-Za-z0-9_-]{43}$/);
  assert.equal(created.json.role, 'print');
  assert.equal(created.json.last_used_at, null);
  assert.equal(created.json.key.startsWith(created.json.prefix), true);
  const list = await dash.request('GET', '/api/api-keys', { token: admin });
  assert.equal(list.status, 200);
  const listed = list.json.find((k: { id: string }) => k.id === created.json.id);
  const { key: _shownOnce, ...rest } = created.json;
  assert.deepEqual(listed, rest);
  assert.equal(list.text.includes(created.json.key), false);
  assert.equal(list.text.includes('hash'), false);
});

test('a key authenticates as X-API-Key and as a bearer token, with its role', async () => {
  const { key, id } = await createApiKey(dash, 'view', 'dashboard-display');
  for (const options of [{ apiKey: key }, { token: key }]) {
    const me = await dash.request('GET', '/api/auth/me', options);
    assert.equal(me.status, 200);
    assert.deepEqual({ kind: me.json.kind, id: me.json.id, role: me.json.role }, { kind: 'api_key', id, role: 'view' });
    assert.equal((await dash.request('GET', '/api/users', options)).status, 403);
  }
  const listed = (await dash.request('GET', '/api/api-keys', { token: admin })).json.find((k: { id: string }) => k.id === id);
  assert.equal(typeof listed.last_used_at, 'string', 'the use is recorded');
});

test('a revoked key is refused at once', async () => {
  const { key, id } = await createApiKey(dash, 'admin', 'short-lived');
  assert.equal((await dash.request('GET', '/api/users', { apiKey: key })).status, 200);
  assert.equal((await dash.request('DELETE', `/api/api-keys/${id}`, { token: admin })).status, 204);
  for (const options of [{ apiKey: key }, { token: key }]) {
    const refused = await dash.request('GET', '/api/auth/me', options);
    assert.equal(refused.status, 401);
    assert.equal(refused.json.code, 'ERR_UNAUTHORIZED');
  }
  assert.equal((await dash.request('DELETE', `/api/api-keys/${id}`, { token: admin })).status, 404);
});

test('an unknown or malformed key is refused; bad bodies get 400', async () => {
  assert.equal((await dash.request('GET', '/api/auth/me', { apiKey: `pyk_${'x'.repeat(43)}` })).status, 401);
  assert.equal((await dash.request('GET', '/api/auth/me', { apiKey: 'not-a-key' })).status, 401);
  for (const body of [{ name: '', role: 'view' }, { name: 'x', role: 'owner' }, { name: 'x' }, { name: 'x'.repeat(101), role: 'view' }]) {
    const response = await dash.request('POST', '/api/api-keys', { token: admin, body });
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal(response.json.code, 'ERR_VALIDATION');
  }
});

test("a stop writes a key's latest use, which a restart then lists", async () => {
  const own = await startDashboardFixture({ config: { rate_limit: { enabled: false } } });
  let restarted: DashboardFixture | undefined;
  try {
    const ownAdmin = await setupAdmin(own);
    const { key, id } = await createApiKey(own, 'view', 'poller');
    assert.equal((await own.request('GET', '/api/auth/me', { apiKey: key })).status, 200);
    const lastUse = (await own.request('GET', '/api/api-keys', { token: ownAdmin })).json.find((k: { id: string }) => k.id === id).last_used_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await own.request('GET', '/api/auth/me', { apiKey: key })).status, 200, 'a use within the write interval');
    const latest = (await own.request('GET', '/api/api-keys', { token: ownAdmin })).json.find((k: { id: string }) => k.id === id).last_used_at;
    assert.ok(latest > lastUse, `${latest} after ${lastUse}`);
    await own.stop();
    restarted = await startDashboardFixture({ dataDir: own.dataDir });
    const listed = (await restarted.request('GET', '/api/api-keys', { token: ownAdmin })).json.find((k: { id: string }) => k.id === id);
    assert.equal(listed.last_used_at, latest);
  } finally {
    await restarted?.stop();
    await own.cleanup();
  }
});
