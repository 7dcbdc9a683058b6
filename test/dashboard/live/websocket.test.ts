import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import WebSocket from 'ws';
import { EventBus } from '../../../appliance/common/event-bus.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { packageVersion } from '../../../appliance/common/version.js';
import type { DashboardEvents } from '../../../appliance/dashboard/events.js';
import type { Authenticator, Principal } from '../../../appliance/dashboard/http/route.js';
import { DEFAULT_HUB_OPTIONS, LiveHub, type LiveHubOptions } from '../../../appliance/dashboard/live/hub.js';
import { EVENT_TYPES } from '../../../appliance/dashboard/live/protocol.js';
import { installLiveSocket } from '../../../appliance/dashboard/live/websocket.js';
import type { Notification } from '../../../appliance/dashboard/notifications/notification.js';
import { startApp } from '../../fixtures/http-app.js';
import { connect, silentPeer, wsUrl, type TestClient } from './ws-client.js';

/** Tokens the test hands out; revoking one makes it fail from then on, as logout does. */
class TokenTable implements Authenticator {
  private readonly principals = new Map<string, Principal>();
  private gate: Promise<void> = Promise.resolve();

  grant(token: string, principal: Partial<Principal> = {}): void {
    this.principals.set(token, { kind: 'user', id: token, name: `user-${token}`, role: 'view', ...principal });
  }

  revoke(token: string): void {
    this.principals.delete(token);
  }

  /** Until released, every check waits (a slow authenticator). */
  hold(): { release(): void } {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return { release };
  }

  async authenticate(headers: Readonly<Record<string, string | undefined>>): Promise<Principal | null> {
    const bearer = /^Bearer (\S+)$/i.exec(headers.authorization ?? '');
    const token = bearer ? bearer[1] : headers['x-api-key'];
    return token ? this.authenticateToken(token) : null;
  }

  async authenticateToken(token: string): Promise<Principal | null> {
    await this.gate;
    return this.principals.get(token) ?? null;
  }
}

/** A test that waits for a close or a message fails after this instead of hanging the run. */
const WAIT = { timeout: 20_000 };
const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const opened: Array<{ close(): void; hub: LiveHub }> = [];
const clients: TestClient[] = [];

after(() => {
  for (const c of clients) c.ws.terminate();
  for (const live of opened) {
    live.hub.stop();
    live.close();
  }
});

async function startLive(options: Partial<LiveHubOptions> = {}) {
  const auth = new TokenTable();
  auth.grant('view-token');
  const bus = new EventBus<DashboardEvents>(quiet);
  const hub = new LiveHub(auth, quiet, { ...DEFAULT_HUB_OPTIONS, ...options });
  bus.onAny((type, payload) => hub.broadcast(type, payload));
  const app = await startApp((server) => installLiveSocket(server, hub, auth));
  hub.start();
  const live = { ...app, hub, bus, auth };
  opened.push(live);
  const open = (query = '?token=view-token', headers: Record<string, string> = {}): TestClient => {
    const client = connect(wsUrl(app.url, query), headers);
    clients.push(client);
    return client;
  };
  return { ...live, open };
}

function notification(seq: number, message = 'done'): Notification {
  return {
    id: String(seq),
    kind: 'print.finished',
    level: 'info',
    title: `print ${seq}`,
    message,
    data: { seq },
    created_at: new Date(0).toISOString(),
    read: false,
  };
}

test('a token in the query, in Authorization: Bearer or in the API key header opens the feed with a hello', WAIT, async () => {
  const live = await startLive();
  live.auth.grant('key-1', { kind: 'api_key', name: 'node-red', role: 'print' });
  const byQuery = live.open();
  const byBearer = live.open('', { authorization: 'Bearer view-token' });
  const byApiKey = live.open('', { 'x-api-key': 'key-1' });
  for (const client of [byQuery, byBearer]) {
    assert.deepEqual(await client.next(), {
      type: 'hello',
      payload: {
        version: packageVersion(),
        heartbeat_ms: DEFAULT_HUB_OPTIONS.heartbeatMs,
        types: [...EVENT_TYPES],
        user: 'user-view-token',
        role: 'view',
      },
    });
  }
  const hello = await byApiKey.next();
  assert.equal(hello.type, 'hello');
  assert.equal(hello.payload.user, 'node-red');
  assert.equal(hello.payload.role, 'print');
  assert.equal(live.hub.stats().clients, 3);
});

