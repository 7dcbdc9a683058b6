import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DISCONNECTED, RECONNECTED } from '../../../../appliance/dashboard/slicing/remote/probe.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { eventually, startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function notificationsOf(dash: DashboardFixture, kind: string): Promise<Array<{ kind: string; message: string; data: Record<string, unknown> }>> {
  const list = await dash.request('get', '/api/notifications?limit=500', { token: TEST_TOKENS.view });
  return list.json.items.filter((n: { kind: string }) => n.kind === kind);
}

const status = async (dash: DashboardFixture, force = true) =>
  (await dash.request('get', `/api/slicer/remote/status${force ? '?force=1' : ''}`, { token: TEST_TOKENS.view })).json;

test('the probe: version, upstream and token checked; transitions notify once each way; the result is cached', async () => {
  let upstream: FakeUpstream = await startFakeUpstream({ token: 'sekret' });
  cleanups.push(() => upstream.close());
  const dash = await startRemoteDashboard({ url: upstream.url, token: 'sekret' });
  cleanups.push(() => dash.cleanup());

  const up = await status(dash);
  assert.deepEqual({ ...up, last_check: typeof up.last_check }, {
    enabled: true, configured: true, url: upstream.url, state: 'reachable', ok: true, version: '9.9.9-fake', api: 1, upstream: 'fake upstream',
    last_check: 'string', error: null, token: '***', token_set: true,
  });
  assert.ok(upstream.requests.length >= 2);
  assert.ok(upstream.requests.every((r) => r.authorization === 'Bearer sekret'), 'the token goes out on every call');

  const port = upstream.port;
  await upstream.close();
  const cached = await status(dash, false);
  assert.equal(cached.ok, true, 'within 60 s the cached result is answered');
  const down = await status(dash);
  assert.deepEqual([down.ok, down.state], [false, 'unreachable']);
  assert.match(down.error, /cannot reach the slicer service at .*ECONNREFUSED/);
  await status(dash);
  const disconnected = await notificationsOf(dash, DISCONNECTED);
  assert.equal(disconnected.length, 1, 'one notification for one transition, however often the probe fails');
  assert.equal(disconnected[0].data.url, upstream.url);
  assert.equal((await notificationsOf(dash, RECONNECTED)).length, 0);

  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.deepEqual([info.json.slicer_service.ok, info.json.slicer_service.state, info.json.slicer_service.enabled], [false, 'unreachable', true]);

  upstream = await startFakeUpstream({ token: 'sekret' }, port);
  cleanups.push(() => upstream.close());
  assert.equal((await status(dash)).ok, true);
  await status(dash);
  assert.equal((await notificationsOf(dash, RECONNECTED)).length, 1);
  assert.equal((await notificationsOf(dash, DISCONNECTED)).length, 1);

  upstream.options.api = 2;
  const incompatible = await status(dash);
  assert.equal(incompatible.ok, false);
  assert.equal(incompatible.api, 2);
  assert.match(incompatible.error, /incompatible slicer service: it speaks API 2, this dashboard speaks API 1/);
  assert.equal((await notificationsOf(dash, DISCONNECTED)).length, 2);
  upstream.options.api = 1;

  const refused = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { token: 'wrong' } });
  assert.equal(refused.status, 200);
  assert.equal(refused.json.ok, false, 'a refused token shows in the probe, not only at the first slice');
  assert.match(refused.json.error, /refused the dashboard's token/);
});

test('a service that is down at start is notified once; disabling hides the status and stops the notifications', async () => {
  const gone = await startFakeUpstream();
  const url = gone.url;
  await gone.close();
  const dash = await startRemoteDashboard({ url });
  cleanups.push(() => dash.cleanup());
  await eventually('the start-up probe', async () => (await notificationsOf(dash, DISCONNECTED)).length === 1);
  await status(dash);
  assert.equal((await notificationsOf(dash, DISCONNECTED)).length, 1);

  const off = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: false } });
  assert.deepEqual([off.json.enabled, off.json.configured, off.json.ok, off.json.state, off.json.last_check], [false, false, null, 'unknown', null]);
  assert.equal((await status(dash)).ok, null, 'no probing while disabled');
  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.deepEqual([info.json.slicer_service.enabled, info.json.slicer_service.configured], [false, false]);

  // Enabled again and still down: a new "first" result, so one new notification.
  await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: true } });
  assert.equal((await status(dash)).ok, false);
  assert.equal((await notificationsOf(dash, DISCONNECTED)).length, 2);
});
