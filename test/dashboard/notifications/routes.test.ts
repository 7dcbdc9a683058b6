import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { withFileSizeLimit } from '../../fixtures/file-size-limit.js';
import { notificationsFeature } from '../../../appliance/dashboard/features.js';

const start = (files?: Record<string, string>) =>
  startDashboardFixture({
    features: [notificationsFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
    files,
  });

let dash: DashboardFixture;
before(async () => {
  dash = await start();
});
after(() => dash.cleanup());

const raise = (title: string, token = TEST_TOKENS.print, data: Record<string, unknown> = { printer_id: 'p1' }) =>
  dash.request('post', '/api/notifications', { token, body: { kind: 'print.finished', level: 'info', title, message: 'ok', data } });

test('raising needs print; the stored notification comes back as 201', async () => {
  assert.equal((await dash.request('post', '/api/notifications', { body: { kind: 'x', level: 'info', title: 't', message: '' } })).status, 401);
  assert.equal((await raise('nope', TEST_TOKENS.view)).status, 403);
  const created = await raise('Benchy');
  assert.equal(created.status, 201);
  assert.deepEqual(created.json, {
    id: created.json.id,
    kind: 'print.finished',
    level: 'info',
    title: 'Benchy',
    message: 'ok',
    data: { printer_id: 'p1' },
    created_at: created.json.created_at,
    read: false,
  });
  const bad = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.admin,
    body: { kind: 'Bad Kind', level: 'loud', title: '', message: 'x', extra: 1 },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.code, 'ERR_VALIDATION');
  assert.deepEqual(bad.json.details.map((d: { path: string }) => d.path).sort(), ['body/extra', 'body/kind', 'body/level', 'body/title']);
});

test('the list pages newest first, filters unread, and counts unread; view may read it', async () => {
  const center = dash.server.services.notifications;
  for (const title of ['a', 'b', 'c', 'd']) await center.notify({ kind: 'printer.error', level: 'error', title, message: '' });
  assert.equal((await dash.request('get', '/api/notifications')).status, 401);
  const all = await dash.request('get', '/api/notifications', { token: TEST_TOKENS.view });
  assert.equal(all.status, 200);
  const total = all.json.items.length;
  assert.ok(total >= 4);
  assert.equal(all.json.unread_count, all.json.items.filter((n: { read: boolean }) => !n.read).length);

  const page = await dash.request('get', '/api/notifications?limit=2', { token: TEST_TOKENS.view });
  assert.deepEqual(
    page.json.items.map((n: { title: string }) => n.title),
    ['d', 'c'],
  );
  const next = await dash.request('get', `/api/notifications?limit=2&before=${page.json.next_before}`, { token: TEST_TOKENS.view });
  assert.deepEqual(
    next.json.items.map((n: { title: string }) => n.title),
    ['b', 'a'],
  );

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

const everything = async (fixture = dash) => (await fixture.request('get', '/api/notifications?limit=500', { token: TEST_TOKENS.view })).json;

/** A system notification, raised the way features do, and whether the list shows it. */
async function systemNotificationLands(fixture: DashboardFixture): Promise<void> {
  const raised = await fixture.server.services.notifications.notify({
    kind: 'slicer_service_disconnected',
    level: 'warning',
    title: 'Slicer gone',
    message: '',
  });
  assert.equal((await everything(fixture)).items[0].id, raised.id);
}

test('data nested 30 000 deep or 62 KB large is a 400 naming the limit; the inbox keeps working', async () => {
  await raise('earlier');
  const before = await everything();
  const deep = `{"kind":"print.finished","level":"info","title":"deep","message":"","data":{"a":${'['.repeat(30_000)}${']'.repeat(30_000)}}}`;
  const deepResponse = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.print,
    body: deep,
    headers: { 'content-type': 'application/json' },
  });
  expectError(deepResponse, 400, 'ERR_VALIDATION', /^body nests objects and arrays more than 64 levels deep$/);
  let nine: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) nine = { a: nine };
  const tooDeep = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.print,
    body: { kind: 'x', level: 'info', title: 'nine', message: '', data: nine },
  });
  expectError(tooDeep, 400, 'ERR_VALIDATION', /^body\/data must not nest objects and arrays more than 8 levels deep$/);
  const large = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.print,
    body: { kind: 'x', level: 'info', title: 'large', message: '', data: { blob: 'x'.repeat(62 * 1024) } },
  });
  expectError(large, 400, 'ERR_VALIDATION', /^body\/data must be at most 8 KB as JSON \(it is 62\.\d+ KB\)$/);
  assert.deepEqual(large.json.details, [{ path: 'body/data', message: large.json.error.replace('body/data ', '') }]);

  assert.equal((await dash.request('get', '/api/health')).status, 200);
  assert.deepEqual(await everything(), before);
  await systemNotificationLands(dash);
  assert.equal((await raise('after')).status, 201);
  assert.equal((await dash.request('post', '/api/notifications/read-all', { token: TEST_TOKENS.view })).status, 200);
});