test('a first auth message opens the feed for clients that cannot send headers', WAIT, async () => {
  const live = await startLive();
  const client = live.open('');
  await client.opened;
  client.send({ type: 'auth', token: 'view-token' });
  assert.equal((await client.next()).type, 'hello');
  live.bus.emit('notification', notification(1));
  assert.deepEqual(await client.next(), { type: 'notification', payload: notification(1) });
});

test('bad credentials close the socket with 4401, whichever way they came; no auth message in time, too', WAIT, async () => {
  const live = await startLive({ authTimeoutMs: 500 });
  const viaUpgrade = [
    live.open('?token=nope'),
    live.open('?token='),
    live.open('', { authorization: 'Bearer nope' }),
    live.open('', { 'x-api-key': 'nope' }),
  ];
  const silent = live.open('');
  const badToken = live.open('');
  const wrongFirst = live.open('');
  await Promise.all([silent.opened, badToken.opened, wrongFirst.opened]);
  badToken.send({ type: 'auth', token: 'nope' });
  wrongFirst.send({ type: 'subscribe', types: null });
  for (const client of [...viaUpgrade, badToken]) assert.deepEqual(await client.closed, { code: 4401, reason: 'invalid or expired token' });
  assert.deepEqual(await wrongFirst.closed, { code: 4401, reason: 'authenticate first: {"type":"auth","token":"…"}' });
  assert.deepEqual(await silent.closed, { code: 4401, reason: 'no credentials in time: send {"type":"auth","token":"…"} first' });
  for (const client of [...viaUpgrade, silent, badToken, wrongFirst]) assert.deepEqual(client.pending(), []);
  assert.equal(live.hub.stats().closed_unauthorized, 7);
  assert.equal(live.hub.stats().messages_sent, 0);
});

test('messages sent before the check is done are handled after the hello, in order', WAIT, async () => {
  const live = await startLive();
  const gate = live.auth.hold();
  const client = live.open();
  await client.opened;
  client.send({ type: 'subscribe', types: ['notification'] });
  client.send({ type: 'subscribe', types: ['ams.update'] });
  gate.release();
  assert.equal((await client.next()).type, 'hello');
  assert.deepEqual(await client.next(), { type: 'subscribed', payload: { types: ['notification'] } });
  assert.deepEqual(await client.next(), { type: 'subscribed', payload: { types: ['ams.update'] } });
});

test('a check that never ends, or a flood before admission, closes the socket', WAIT, async () => {
  const live = await startLive({ authTimeoutMs: 1000 });
  live.auth.hold();
  const stuck = live.open();
  const flooding = live.open();
  await flooding.opened;
  for (let i = 0; i < 17; i++) flooding.send({ type: 'subscribe', types: null });
  assert.deepEqual(await flooding.closed, { code: 1008, reason: 'too many messages before authentication' });
  assert.deepEqual(await stuck.closed, { code: 4401, reason: 'authentication took too long' });
});

test('every bus event reaches every client as {type, payload}, in order', WAIT, async () => {
  const live = await startLive();
  const a = live.open();
  const b = live.open('', { authorization: 'Bearer view-token' });
  await Promise.all([a.nextOfType('hello'), b.nextOfType('hello')]);
  const status = {
    printer_id: 'p1',
    state: 'printing',
    online: true,
    temperatures: { bed: { actual: 60, target: 60 } },
    job: null,
    fans: {},
    error: null,
    updated_at: new Date(0).toISOString(),
  } as const;
  live.bus.emit('printer.status', status);
  live.bus.emit('notification', notification(7));
  for (const client of [a, b]) {
    assert.deepEqual(await client.next(), { type: 'printer.status', payload: status });
    assert.deepEqual(await client.next(), { type: 'notification', payload: notification(7) });
  }
  assert.equal(live.hub.stats().messages_sent, 2 /* hellos */ + 4);
});

