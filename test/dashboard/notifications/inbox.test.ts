import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { Inbox } from '../../../appliance/dashboard/notifications/inbox.js';
import type { NotificationInput } from '../../../appliance/dashboard/notifications/notification.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-inbox-test-'));
  dirs.push(dir);
  return dir;
}

const input = (n: number): NotificationInput => ({ kind: 'print.finished', level: 'info', title: `t${n}`, message: `m${n}`, data: { n } });

async function filled(count: number, capacity?: number): Promise<{ inbox: Inbox; dir: string }> {
  const dir = tempDir();
  const inbox = await Inbox.open(new JsonStores(dir, quiet), capacity);
  for (let i = 1; i <= count; i++) await inbox.add(input(i), new Date(Date.UTC(2024, 0, 1, 0, 0, i))).saved;
  return { inbox, dir };
}

test('added notifications are unread, listed newest first with increasing ids, and on disk', async () => {
  const { inbox, dir } = await filled(3);
  const page = inbox.list({ limit: 10 });
  assert.deepEqual(page.items.map((n) => n.id), ['3', '2', '1']);
  assert.deepEqual(page.items[2], {
    id: '1', kind: 'print.finished', level: 'info', title: 't1', message: 'm1', data: { n: 1 }, created_at: '2024-01-01T00:00:01.000Z', read: false,
  });
  assert.equal(page.unread_count, 3);
  assert.equal(page.next_before, null);
  const reopened = await Inbox.open(new JsonStores(dir, quiet));
  assert.deepEqual(reopened.list({ limit: 10 }), page);
  const added = reopened.add(input(4), new Date());
  await added.saved;
  assert.equal(added.notification.id, '4');
});

test('pages follow next_before to the end; unread-only pages skip read ones', async () => {
  const { inbox } = await filled(7);
  const first = inbox.list({ limit: 3 });
  assert.deepEqual(first.items.map((n) => n.id), ['7', '6', '5']);
  assert.equal(first.next_before, '5');
  const second = inbox.list({ limit: 3, before: 5 });
  assert.deepEqual(second.items.map((n) => n.id), ['4', '3', '2']);
  const third = inbox.list({ limit: 3, before: Number(second.next_before) });
  assert.deepEqual(third.items.map((n) => n.id), ['1']);
  assert.equal(third.next_before, null);

  await inbox.markRead('6');
  await inbox.markRead('2');
  const unread = inbox.list({ limit: 10, unreadOnly: true });
  assert.deepEqual(unread.items.map((n) => n.id), ['7', '5', '4', '3', '1']);
  assert.equal(unread.unread_count, 5);
});

test('mark read, mark all read, delete; unknown ids are 404', async () => {
  const { inbox, dir } = await filled(3);
  assert.equal((await inbox.markRead('2')).read, true);
  assert.equal(inbox.unreadCount(), 2);
  assert.equal(await inbox.markAllRead(), 2);
  assert.equal(await inbox.markAllRead(), 0);
  await inbox.remove('1');
  assert.deepEqual(inbox.list({ limit: 10 }).items.map((n) => [n.id, n.read]), [['3', true], ['2', true]]);
  await assert.rejects(inbox.markRead('1'), { code: 'ERR_NOT_FOUND', status: 404 });
  await assert.rejects(inbox.remove('99'), { code: 'ERR_NOT_FOUND', status: 404 });
  const stored = JSON.parse(readFileSync(path.join(dir, 'notifications.json'), 'utf8'));
  assert.deepEqual(stored.items.map((n: { id: string }) => n.id), ['2', '3']);
});

test('only the newest notifications up to the capacity are kept; ids never repeat', async () => {
  const { inbox } = await filled(5, 3);
  assert.deepEqual(inbox.list({ limit: 10 }).items.map((n) => n.id), ['5', '4', '3']);
  await inbox.remove('5');
  const added = inbox.add(input(6), new Date());
  await added.saved;
  assert.equal(added.notification.id, '6');
});

test('a corrupt list is moved aside and the inbox starts empty', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'notifications.json'), '{"next_id": "x"');
  const stores = new JsonStores(dir, quiet);
  const inbox = await Inbox.open(stores);
  assert.deepEqual(inbox.list({ limit: 5 }), { items: [], unread_count: 0, next_before: null });
  assert.equal(stores.problems().length, 1);
  assert.ok(readdirSync(dir).some((f) => f.startsWith('notifications.json.corrupt-')));
});
