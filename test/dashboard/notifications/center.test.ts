import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { EventBus } from '../../../appliance/common/event-bus.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import type { DashboardEvents } from '../../../appliance/dashboard/events.js';
import { NotificationCenter } from '../../../appliance/dashboard/notifications/center.js';
import type { Notification } from '../../../appliance/dashboard/notifications/notification.js';
import { webhookChannelType } from '../../../appliance/dashboard/notifications/webhook.js';
import { eventually } from '../../fixtures/eventually.js';
import { withFileSizeLimit } from '../../fixtures/file-size-limit.js';
import { startReceiver } from './receiver.js';

const WAIT = { timeout: 20_000 };
const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function parts() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-center-test-'));
  dirs.push(dir);
  return { stores: new JsonStores(dir, quiet), bus: new EventBus<DashboardEvents>(quiet), log: quiet };
}

test('notify stores the notification, emits it on the bus and sends it to the channels', WAIT, async () => {
  const deps = parts();
  const center = new NotificationCenter({ ...deps, channelTypes: [webhookChannelType({ timeoutMs: 2_000, backoffMs: [] })] });
  const receiver = await startReceiver([204]);
  try {
    await (await center.channels()).create({ type: 'webhook', name: 'hook', url: receiver.url, secret: 'abc' });
    const emitted: Notification[] = [];
    deps.bus.on('notification', (n) => emitted.push(n));

    const stored = await center.notify({
      kind: 'printer.error',
      level: 'error',
      title: 'P1 halted',
      message: 'thermal runaway',
      data: { printer_id: 'p1' },
    });
    assert.deepEqual(emitted, [stored]);
    assert.deepEqual((await center.inbox()).list({ limit: 5 }).items, [stored]);
    const [request] = await receiver.waitFor(1);
    assert.deepEqual(JSON.parse(request.body), { event: 'notification', notification: stored });
    assert.equal(request.headers['x-printyard-signature'], `sha256=${createHmac('sha256', 'abc').update(request.body).digest('hex')}`);

    await eventually('the delivery is recorded', () => center.stats()!.deliveries_ok === 1);
    await center.stop();
    const { inbox_log: inboxLog, ...counts } = center.stats()!;
    assert.deepEqual(counts, { unread: 1, channels: 1, enabled: 1, deliveries_ok: 1, deliveries_failed: 0, deliveries_running: 0 });
    assert.equal(inboxLog.records_appended, 1);
    assert.deepEqual(inboxLog.problems, []);
  } finally {
    await receiver.close();
  }
});

test('a notification raised before anything opened the stores is kept', async () => {
  const deps = parts();
  const center = new NotificationCenter(deps);
  assert.equal(center.stats(), null);
  const [a, b] = await Promise.all([
    center.notify({ kind: 'slicer_service_disconnected', level: 'warning', title: 'Slicer gone', message: '' }),
    center.notify({ kind: 'slicer_service_reconnected', level: 'info', title: 'Slicer back', message: '' }),
  ]);
  assert.deepEqual([a.id, b.id, a.data], ['1', '2', {}]);
  await center.stop();
  const reopened = new NotificationCenter({ ...deps, stores: new JsonStores(deps.stores.dir, quiet) });
  assert.deepEqual(
    (await reopened.inbox()).list({ limit: 5 }).items.map((n) => n.title),
    ['Slicer back', 'Slicer gone'],
  );
  await reopened.stop();
});

test("a feature's data too large or too deep is replaced by the reason; the notification still lands", async () => {
  const deps = parts();
  const center = new NotificationCenter(deps);
  const emitted: Notification[] = [];
  deps.bus.on('notification', (n) => emitted.push(n));
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 30_000; i++) deep = { a: deep };
  const raise = (title: string, data: Record<string, unknown>) => center.notify({ kind: 'printer.error', level: 'error', title, message: '', data });
  const dropped = await Promise.all([raise('deep', deep), raise('large', { blob: 'x'.repeat(62 * 1024) }), raise('bigint', { n: 1n })]);
  assert.deepEqual(
    dropped.map((n) => n.data),
    [
      { data_dropped: 'it must not nest objects and arrays more than 8 levels deep' },
      { data_dropped: 'it must be at most 8 KB as JSON (it is 62.01 KB)' },
      { data_dropped: 'it must be plain JSON (Do not know how to serialize a BigInt)' },
    ],
  );
  assert.deepEqual(emitted, dropped);
  assert.deepEqual(
    (await center.inbox()).list({ limit: 5 }).items.map((n) => n.title),
    ['bigint', 'large', 'deep'],
  );
  await center.stop();
});

test('a notification the disk refuses is neither listed nor sent; system notifications work after', async () => {
  const deps = parts();
  const center = new NotificationCenter(deps);
  const emitted: string[] = [];
  deps.bus.on('notification', (n) => emitted.push(n.title));
  await center.notify({ kind: 'print.finished', level: 'info', title: 'before', message: '' });
  const file = path.join(deps.stores.dir, 'notifications.log');
  await withFileSizeLimit(statSync(file).size + 100, async () => {
    await assert.rejects(center.notify({ kind: 'print.finished', level: 'info', title: 'refused', message: 'x'.repeat(4000) }), { code: 'EFBIG' });
  });
  const system = await center.notify({ kind: 'slicer_service_disconnected', level: 'warning', title: 'Slicer gone', message: '' });
  assert.deepEqual(emitted, ['before', 'Slicer gone']);
  assert.deepEqual(
    (await center.inbox()).list({ limit: 5 }).items.map((n) => n.title),
    ['Slicer gone', 'before'],
  );
  assert.equal(center.stats()!.unread, 2);
  await center.stop();
  const reopened = new NotificationCenter({ ...deps, stores: new JsonStores(deps.stores.dir, quiet) });
  assert.deepEqual(
    (await reopened.inbox()).list({ limit: 5 }).items.map((n) => n.id),
    [system.id, '1'],
  );
  await reopened.stop();
});