test('subscribe narrows the feed; null restores it; bad messages get an error and the feed stays', WAIT, async () => {
  const live = await startLive();
  const client = live.open();
  await client.nextOfType('hello');
  client.send({ type: 'subscribe', types: ['notification', 'notification'] });
  assert.deepEqual(await client.next(), { type: 'subscribed', payload: { types: ['notification'] } });
  live.bus.emit('ams.update', { printer_id: 'p1', units: [], updated_at: new Date(0).toISOString() } as unknown as DashboardEvents['ams.update']);
  live.bus.emit('notification', notification(2));
  assert.deepEqual(await client.next(), { type: 'notification', payload: notification(2) });

  client.send({ type: 'subscribe', types: ['printer.temperature'] });
  assert.deepEqual(await client.next(), {
    type: 'error',
    payload: {
      code: 'ERR_VALIDATION',
      error: `unknown event types ["printer.temperature"]; known: ${EVENT_TYPES.join(', ')}`,
    },
  });
  client.ws.send('not json');
  assert.equal((await client.next()).type, 'error');
  client.send({ type: 'auth', token: 'view-token' });
  assert.deepEqual(await client.next(), { type: 'error', payload: { code: 'ERR_VALIDATION', error: 'already authenticated' } });

  client.send({ type: 'subscribe', types: null });
  assert.deepEqual(await client.next(), {
    type: 'subscribed',
    payload: { types: [...EVENT_TYPES] },
  });
  live.bus.emit('print.progress', {
    printer_id: 'p1',
    file: 'a.gcode',
    progress: 5,
    layer: 1,
    total_layers: 9,
    elapsed_s: 1,
    remaining_s: 9,
    updated_at: new Date(0).toISOString(),
  });
  assert.equal((await client.next()).type, 'print.progress');
});

/** `{"type":"subscribe","types":null}` padded with spaces to exactly `bytes` bytes: a valid message of that size. */
function subscribeOfSize(bytes: number): string {
  const message = JSON.stringify({ type: 'subscribe', types: null });
  return message + ' '.repeat(bytes - message.length);
}

const LIMIT = 16 * 1024;
const allTypes = { type: 'subscribed', payload: { types: [...EVENT_TYPES] } };

test('a message of exactly 16 KiB is read; one byte more is closed with 1009 and a reason; other clients stay', WAIT, async () => {
  const live = await startLive();
  const atLimit = live.open();
  const over = live.open();
  const bystander = live.open();
  await Promise.all([atLimit, over, bystander].map((c) => c.nextOfType('hello')));
  atLimit.ws.send(subscribeOfSize(LIMIT));
  assert.deepEqual(await atLimit.next(), allTypes);
  over.ws.send(subscribeOfSize(LIMIT + 1));
  assert.deepEqual(await over.closed, { code: 1009, reason: `message of ${LIMIT + 1} bytes; the limit is ${LIMIT}` });

  live.bus.emit('notification', notification(4));
  for (const client of [atLimit, bystander])
    assert.deepEqual(await client.nextOfType('notification'), { type: 'notification', payload: notification(4) });
  assert.equal(live.hub.stats().clients, 2);
});

test('the limit counts bytes, not characters, and also applies before authentication', WAIT, async () => {
  const live = await startLive();
  const euros = live.open();
  await euros.nextOfType('hello');
  euros.ws.send('€'.repeat(5462)); // 5462 characters, 16386 bytes
  assert.deepEqual(await euros.closed, { code: 1009, reason: `message of 16386 bytes; the limit is ${LIMIT}` });
  const anonymous = live.open('');
  await anonymous.opened;
  anonymous.ws.send('x'.repeat(LIMIT + 1));
  assert.deepEqual(await anonymous.closed, { code: 1009, reason: `message of ${LIMIT + 1} bytes; the limit is ${LIMIT}` });
});

