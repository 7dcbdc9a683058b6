import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { ChannelRegistry } from '../../../appliance/dashboard/notifications/channels.js';
import type { Notification } from '../../../appliance/dashboard/notifications/notification.js';
import { webhookChannelType } from '../../../appliance/dashboard/notifications/webhook.js';
import { startReceiver, type Receiver } from './receiver.js';

const WAIT = { timeout: 20_000 };
const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const NOW = new Date('2024-05-01T10:00:00.000Z');

async function registry(backoffMs: number[] = [10, 10]): Promise<{ channels: ChannelRegistry; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-channels-test-'));
  const channels = await ChannelRegistry.open(new JsonStores(dir, quiet), [webhookChannelType({ timeoutMs: 2_000, backoffMs })], quiet, () => NOW);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => channels.stop());
  return { channels, dir };
}

async function receiver(statuses: ReadonlyArray<number | 'hang'> = [204]): Promise<Receiver> {
  const r = await startReceiver(statuses);
  cleanups.push(() => r.close());
  return r;
}

function notification(kind: string, id = '1'): Notification {
  return { id, kind, level: 'info', title: kind, message: '', data: {}, created_at: NOW.toISOString(), read: false };
}

test('a new channel is shown flat with its secret redacted, and stored with the secret', async () => {
  const { channels, dir } = await registry();
  const created = await channels.create({
    type: 'webhook',
    name: 'Farm bot',
    url: 'https://hooks.example/a',
    secret: 'k1',
    kinds: ['print.finished'],
  });
  assert.deepEqual(created, {
    id: created.id,
    type: 'webhook',
    name: 'Farm bot',
    enabled: true,
    kinds: ['print.finished'],
    url: 'https://hooks.example/a',
    secret: '***',
    secret_set: true,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    last_status: null,
    last_error: null,
    last_delivery_at: null,
  });
  assert.deepEqual(channels.list(), [created]);
  assert.deepEqual(channels.get(String(created.id)), created);
  const stored = JSON.parse(readFileSync(path.join(dir, 'notification-channels.json'), 'utf8'));
  assert.deepEqual(stored.channels[0].settings, { url: 'https://hooks.example/a', secret: 'k1' });
  const plain = await channels.create({ type: 'webhook', name: 'Plain', url: 'http://10.0.0.2/x' });
  assert.deepEqual([plain.secret, plain.secret_set, plain.kinds], [null, false, null]);
});

test('updates change what is given: "***" keeps the secret, null removes it; type cannot change', async () => {
  const { channels, dir } = await registry();
  const { id } = await channels.create({ type: 'webhook', name: 'A', url: 'https://hooks.example/a', secret: 'k1' });
  const kept = await channels.update(String(id), { secret: '***', enabled: false, url: 'https://hooks.example/b' });
  assert.deepEqual([kept.enabled, kept.url, kept.secret, kept.secret_set], [false, 'https://hooks.example/b', '***', true]);
  const storedSecret = () => JSON.parse(readFileSync(path.join(dir, 'notification-channels.json'), 'utf8')).channels[0].settings.secret;
  assert.equal(storedSecret(), 'k1');
  await channels.update(String(id), { secret: 'k2' });
  assert.equal(storedSecret(), 'k2');
  const cleared = await channels.update(String(id), { secret: null });
  assert.deepEqual([cleared.secret, cleared.secret_set], [null, false]);
  assert.equal(storedSecret(), undefined);
  await channels.update(String(id), { secret: 'k3' });
  assert.equal((await channels.update(String(id), { secret: '' })).secret_set, false);
  assert.equal(storedSecret(), undefined);
  await assert.rejects(channels.update(String(id), { type: 'telegram' }), { code: 'ERR_VALIDATION', status: 400 });
  await assert.rejects(channels.update('nope', { name: 'x' }), { code: 'ERR_NOT_FOUND', status: 404 });
});

