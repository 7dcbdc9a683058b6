import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { test } from 'node:test';
import type { Notification } from '../../../appliance/dashboard/notifications/notification.js';
import { webhookChannelType } from '../../../appliance/dashboard/notifications/webhook.js';
import { startReceiver } from './receiver.js';

const WAIT = { timeout: 20_000 };
const fast = webhookChannelType({ timeoutMs: 2_000, backoffMs: [10, 10] });
const never = new AbortController().signal;

const notification: Notification = {
  id: '12',
  kind: 'print.finished',
  level: 'info',
  title: 'Benchy done',
  message: 'on P1S',
  data: { printer_id: 'p1' },
  created_at: '2024-05-01T10:00:00.000Z',
  read: false,
};

test('delivers the notification as signed JSON: the HMAC of the exact body with the secret', WAIT, async () => {
  const receiver = await startReceiver([204]);
  try {
    const result = await fast.open({ url: receiver.url, secret: 's3cret' }).send(notification, never);
    assert.equal(result.ok, true);
    assert.equal(result.attempts, 1);
    assert.equal(result.http_status, 204);
    assert.equal(result.error, null);
    const [request] = receiver.requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/hook');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['x-printyard-event'], 'notification');
    assert.deepEqual(JSON.parse(request.body), { event: 'notification', notification });
    const expected = createHmac('sha256', 's3cret').update(request.body).digest('hex');
    assert.equal(request.headers['x-printyard-signature'], `sha256=${expected}`);
  } finally {
    await receiver.close();
  }
});

test('without a secret there is no signature header', WAIT, async () => {
  const receiver = await startReceiver([200]);
  try {
    assert.equal((await fast.open({ url: receiver.url }).send(notification, never)).ok, true);
    assert.equal(receiver.requests[0].headers['x-printyard-signature'], undefined);
  } finally {
    await receiver.close();
  }
});

test('5xx answers are retried with the same delivery id until one succeeds', WAIT, async () => {
  const receiver = await startReceiver([500, 503, 200]);
  try {
    const result = await fast.open({ url: receiver.url, secret: 'k' }).send(notification, never);
    assert.deepEqual({ ok: result.ok, attempts: result.attempts, http_status: result.http_status }, { ok: true, attempts: 3, http_status: 200 });
    const ids = new Set(receiver.requests.map((r) => r.headers['x-printyard-delivery']));
    assert.equal(ids.size, 1);
    assert.equal(new Set(receiver.requests.map((r) => r.body)).size, 1);
  } finally {
    await receiver.close();
  }
});

test('three failing tries end in a failed result naming the last status; a 4xx is not retried', WAIT, async () => {
  const failing = await startReceiver([500]);
  const refusing = await startReceiver([403]);
  try {
    const failed = await fast.open({ url: failing.url }).send(notification, never);
    assert.deepEqual(
      { ok: failed.ok, attempts: failed.attempts, http_status: failed.http_status, error: failed.error },
      {
        ok: false,
        attempts: 3,
        http_status: 500,
        error: 'HTTP 500',
      },
    );
    assert.equal(failing.requests.length, 3);
    const refused = await fast.open({ url: refusing.url }).send(notification, never);
    assert.deepEqual({ ok: refused.ok, attempts: refused.attempts, error: refused.error }, { ok: false, attempts: 1, error: 'HTTP 403' });
  } finally {
    await failing.close();
    await refusing.close();
  }
});

test('an unreachable receiver and one that never answers fail with the reason, without throwing', WAIT, async () => {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as net.AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = await fast.open({ url: `http://127.0.0.1:${port}/` }).send(notification, never);
  assert.equal(unreachable.ok, false);
  assert.equal(unreachable.attempts, 3);
  assert.match(unreachable.error ?? '', /ECONNREFUSED/);

  const hanging = await startReceiver(['hang']);
  try {
    const slow = webhookChannelType({ timeoutMs: 100, backoffMs: [] });
    const result = await slow.open({ url: hanging.url }).send(notification, never);
    assert.deepEqual({ ok: result.ok, attempts: result.attempts, error: result.error }, { ok: false, attempts: 1, error: 'no answer within 0.1 s' });
  } finally {
    await hanging.close();
  }
});

test('aborting stops the waiting retries', WAIT, async () => {
  const receiver = await startReceiver([500]);
  try {
    const patient = webhookChannelType({ timeoutMs: 2_000, backoffMs: [60_000, 60_000] });
    const stop = new AbortController();
    const sending = patient.open({ url: receiver.url }).send(notification, stop.signal);
    await receiver.waitFor(1);
    stop.abort();
    const result = await sending;
    assert.deepEqual({ ok: result.ok, attempts: result.attempts }, { ok: false, attempts: 1 });
  } finally {
    await receiver.close();
  }
});

test('redirects are not followed', WAIT, async () => {
  const receiver = await startReceiver([302]);
  try {
    const result = await fast.open({ url: receiver.url }).send(notification, never);
    assert.equal(result.ok, false);
    assert.equal(result.attempts, 1);
    assert.equal(receiver.requests.length, 1);
  } finally {
    await receiver.close();
  }
});

test('settings: only http(s) URLs without credentials', () => {
  assert.deepEqual(fast.check({ url: 'https://hooks.example/x' }), []);
  assert.deepEqual(fast.check({ url: 'ftp://hooks.example/x' }), [{ path: 'url', message: 'must be an http or https URL' }]);
  assert.deepEqual(fast.check({ url: 'https://u:p@hooks.example/x' }), [
    { path: 'url', message: 'must not carry credentials; use the secret to sign deliveries' },
  ]);
  assert.deepEqual(fast.check({ url: 'not a url' }), [{ path: 'url', message: 'must be an absolute URL' }]);
});
