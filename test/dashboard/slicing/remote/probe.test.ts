import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, test } from 'node:test';
import { DISCONNECTED, RECONNECTED } from '../../../../appliance/dashboard/slicing/remote/probe.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { connect, wsUrl } from '../../live/ws-client.js';
import { eventually, startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function notificationsOf(
  dash: DashboardFixture,
  kind: string,
): Promise<Array<{ kind: string; message: string; data: Record<string, unknown> }>> {
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
  assert.deepEqual(
    { ...up, last_check: typeof up.last_check },
    {
      enabled: true,
      configured: true,
      url: upstream.url,
      state: 'reachable',
      ok: true,
      version: '9.9.9-fake',
      api: 1,
      upstream: 'fake upstream',
      last_check: 'string',
      error: null,
      token: '***',
      token_set: true,
    },
  );
  assert.ok(upstream.requests.length >= 2);
  assert.ok(
    upstream.requests.every((r) => r.authorization === 'Bearer sekret'),
    'the token goes out on every call',
  );

  const port = upstream.port;
  await upstream.close();
  const cached = await status(dash, false);
  assert.equal(cached.ok, true, 'within 60 s the cached result is answered');
  const down = await status(dash);
  assert.deepEqual([down.ok, down.state], [false, 'unreachable']);
  assert.equal(down.error, 'the slicer service cannot be reached');
  assert.equal(down.error_detail, undefined, 'the detail is for admins');
  const forAdmin = (await dash.request('get', '/api/slicer/remote/status', { token: TEST_TOKENS.admin })).json;
  assert.match(forAdmin.error_detail, /cannot reach the slicer service at .*ECONNREFUSED/);
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
  assert.equal(
    refused.json.error,
    'the slicer service cannot be reached',
    'this service refuses even its version: from outside, like any other failure',
  );
  assert.match(refused.json.error_detail, /refused the dashboard's token/, 'the admin who configured it reads why');
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

test('view users cannot tell a closed port from a silent one or another HTTP server; admins and the log can', async () => {
  const closed = await startFakeUpstream();
  const closedUrl = closed.url;
  await closed.close();
  const silent = net.createServer((socket) => void held.push(socket));
  const held: net.Socket[] = [];
  const other = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html>not here</html>');
  });
  for (const server of [silent, other]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of held) socket.destroy();
    await Promise.all([silent, other].map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const urlOf = (server: net.Server) => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const dash = await startRemoteDashboard({ url: closedUrl, remote: { timeouts: { probeMs: 300, headersMs: 300 } } });
  cleanups.push(() => dash.cleanup());

  const seen: Array<{ view: string; info: string; proxy: string; detail: string }> = [];
  for (const url of [closedUrl, urlOf(silent), urlOf(other)]) {
    assert.equal((await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { url } })).status, 200);
    const view = await status(dash);
    assert.equal(view.error_detail, undefined);
    const admin = (await dash.request('get', '/api/slicer/remote/status', { token: TEST_TOKENS.admin })).json;
    const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view })).json.slicer_service;
    const proxy = await dash.request('get', '/api/slicer/remote/profiles', { token: TEST_TOKENS.view });
    assert.deepEqual([proxy.status, proxy.json.code], [503, 'ERR_UNAVAILABLE']);
    seen.push({ view: view.error, info: info.error, proxy: proxy.json.error, detail: admin.error_detail });
  }
  for (const { view, info, proxy } of seen) assert.deepEqual([view, info, proxy], Array(3).fill('the slicer service cannot be reached'));
  assert.match(seen[0].detail, /ECONNREFUSED/);
  assert.match(seen[1].detail, /did not answer the version check within 0\.3 s/);
  assert.match(seen[2].detail, /HTTP 404/);
  const texts = (await notificationsOf(dash, DISCONNECTED)).map((n) => `${n.message} ${JSON.stringify(n.data)}`).join('\n');
  assert.doesNotMatch(texts, /ECONNREFUSED|did not answer|HTTP 404/);
  assert.match(dash.logs(), /ECONNREFUSED/, 'the log keeps what happened');
  assert.equal((await dash.request('get', '/api/health')).status, 200);
});

test('the indicator follows live: slicer.status on the WebSocket when it is disabled, enabled, lost and found, not for every probe', async () => {
  let upstream: FakeUpstream = await startFakeUpstream({ token: 'sekret' });
  cleanups.push(() => upstream.close());
  const dash = await startRemoteDashboard({ url: upstream.url, token: 'sekret' });
  cleanups.push(() => dash.cleanup());
  await status(dash);
  const client = connect(wsUrl(dash.url));
  cleanups.push(async () => client.ws.close());
  await client.opened;
  client.send({ type: 'auth', token: TEST_TOKENS.view });
  await client.nextOfType('hello');
  const next = (what: string, match: (payload: Record<string, any>) => boolean) => client.nextMatching('slicer.status', match, what, 10_000);

  await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: false } });
  await next('disabled', (s) => s.enabled === false && s.configured === false && s.state === 'unknown');
  await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: true } });
  await next('reachable again', (s) => s.enabled === true && s.state === 'reachable' && s.ok === true);
  await status(dash);
  await status(dash);
  assert.deepEqual(
    client.pending().filter((m) => m.type === 'slicer.status'),
    [],
    'probes with the same result are not news',
  );
  const port = upstream.port;
  await upstream.close();
  await status(dash);
  const lost = await next('unreachable', (s) => s.state === 'unreachable');
  assert.equal(lost.payload.error, 'the slicer service cannot be reached');
  assert.equal(JSON.stringify(lost.payload).includes('sekret'), false);
  upstream = await startFakeUpstream({ token: 'sekret' }, port);
  cleanups.push(() => upstream.close());
  await status(dash);
  await next('found', (s) => s.state === 'reachable');
});
