import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { Inbox, type InboxOptions } from '../../../appliance/dashboard/notifications/inbox.js';
import type { Notification, NotificationInput } from '../../../appliance/dashboard/notifications/notification.js';
import { withFileSizeLimit } from '../../fixtures/file-size-limit.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const dirs: string[] = [];
const inboxes: Inbox[] = [];
after(async () => {
  await Promise.all(inboxes.map((inbox) => inbox.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-inbox-test-'));
  dirs.push(dir);
  return dir;
}

async function openInbox(dir: string, options: Partial<InboxOptions> = {}, stores = new JsonStores(dir, quiet)): Promise<Inbox> {
  const inbox = await Inbox.open(stores, { log: quiet, ...options });
  inboxes.push(inbox);
  return inbox;
}

const input = (n: number, data: Record<string, unknown> = { n }): NotificationInput => ({
  kind: 'print.finished',
  level: 'info',
  title: `t${n}`,
  message: `m${n}`,
  data,
});

async function filled(count: number, capacity?: number): Promise<{ inbox: Inbox; dir: string }> {
  const dir = tempDir();
  const inbox = await openInbox(dir, { capacity });
  for (let i = 1; i <= count; i++) await inbox.add(input(i), new Date(Date.UTC(2024, 0, 1, 0, 0, i)));
  return { inbox, dir };
}

const ids = (inbox: Inbox) => inbox.list({ limit: 1000 }).items.map((n) => n.id);

test('added notifications are unread, listed newest first with increasing ids, and on disk', async () => {
  const { inbox, dir } = await filled(3);
  const page = inbox.list({ limit: 10 });
  assert.deepEqual(
    page.items.map((n) => n.id),
    ['3', '2', '1'],
  );
  assert.deepEqual(page.items[2], {
    id: '1',
    kind: 'print.finished',
    level: 'info',
    title: 't1',
    message: 'm1',
    data: { n: 1 },
    created_at: '2024-01-01T00:00:01.000Z',
    read: false,
  });
  assert.equal(page.unread_count, 3);
  assert.equal(page.next_before, null);
  await inbox.close();
  const reopened = await openInbox(dir);
  assert.deepEqual(reopened.list({ limit: 10 }), page);
  assert.equal((await reopened.add(input(4), new Date())).id, '4');
});

test('pages follow next_before to the end; unread-only pages skip read ones', async () => {
  const { inbox } = await filled(7);
  const first = inbox.list({ limit: 3 });
  assert.deepEqual(
    first.items.map((n) => n.id),
    ['7', '6', '5'],
  );
  assert.equal(first.next_before, '5');
  const second = inbox.list({ limit: 3, before: 5 });
  assert.deepEqual(
    second.items.map((n) => n.id),
    ['4', '3', '2'],
  );
  const third = inbox.list({ limit: 3, before: Number(second.next_before) });
  assert.deepEqual(
    third.items.map((n) => n.id),
    ['1'],
  );
  assert.equal(third.next_before, null);

  await inbox.markRead('6');
  await inbox.markRead('2');
  const unread = inbox.list({ limit: 10, unreadOnly: true });
  assert.deepEqual(
    unread.items.map((n) => n.id),
    ['7', '5', '4', '3', '1'],
  );
  assert.equal(unread.unread_count, 5);
});

test('mark read, mark all read, delete: each one line in the log, replayed at open; unknown ids are 404', async () => {
  const { inbox, dir } = await filled(3);
  assert.equal((await inbox.markRead('2')).read, true);
  assert.equal(inbox.unreadCount(), 2);
  assert.equal(await inbox.markAllRead(), 2);
  assert.equal(await inbox.markAllRead(), 0);
  await inbox.remove('1');
  assert.deepEqual(
    inbox.list({ limit: 10 }).items.map((n) => [n.id, n.read]),
    [
      ['3', true],
      ['2', true],
    ],
  );
  await assert.rejects(inbox.markRead('1'), { code: 'ERR_NOT_FOUND', status: 404 });
  await assert.rejects(inbox.remove('99'), { code: 'ERR_NOT_FOUND', status: 404 });
  const lines = readFileSync(path.join(dir, 'notifications.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(lines.slice(-3), [
    { op: 'read', id: '2' },
    { op: 'read_all', through: '3' },
    { op: 'delete', id: '1' },
  ]);
  await inbox.close();
  const reopened = await openInbox(dir);
  assert.deepEqual(
    reopened.list({ limit: 10 }).items.map((n) => [n.id, n.read]),
    [
      ['3', true],
      ['2', true],
    ],
  );
});

test('only the newest notifications up to the capacity are kept; ids never repeat, across compactions too', async () => {
  const { inbox, dir } = await filled(5, 3);
  assert.deepEqual(ids(inbox), ['5', '4', '3']);
  await inbox.remove('5');
  assert.equal((await inbox.add(input(6), new Date())).id, '6');
  await inbox.remove('6');
  await inbox.close();
  // A tiny threshold: the log is compacted at open, without the deleted newest ids.
  const compacted = await openInbox(dir, { capacity: 3, compactMinBytes: 1 });
  assert.ok(compacted.stats().compactions >= 1);
  assert.deepEqual(ids(compacted), ['4', '3']);
  assert.equal((await compacted.add(input(7), new Date())).id, '7');
});

test('a change the disk refuses leaves the list as it was, and later changes work', async () => {
  const { inbox, dir } = await filled(3);
  const file = path.join(dir, 'notifications.log');
  const before = inbox.list({ limit: 10 });
  await withFileSizeLimit(statSync(file).size + 100, async () => {
    await assert.rejects(inbox.add(input(4, { blob: 'x'.repeat(4000) }), new Date()), { code: 'EFBIG' });
    assert.deepEqual(inbox.list({ limit: 10 }), before);
  });
  // The log has room for exactly nothing more: every kind of change fails and changes nothing.
  await withFileSizeLimit(statSync(file).size, async () => {
    await assert.rejects(inbox.markRead('1'), { code: 'EFBIG' });
    await assert.rejects(inbox.markAllRead(), { code: 'EFBIG' });
    await assert.rejects(inbox.remove('2'), { code: 'EFBIG' });
    assert.deepEqual(inbox.list({ limit: 10 }), before);
  });
  const added = await inbox.add(input(5), new Date());
  assert.equal(added.id, '5', 'the id of the failed one is not given again');
  assert.equal((await inbox.markRead('1')).read, true);
  await inbox.remove('2');
  assert.deepEqual(ids(inbox), ['5', '3', '1']);
  await inbox.close();
  const reopened = await openInbox(dir);
  assert.deepEqual(reopened.problems(), []);
  assert.deepEqual(
    reopened.list({ limit: 10 }).items.map((n) => [n.id, n.read]),
    [
      ['5', false],
      ['3', false],
      ['1', true],
    ],
  );
});

test('adding to a full inbox writes about one notification, not the whole list', async () => {
  const { inbox } = await filled(0, 100);
  const data = { blob: 'x'.repeat(8000) };
  for (let i = 1; i <= 100; i++) await inbox.add(input(i, data), new Date());
  const before = inbox.stats().bytes_written;
  for (let i = 101; i <= 150; i++) await inbox.add(input(i, data), new Date());
  const perAdd = (inbox.stats().bytes_written - before) / 50;
  // One line is ~8.2 KB; the list is ~820 KB. Compactions add about one line's worth per add.
  assert.ok(perAdd < 3 * 8200, `${perAdd.toFixed(0)} bytes written per notification`);
});

test('an existing notifications.json is taken over on first start and renamed .migrated', async () => {
  const dir = tempDir();
  const items: Notification[] = [1, 2, 3].map((n) => ({
    id: String(n * 10),
    kind: 'print.finished',
    level: 'info',
    title: `old ${n}`,
    message: '',
    data: { n },
    created_at: '2024-01-01T00:00:00.000Z',
    read: n === 1,
  }));
  writeFileSync(path.join(dir, 'notifications.json'), JSON.stringify({ next_id: 42, items: [...items, { id: 'bad' }] }));
  const inbox = await openInbox(dir);
  assert.deepEqual(inbox.list({ limit: 10 }).items, [...items].reverse());
  assert.equal(inbox.unreadCount(), 2);
  assert.deepEqual(readdirSync(dir).sort(), ['notifications.json.migrated', 'notifications.log']);
  assert.equal((await inbox.add(input(4), new Date())).id, '42');
  await inbox.close();

  // A crash after the log was written but before the rename: the log wins, nothing is imported twice.
  writeFileSync(path.join(dir, 'notifications.json'), JSON.stringify({ next_id: 99, items }));
  const again = await openInbox(dir);
  assert.deepEqual(ids(again), ['42', '30', '20', '10']);
  assert.deepEqual(readdirSync(dir).sort(), ['notifications.json.migrated', 'notifications.log']);
});

test('a corrupt notifications.json is moved aside, reported, and the inbox starts empty', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'notifications.json'), '{"next_id": "x"');
  const stores = new JsonStores(dir, quiet);
  const inbox = await openInbox(dir, {}, stores);
  assert.deepEqual(inbox.list({ limit: 5 }), { items: [], unread_count: 0, next_before: null });
  assert.equal(stores.problems().length, 1);
  assert.ok(readdirSync(dir).some((f) => f.startsWith('notifications.json.corrupt-')));
});

test('a torn last line of the log is dropped and reported; every other notification is kept', async () => {
  const { inbox, dir } = await filled(3);
  await inbox.close();
  const file = path.join(dir, 'notifications.log');
  writeFileSync(file, `${readFileSync(file, 'utf8')}{"op":"add","notification":{"id":"4","ki`);
  const reopened = await openInbox(dir);
  assert.deepEqual(ids(reopened), ['3', '2', '1']);
  assert.match(reopened.problems()[0]!.reason, /incomplete/);
  assert.equal((await reopened.add(input(4), new Date())).id, '4');
});
