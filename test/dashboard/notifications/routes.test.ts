import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { notificationCenterOf } from '../../../appliance/dashboard/notifications/center.js';
import { createNotificationsFeature } from '../../../appliance/dashboard/notifications/feature.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

let dash: DashboardFixture;
before(async () => {
  dash = await startDashboardFixture({ features: [createNotificationsFeature], createAuthenticator: testAuthenticator });
});
after(() => dash.cleanup());

const raise = (title: string, token = TEST_TOKENS.print) =>
  dash.request('post', '/api/notifications', { token, body: { kind: 'print.finished', level: 'info', title, message: 'ok', data: { printer_id: 'p1' } } });

test('raising needs print; the stored notification comes back as 201', async () => {
  assert.equal((await dash.request('post', '/api/notifications', { body: { kind: 'x', level: 'info', title: 't', message: '' } })).status, 401);
  assert.equal((await raise('nope', TEST_TOKENS.view)).status, 403);
  const created = await raise('Benchy');
  assert.equal(created.status, 201);
  assert.deepEqual(created.json, {
    id: created.json.id, kind: 'print.finished', level: 'info', title: 'Benchy', message: 'ok', data: { printer_id: 'p1' },
    created_at: created.json.created_at, read: false,
  });
  const bad = await dash.request('post', '/api/notifications', { token: TEST_TOKENS.admin, body: { kind: 'Bad Kind', level: 'loud', title: '', message: 'x', extra: 1 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.code, 'ERR_VALIDATION');
  assert.deepEqual(bad.json.details.map((d: { path: string }) => d.path).sort(), ['body/extra', 'body/kind', 'body/level', 'body/title']);
});

test('the list pages newest first, filters unread, and counts unread; view may read it', async () => {
  const center = notificationCenterOf(dash.server.context);
  for (const title of ['a', 'b', 'c', 'd']) await center.notify({ kind: 'printer.error', level: 'error', title, message: '' });
  assert.equal((await dash.request('get', '/api/notifications')).status, 401);
  const all = await dash.request('get', '/api/notifications', { token: TEST_TOKENS.view });
  assert.equal(all.status, 200);
  const total = all.json.items.length;
  assert.ok(total >= 4);
  assert.equal(all.json.unread_count, all.json.items.filter((n: { read: boolean }) => !n.read).length);

  const page = await dash.request('get', '/api/notifications?limit=2', { token: TEST_TOKENS.view });
  assert.deepEqual(page.json.items.map((n: { title: string }) => n.title), ['d', 'c']);
  const next = await dash.request('get', `/api/notifications?limit=2&before=${page.json.next_before}`, { token: TEST_TOKENS.view });
  assert.deepEqual(next.json.items.map((n: { title: string }) => n.title), ['b', 'a']);

  const read = await dash.request('post', `/api/notifications/${page.json.items[0].id}/read`, { token: TEST_TOKENS.view });
  assert.equal(read.status, 200);
  assert.equal(read.json.read, true);
  const unread = await dash.request('get', '/api/notifications?unread=1', { token: TEST_TOKENS.view });
  assert.ok(unread.json.items.every((n: { read: boolean }) => !n.read));
  assert.equal(unread.json.items.length, total - 1);
  assert.equal(unread.json.unread_count, total - 1);

  for (const query of ['limit=0', 'limit=501', 'limit=x', 'before=abc', 'unread=maybe']) {
    const bad = await dash.request('get', `/api/notifications?${query}`, { token: TEST_TOKENS.view });
    assert.equal(bad.status, 400, query);
    assert.equal(bad.json.code, 'ERR_VALIDATION');
  }
});

test('read-all marks everything; unknown ids are 404, malformed ones 400', async () => {
  await raise('unread one');
  const marked = await dash.request('post', '/api/notifications/read-all', { token: TEST_TOKENS.view });
  assert.equal(marked.status, 200);
  assert.ok(marked.json.marked >= 1);
  const after = await dash.request('get', '/api/notifications', { token: TEST_TOKENS.view });
  assert.equal(after.json.unread_count, 0);
  assert.deepEqual((await dash.request('post', '/api/notifications/read-all', { token: TEST_TOKENS.view })).json, { marked: 0 });
  const missing = await dash.request('post', '/api/notifications/999999/read', { token: TEST_TOKENS.view });
  assert.deepEqual([missing.status, missing.json.code], [404, 'ERR_NOT_FOUND']);
  assert.equal((await dash.request('post', '/api/notifications/abc/read', { token: TEST_TOKENS.view })).status, 400);
});

test('deleting needs print and removes it from the list', async () => {
  const { json: created } = await raise('to delete');
  assert.equal((await dash.request('delete', `/api/notifications/${created.id}`, { token: TEST_TOKENS.view })).status, 403);
  assert.equal((await dash.request('delete', `/api/notifications/${created.id}`, { token: TEST_TOKENS.print })).status, 204);
  assert.equal((await dash.request('delete', `/api/notifications/${created.id}`, { token: TEST_TOKENS.print })).status, 404);
  const list = await dash.request('get', '/api/notifications?limit=500', { token: TEST_TOKENS.view });
  assert.ok(!list.json.items.some((n: { id: string }) => n.id === created.id));
});
