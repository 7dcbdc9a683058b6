import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { startReceiver, type Receiver } from './receiver.js';
import { notificationsFeature } from '../../../appliance/dashboard/features.js';

const WAIT = { timeout: 30_000 };
let dash: DashboardFixture;
const receivers: Receiver[] = [];
before(async () => {
  dash = await startDashboardFixture({ features: [notificationsFeature], createAuthenticator: testAuthenticator });
});
after(async () => {
  await dash.cleanup();
  for (const r of receivers) await r.close();
});

async function receiver(statuses: ReadonlyArray<number | 'hang'>): Promise<Receiver> {
  const r = await startReceiver(statuses);
  receivers.push(r);
  return r;
}

const admin = { token: TEST_TOKENS.admin };
const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

test('channel management is for admins only', async () => {
  for (const token of [TEST_TOKENS.view, TEST_TOKENS.print]) {
    assert.equal((await dash.request('get', '/api/notifications/channels', { token })).status, 403);
    assert.equal(
      (await dash.request('post', '/api/notifications/channels', { token, body: { type: 'webhook', name: 'x', url: 'http://127.0.0.1/' } })).status,
      403,
    );
  }
  assert.equal((await dash.request('get', '/api/notifications/channels')).status, 401);
});

test('a webhook channel is created with its secret redacted, kept on "***", and signs with it', WAIT, async () => {
  const r = await receiver([204]);
  const created = await dash.request('post', '/api/notifications/channels', {
    ...admin,
    body: { type: 'webhook', name: 'Farm hook', url: r.url, secret: 'hunter2' },
  });
  assert.equal(created.status, 201);
  assert.deepEqual([created.json.secret, created.json.secret_set, created.json.enabled, created.json.kinds], ['***', true, true, null]);
  assert.ok(!created.text.includes('hunter2'));
  const listed = await dash.request('get', '/api/notifications/channels', admin);
  assert.deepEqual(
    listed.json.items.find((c: { id: string }) => c.id === created.json.id),
    created.json,
  );
  assert.ok(!listed.text.includes('hunter2'));

  const renamed = await dash.request('put', `/api/notifications/channels/${created.json.id}`, {
    ...admin,
    body: { name: 'Farm hook 2', secret: '***' },
  });
  assert.equal(renamed.status, 200);
  assert.deepEqual([renamed.json.name, renamed.json.secret_set], ['Farm hook 2', true]);

  const tested = await dash.request('post', `/api/notifications/channels/${created.json.id}/test`, admin);
  assert.equal(tested.status, 200);
  assert.deepEqual(
    { ok: tested.json.ok, attempts: tested.json.attempts, http_status: tested.json.http_status, error: tested.json.error },
    {
      ok: true,
      attempts: 1,
      http_status: 204,
      error: null,
    },
  );
  const [request] = await r.waitFor(1);
  assert.equal(request.headers['x-printyard-signature'], sign('hunter2', request.body));
  const body = JSON.parse(request.body);
  assert.equal(body.event, 'notification');
  assert.equal(body.notification.kind, 'test');

  const after = await dash.request('get', '/api/notifications/channels', admin);
  const channel = after.json.items.find((c: { id: string }) => c.id === created.json.id);
  assert.deepEqual([channel.last_status, channel.last_error, channel.last_delivery_at], ['delivered', null, tested.json.at]);
  const stored = readFileSync(path.join(dash.dataDir, 'notification-channels.json'), 'utf8');
  assert.match(stored, /hunter2/);
});