test('a fragmented message counts whole: 2 × 8 KiB is read, 2 × 10000 bytes is closed with 1009', WAIT, async () => {
  const live = await startLive();
  const fits = live.open();
  const tooBig = live.open();
  await Promise.all([fits.nextOfType('hello'), tooBig.nextOfType('hello')]);
  const whole = subscribeOfSize(LIMIT);
  fits.ws.send(whole.slice(0, LIMIT / 2), { fin: false });
  fits.ws.send(whole.slice(LIMIT / 2), { fin: true });
  assert.deepEqual(await fits.next(), allTypes);
  tooBig.ws.send('x'.repeat(10_000), { fin: false });
  tooBig.ws.send('x'.repeat(10_000), { fin: true });
  assert.deepEqual(await tooBig.closed, { code: 1009, reason: `message of 20000 bytes; the limit is ${LIMIT}` });
});

test("past uWS's own limit (64 KiB) uWS cuts the connection without a close frame (1006), as documented", WAIT, async () => {
  const live = await startLive();
  const huge = live.open();
  const bystander = live.open();
  await Promise.all([huge.nextOfType('hello'), bystander.nextOfType('hello')]);
  huge.ws.send('x'.repeat(64 * 1024 + 1));
  assert.equal((await huge.closed).code, 1006);
  live.bus.emit('notification', notification(5));
  assert.deepEqual(await bystander.nextOfType('notification'), { type: 'notification', payload: notification(5) });
  assert.equal(live.hub.stats().clients, 1);
});

test('a client that stops reading is dropped while the others keep receiving everything', WAIT, async () => {
  const maxBufferedBytes = 256 * 1024;
  const live = await startLive({ maxBufferedBytes });
  const reader = live.open();
  const stalled = live.open();
  await Promise.all([reader.nextOfType('hello'), stalled.nextOfType('hello')]);
  (stalled.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

  const big = 'x'.repeat(128 * 1024);
  let seq = 0;
  // Kernel socket buffers absorb a few MB before uWS holds any backlog; 400 × 128 KB is far beyond that.
  while (live.hub.stats().dropped_slow_clients === 0 && seq < 400) {
    live.bus.emit('notification', notification(seq, big));
    assert.equal((await reader.next()).payload.id, String(seq));
    seq++;
  }
  assert.equal(live.hub.stats().dropped_slow_clients, 1, 'the stalled client was never dropped');
  assert.equal(live.hub.stats().clients, 1);
  live.bus.emit('notification', notification(seq));
  assert.deepEqual(await reader.next(), { type: 'notification', payload: notification(seq) });

  (stalled.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  assert.deepEqual(await stalled.closed, { code: 1013, reason: `too slow: backlog over ${maxBufferedBytes} bytes` });
});

test('a peer that does not answer pings is closed after the heartbeat; live clients stay', WAIT, async () => {
  const live = await startLive({ heartbeatMs: 400 });
  const healthy = live.open();
  await healthy.nextOfType('hello');
  const dead = await silentPeer(live.url, '?token=view-token');
  await dead.ended;
  assert.equal(live.hub.stats().dead_peers_closed, 1);
  assert.equal(healthy.ws.readyState, WebSocket.OPEN);
  live.bus.emit('notification', notification(3));
  assert.deepEqual(await healthy.nextOfType('notification'), { type: 'notification', payload: notification(3) });
  assert.equal(live.hub.stats().clients, 1);
});

test('a revoked token or an expired one is closed with 4401 at the next heartbeat', WAIT, async () => {
  const live = await startLive({ heartbeatMs: 300 });
  live.auth.grant('session-1');
  live.auth.grant('expired', { token_exp: Math.floor(Date.now() / 1000) - 1 });
  const revoked = live.open('?token=session-1');
  const expired = live.open('?token=expired');
  const kept = live.open();
  await Promise.all([revoked.nextOfType('hello'), expired.nextOfType('hello'), kept.nextOfType('hello')]);
  live.auth.revoke('session-1');
  assert.deepEqual(await revoked.closed, { code: 4401, reason: 'token expired or revoked' });
  assert.deepEqual(await expired.closed, { code: 4401, reason: 'token expired' });
  assert.equal(kept.ws.readyState, WebSocket.OPEN);
});

test('stopping the hub closes every client with 1001', WAIT, async () => {
  const live = await startLive();
  const client = live.open();
  await client.nextOfType('hello');
  live.hub.stop();
  assert.deepEqual(await client.closed, { code: 1001, reason: 'server stopping' });
  assert.equal(live.hub.stats().clients, 0);
});
