import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLiveFeature } from '../../../appliance/dashboard/live/feature.js';
import type { PrinterStatus } from '../../../appliance/dashboard/printers/status.js';
import { createApiKey, loginAs } from '../../fixtures/dashboard-auth.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { fakeDrivers } from '../printers/fake-driver.js';
import { marlinInput } from '../printers/sample-printers.js';
import { connect, wsUrl, type TestClient } from './ws-client.js';
import { authFeature, notificationsFeature, printersFeature } from '../../../appliance/dashboard/features.js';

const WAIT = { timeout: 20_000 };
let dash: DashboardFixture;
const clients: TestClient[] = [];
before(async () => {
  dash = await startDashboardFixture({
    features: [notificationsFeature, printersFeature, (ctx) => createLiveFeature(ctx, { heartbeatMs: 60_000 })],
    services: { printers: { drivers: fakeDrivers().registry } },
    createAuthenticator: testAuthenticator,
  });
});
after(async () => {
  for (const c of clients) c.ws.terminate();
  await dash.cleanup();
});

function open(token: string = TEST_TOKENS.view): TestClient {
  const client = connect(wsUrl(dash.url, `?token=${encodeURIComponent(token)}`));
  clients.push(client);
  return client;
}

test('bus events of the running dashboard reach its WebSocket clients', WAIT, async () => {
  const a = open();
  const b = open(TEST_TOKENS.admin);
  assert.equal((await a.next()).payload.role, 'view');
  assert.equal((await b.next()).payload.role, 'admin');
  const status: PrinterStatus = {
    printer_id: 'p1',
    state: 'idle',
    online: true,
    temperatures: {},
    job: null,
    fans: {},
    error: null,
    updated_at: new Date(0).toISOString(),
  };
  dash.server.context.bus.emit('printer.status', status);
  for (const client of [a, b]) assert.deepEqual(await client.next(), { type: 'printer.status', payload: status });
});

test('a notification raised over HTTP is pushed to the WebSocket as stored', WAIT, async () => {
  const client = open();
  await client.nextOfType('hello');
  const raised = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.print,
    body: { kind: 'print.finished', level: 'info', title: 'Benchy done', message: 'P1S' },
  });
  assert.equal(raised.status, 201);
  assert.deepEqual(await client.nextOfType('notification'), { type: 'notification', payload: raised.json });
});

test('bad credentials close the socket with 4401, and a plain GET /ws is not a route', WAIT, async () => {
  const refused = connect(wsUrl(dash.url, '?token=wrong'));
  clients.push(refused);
  assert.deepEqual(await refused.closed, { code: 4401, reason: 'invalid or expired token' });
  const plain = await dash.request('get', '/ws');
  assert.deepEqual([plain.status, plain.json.code], [404, 'ERR_NOT_FOUND']);
});

test('system info carries the hub and notification counters', WAIT, async () => {
  const client = open();
  await client.nextOfType('hello');
  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.equal(info.status, 200);
  const live = info.json.live;
  assert.equal(live.path, '/ws');
  assert.equal(live.heartbeat_ms, 60_000);
  assert.ok(live.clients >= 1);
  assert.ok(live.messages_sent >= 1);
  for (const key of [
    'awaiting_auth',
    'connections_total',
    'dropped_slow_clients',
    'dead_peers_closed',
    'closed_unauthorized',
    'max_buffered_bytes',
  ]) {
    assert.equal(typeof live[key], 'number', key);
  }
  assert.deepEqual(info.json.notifications.channel_types, ['webhook']);
  assert.equal(typeof info.json.notifications.unread, 'number');
});

test(
  'an oversized client message is closed with 1009; the dashboard stays up, other clients keep their feed, printers are intact',
  WAIT,
  async () => {
    const printer = await dash.request('post', '/api/printers', {
      token: TEST_TOKENS.admin,
      body: marlinInput({ connection: { port: '/dev/ttyLIVE' } }),
    });
    assert.equal(printer.status, 201, printer.text);
    const offender = open();
    const bystander = open();
    await Promise.all([offender.nextOfType('hello'), bystander.nextOfType('hello')]);
    offender.ws.send('x'.repeat(16 * 1024 + 1));
    assert.deepEqual(await offender.closed, { code: 1009, reason: 'message of 16385 bytes; the limit is 16384' });

    const raised = await dash.request('post', '/api/notifications', {
      token: TEST_TOKENS.print,
      body: { kind: 'print.finished', level: 'info', title: 'after the big message', message: 'still here' },
    });
    assert.deepEqual(await bystander.nextMatching('notification', (p) => p.id === raised.json.id, 'the notification after the oversized message'), {
      type: 'notification',
      payload: raised.json,
    });
    assert.equal((await dash.request('get', '/api/health')).status, 200);
    const listed = await dash.request('get', `/api/printers/${printer.json.id}`, { token: TEST_TOKENS.view });
    assert.deepEqual([listed.status, listed.json.name, listed.json.connection], [200, printer.json.name, printer.json.connection]);
  },
);

test('stopping the dashboard closes the sockets with 1001', WAIT, async () => {
  const client = open();
  await client.nextOfType('hello');
  await dash.stop();
  assert.equal((await client.closed).code, 1001);
});

describe('with the real auth feature', () => {
  let real: DashboardFixture;
  before(async () => {
    real = await startDashboardFixture({
      features: [authFeature, notificationsFeature, (ctx) => createLiveFeature(ctx, { heartbeatMs: 300 })],
    });
  });
  after(() => real.cleanup());

  function openReal(query: string, headers: Record<string, string> = {}): TestClient {
    const client = connect(wsUrl(real.url, query), headers);
    clients.push(client);
    return client;
  }

  test('session tokens and API keys open the feed; logout and key deletion close it with 4401', WAIT, async () => {
    const token = await loginAs(real, 'view');
    const { key, id } = await createApiKey(real, 'print');
    const bySession = openReal(`?token=${encodeURIComponent(token)}`);
    const byKeyHeader = openReal('', { 'x-api-key': key });
    const byMessage = openReal('');
    await byMessage.opened;
    byMessage.send({ type: 'auth', token: key });
    assert.equal((await bySession.next()).payload.user, 'view-user');
    assert.equal((await byKeyHeader.next()).payload.role, 'print');
    assert.equal((await byMessage.next()).payload.role, 'print');

    assert.equal((await real.request('post', '/api/auth/logout', { token })).status, 204);
    assert.deepEqual(await bySession.closed, { code: 4401, reason: 'token expired or revoked' });
    assert.equal((await openReal(`?token=${encodeURIComponent(token)}`).closed).code, 4401);

    assert.equal((await real.request('delete', `/api/api-keys/${id}`, { token: await loginAs(real, 'admin') })).status, 204);
    assert.equal((await byKeyHeader.closed).code, 4401);
    assert.equal((await byMessage.closed).code, 4401);
  });
});