test('raised notifications go to the channels whose kinds match; 500 is retried; failures are recorded', WAIT, async () => {
  const flaky = await receiver([500, 200]);
  const gone = await receiver([410]);
  const other = await receiver([204]);
  const make = (name: string, url: string, kinds: string[] | null) =>
    dash.request('post', '/api/notifications/channels', { ...admin, body: { type: 'webhook', name, url, kinds } });
  const flakyChannel = (await make('flaky', flaky.url, ['printer.error'])).json;
  const goneChannel = (await make('gone', gone.url, ['printer.error'])).json;
  await make('other', other.url, ['print.finished']);

  const raised = await dash.request('post', '/api/notifications', {
    token: TEST_TOKENS.print,
    body: { kind: 'printer.error', level: 'error', title: 'P2 halted', message: 'MINTEMP' },
  });
  assert.equal(raised.status, 201);
  const [first, second] = await flaky.waitFor(2);
  assert.equal(first.body, second.body);
  assert.deepEqual(JSON.parse(second.body), { event: 'notification', notification: raised.json });
  await gone.waitFor(1);

  const channelState = async (id: string) => {
    for (;;) {
      const list = await dash.request('get', '/api/notifications/channels', admin);
      const c = list.json.items.find((x: { id: string }) => x.id === id);
      if (c.last_status !== null) return c;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  assert.deepEqual((({ last_status, last_error }) => ({ last_status, last_error }))(await channelState(flakyChannel.id)), {
    last_status: 'delivered',
    last_error: null,
  });
  assert.deepEqual((({ last_status, last_error }) => ({ last_status, last_error }))(await channelState(goneChannel.id)), {
    last_status: 'failed',
    last_error: 'HTTP 410',
  });
  assert.equal(other.requests.length, 0);

  const failedTest = await dash.request('post', `/api/notifications/channels/${goneChannel.id}/test`, admin);
  assert.deepEqual(
    { ok: failedTest.json.ok, http_status: failedTest.json.http_status, error: failedTest.json.error },
    { ok: false, http_status: 410, error: 'HTTP 410' },
  );
});

test('bad channel bodies are 400 naming the field; duplicates 409; unknown ids 404', async () => {
  const post = (body: unknown) => dash.request('post', '/api/notifications/channels', { ...admin, body });
  const cases: Array<[unknown, string]> = [
    [{ type: 'webhook', name: 'x', url: 'ftp://127.0.0.1/' }, 'body/url'],
    [{ type: 'webhook', name: 'x', url: 'not a url' }, 'body/url'],
    [{ type: 'webhook', name: 'x' }, 'body/url'],
    [{ type: 'webhook', name: 'x', url: 'http://127.0.0.1/', token: 'y' }, 'body/token'],
    [{ type: 'webhook', name: 'x', url: 'http://127.0.0.1/', kinds: ['Not A Kind'] }, 'body/kinds/0'],
    [{ type: 'webhook', name: 'x', url: 'http://127.0.0.1/', secret: '***' }, 'body/secret'],
  ];
  for (const [body, field] of cases) {
    const response = await post(body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal(response.json.code, 'ERR_VALIDATION');
    assert.ok(
      response.json.details.some((d: { path: string }) => d.path === field),
      `${JSON.stringify(body)}: ${response.text}`,
    );
  }
  assert.equal((await post({ type: 'webhook', name: 'Same', url: 'http://127.0.0.1/' })).status, 201);
  const duplicate = await post({ type: 'webhook', name: 'same', url: 'http://127.0.0.1/' });
  assert.deepEqual([duplicate.status, duplicate.json.code], [409, 'ERR_CONFLICT']);
  for (const [method, suffix] of [
    ['put', ''],
    ['delete', ''],
    ['post', '/test'],
  ] as const) {
    const response = await dash.request(method, `/api/notifications/channels/nope${suffix}`, {
      ...admin,
      body: method === 'put' ? { name: 'x' } : undefined,
    });
    assert.deepEqual([response.status, response.json.code], [404, 'ERR_NOT_FOUND'], `${method} ${suffix}`);
  }
});

test('a deleted channel is gone', async () => {
  const { json } = await dash.request('post', '/api/notifications/channels', {
    ...admin,
    body: { type: 'webhook', name: 'temp', url: 'http://127.0.0.1/' },
  });
  assert.equal((await dash.request('delete', `/api/notifications/channels/${json.id}`, admin)).status, 204);
  const list = await dash.request('get', '/api/notifications/channels', admin);
  assert.ok(!list.json.items.some((c: { id: string }) => c.id === json.id));
});