test('bad settings and duplicate names are refused with the field named', async () => {
  const { channels } = await registry();
  await assert.rejects(channels.create({ type: 'webhook', name: 'A', url: 'file:///etc/passwd' }), {
    status: 400,
    details: [{ path: 'body/url', message: 'must be an http or https URL' }],
  });
  await assert.rejects(channels.create({ type: 'webhook', name: 'A' }), { status: 400, details: [{ path: 'body/url', message: 'is required' }] });
  await assert.rejects(channels.create({ type: 'webhook', name: 'A', url: 'https://x.example', secret: '***' }), {
    status: 400,
    details: [{ path: 'body/secret', message: '"***" stands for a stored secret; a new channel has none' }],
  });
  await assert.rejects(channels.create({ type: 'pigeon', name: 'A', url: 'https://x.example' }), {
    status: 400,
    details: [{ path: 'body/type', message: 'must be one of webhook' }],
  });
  const a = await channels.create({ type: 'webhook', name: 'Alerts', url: 'https://x.example' });
  await assert.rejects(channels.create({ type: 'webhook', name: 'alerts', url: 'https://y.example' }), { code: 'ERR_CONFLICT', status: 409 });
  const b = await channels.create({ type: 'webhook', name: 'Other', url: 'https://y.example' });
  await assert.rejects(channels.update(String(b.id), { name: 'ALERTS' }), { status: 409 });
  assert.equal((await channels.update(String(a.id), { name: 'Alerts' })).name, 'Alerts');
  assert.equal(channels.list().length, 2);
});

test('dispatch reaches enabled channels whose kinds match, and records each outcome', WAIT, async () => {
  const { channels } = await registry();
  const all = await receiver([204]);
  const onlyErrors = await receiver([204]);
  const disabled = await receiver([204]);
  const broken = await receiver([500]);
  const a = await channels.create({ type: 'webhook', name: 'all', url: all.url });
  await channels.create({ type: 'webhook', name: 'errors', url: onlyErrors.url, kinds: ['printer.error'] });
  await channels.create({ type: 'webhook', name: 'off', url: disabled.url, enabled: false });
  const b = await channels.create({ type: 'webhook', name: 'broken', url: broken.url });

  const results = await channels.dispatch(notification('print.finished'));
  assert.deepEqual(
    results.map((r) => [r.ok, r.attempts]),
    [
      [true, 1],
      [false, 3],
    ],
  );
  assert.equal(all.requests.length, 1);
  assert.equal(onlyErrors.requests.length, 0);
  assert.equal(disabled.requests.length, 0);
  assert.equal(broken.requests.length, 3);
  assert.deepEqual([channels.get(String(a.id)).last_status, channels.get(String(a.id)).last_error], ['delivered', null]);
  const failed = channels.get(String(b.id));
  assert.deepEqual([failed.last_status, failed.last_error], ['failed', 'HTTP 500']);
  assert.equal(failed.last_delivery_at, results[1].at);

  await channels.dispatch(notification('printer.error', '2'));
  assert.equal(onlyErrors.requests.length, 1);
  assert.deepEqual(channels.stats(), { channels: 4, enabled: 3, deliveries_ok: 3, deliveries_failed: 2, deliveries_running: 0 });
});

test('a test delivery reaches a disabled channel and returns the result', WAIT, async () => {
  const { channels } = await registry();
  const r = await receiver([202]);
  const { id } = await channels.create({ type: 'webhook', name: 'off', url: r.url, enabled: false });
  const result = await channels.test(String(id), notification('test'));
  assert.deepEqual({ ok: result.ok, http_status: result.http_status, attempts: result.attempts }, { ok: true, http_status: 202, attempts: 1 });
  assert.equal(channels.get(String(id)).last_status, 'delivered');
  await assert.rejects(channels.test('nope', notification('test')), { status: 404 });
});

test('a delivery finishing after its channel was deleted records nothing and throws nowhere', WAIT, async () => {
  const { channels } = await registry();
  const r = await receiver([500]);
  const { id } = await channels.create({ type: 'webhook', name: 'gone', url: r.url });
  const delivery = channels.test(String(id), notification('test'));
  await r.waitFor(1);
  await channels.remove(String(id));
  assert.equal((await delivery).ok, false);
  assert.deepEqual(channels.list(), []);
});

test('stop abandons retries that are waiting', WAIT, async () => {
  const { channels } = await registry([60_000]);
  const r = await receiver([500]);
  await channels.create({ type: 'webhook', name: 'slow', url: r.url });
  void channels.dispatch(notification('print.finished'));
  await r.waitFor(1);
  await channels.stop();
  assert.equal(channels.stats().deliveries_running, 0);
  assert.equal(channels.list()[0].last_status, 'failed');
});