test('a notification the disk refuses is a 500 for that call only; the inbox and system notifications go on', async () => {
  await raise('earlier');
  const before = await everything();
  // A nearly full disk: no state file may grow by more than 1000 bytes.
  const largest = Math.max(...readdirSync(dash.dataDir).map((name) => statSync(path.join(dash.dataDir, name)).size));
  await withFileSizeLimit(largest + 1000, async () => {
    const refused = await raise('refused', TEST_TOKENS.print, { blob: 'y'.repeat(4000) });
    expectError(refused, 500, 'ERR_INTERNAL');
    assert.equal((await dash.request('get', '/api/health')).status, 200);
    assert.deepEqual(await everything(), before);
    await systemNotificationLands(dash);
    assert.equal((await raise('small')).status, 201);
  });
  const marked = await dash.request('post', `/api/notifications/${before.items[0].id}/read`, { token: TEST_TOKENS.view });
  assert.equal(marked.json.read, true);
});

/** Bytes this process handed to write(2) and friends: files and sockets alike (an upper bound for the disk). */
function bytesWrittenByProcess(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

test('raising into a full inbox writes about one notification, not the whole list', async (t) => {
  // 500 notifications of ~8 KB: a 4 MB list, in the former notifications.json, taken over at start.
  const blob = 'x'.repeat(7900);
  const items = Array.from({ length: 500 }, (_, i) => ({
    id: String(i + 1),
    kind: 'print.finished',
    level: 'info',
    title: `old ${i + 1}`,
    message: '',
    data: { blob },
    created_at: '2024-01-01T00:00:00.000Z',
    read: false,
  }));
  const full = await start({ 'notifications.json': JSON.stringify({ next_id: 501, items }) });
  t.after(() => full.cleanup());
  assert.equal((await everything(full)).items.length, 500);

  const before = bytesWrittenByProcess();
  for (let i = 0; i < 30; i++) {
    const response = await full.request('post', '/api/notifications', {
      token: TEST_TOKENS.print,
      body: { kind: 'x', level: 'info', title: `new ${i}`, message: '', data: { blob } },
    });
    assert.equal(response.status, 201, response.text);
  }
  const perPost = (bytesWrittenByProcess() - before) / 30;
  t.diagnostic(`${(perPost / 1024).toFixed(1)} KB written per post (request, response and log line) into a 4 MB inbox`);
  // The request, the response and the log line are ~8 KB each; rewriting the list would be 4 MB.
  assert.ok(perPost < 64 * 1024, `${perPost} bytes written per post`);
  const after = await everything(full);
  assert.equal(after.items.length, 500);
  assert.equal(after.items[0].title, 'new 29');
  assert.equal(after.items[499].title, 'old 31');
  assert.ok(existsSync(path.join(full.dataDir, 'notifications.json.migrated')));
});
