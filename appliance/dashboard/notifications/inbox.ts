/**
 * The in-app list of notifications: the newest few hundred, with a read flag, kept in
 * `notifications.log` (an append-only log, common/append-log.ts): raising one, marking one read
 * or deleting one appends one line, whatever the size of the list. Every change is on disk before
 * the list shows it; a change that cannot be written leaves the list as it was.
 *
 * Ids are increasing integers (as strings), so `before=<id>` pages stay stable while new
 * notifications arrive or old ones are deleted. An id is taken before its notification is
 * written, so one whose write failed leaves a gap.
 *
 * The list used to be `notifications.json`; the first start with this module takes it over into
 * the log and renames it `notifications.json.migrated`.
 */
import { access, rename } from 'node:fs/promises';
import path from 'node:path';
import { AppendLog, type AppendLogStats } from '../../common/append-log.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import { fsyncPath, type JsonStores, type StoreProblem } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { NOTIFICATION_LEVELS, type Notification, type NotificationInput } from './notification.js';

/** Older notifications fall off the end beyond this many. */
export const INBOX_CAPACITY = 500;
export const LOG_FILE = 'notifications.log';
/** The list's former file, taken over at the first start. */
export const LEGACY_STORE_NAME = 'notifications';
export const MIGRATED_SUFFIX = '.migrated';

interface InboxState {
  /** Above every id ever given, so ids never repeat. */
  next_id: number;
  /** Oldest first. */
  items: Notification[];
}

/** One line of the log. */
type InboxRecord =
  | { op: 'next_id'; next_id: number }
  | { op: 'add'; notification: Notification }
  | { op: 'read'; id: string }
  | { op: 'read_all'; through: string }
  | { op: 'delete'; id: string };

export interface InboxQuery {
  unreadOnly?: boolean;
  limit: number;
  /** Only notifications with a smaller id: the `next_before` of the previous page. */
  before?: number;
}

export interface InboxPage {
  /** Newest first. */
  items: Notification[];
  /** Unread notifications in the whole list, whatever the query. */
  unread_count: number;
  /** The `before` of the next page; null on the last one. */
  next_before: string | null;
}

export interface InboxOptions {
  log: Logger;
  capacity?: number;
  /** Compaction thresholds of the log (see AppendLogOptions); the defaults suit the appliance. */
  compactRatio?: number;
  compactMinBytes?: number;
}

const ID = /^[1-9][0-9]{0,15}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function notificationProblem(n: unknown): string | null {
  if (!isObject(n)) return 'the notification is not an object';
  if (typeof n.id !== 'string' || !ID.test(n.id)) return 'the notification id is not a positive integer';
  for (const key of ['kind', 'title', 'message', 'created_at'] as const) {
    if (typeof n[key] !== 'string') return `the notification's ${key} is not a string`;
  }
  if (!NOTIFICATION_LEVELS.includes(n.level as never)) return 'the notification level is unknown';
  if (!isObject(n.data)) return "the notification's data is not an object";
  if (typeof n.read !== 'boolean') return "the notification's read flag is not a boolean";
  return null;
}

function recordProblem(record: unknown): string | null {
  if (!isObject(record)) return 'not an object';
  switch (record.op) {
    case 'next_id':
      return Number.isSafeInteger(record.next_id) && (record.next_id as number) >= 1 ? null : 'next_id is not a positive integer';
    case 'add':
      return notificationProblem(record.notification);
    case 'read':
    case 'delete':
      return typeof record.id === 'string' && ID.test(record.id) ? null : 'id is not a positive integer';
    case 'read_all':
      return typeof record.through === 'string' && ID.test(record.through) ? null : 'through is not a positive integer';
    default:
      return `unknown op ${JSON.stringify(record.op)}`;
  }
}

function applyRecord(capacity: number) {
  return (state: InboxState, record: InboxRecord): void => {
    switch (record.op) {
      case 'next_id':
        state.next_id = Math.max(state.next_id, record.next_id);
        break;
      case 'add':
        state.items.push(record.notification);
        state.next_id = Math.max(state.next_id, Number(record.notification.id) + 1);
        if (state.items.length > capacity) state.items.splice(0, state.items.length - capacity);
        break;
      case 'read': {
        const n = state.items.find((item) => item.id === record.id);
        if (n) n.read = true;
        break;
      }
      case 'read_all': {
        const through = Number(record.through);
        for (const n of state.items) if (Number(n.id) <= through) n.read = true;
        break;
      }
      case 'delete': {
        const index = state.items.findIndex((item) => item.id === record.id);
        if (index >= 0) state.items.splice(index, 1);
        break;
      }
    }
  };
}

function* snapshot(state: InboxState): Iterable<InboxRecord> {
  yield { op: 'next_id', next_id: state.next_id };
  for (const notification of state.items) yield { op: 'add', notification };
}

function legacyShapeProblem(data: unknown): string | null {
  if (!isObject(data)) return 'not an object';
  if (!Number.isSafeInteger(data.next_id) || (data.next_id as number) < 1) return 'next_id is not a positive integer';
  if (!Array.isArray(data.items)) return 'items is not a list';
  return null;
}

/** The records of a `notifications.json` (one that does not read is moved aside by JsonStores). */
async function legacyRecords(stores: JsonStores, log: Logger): Promise<InboxRecord[]> {
  const legacy = await stores.open<InboxState>(LEGACY_STORE_NAME, { next_id: 1, items: [] }, legacyShapeProblem);
  const records: InboxRecord[] = [{ op: 'next_id', next_id: legacy.data.next_id }];
  let skipped = 0;
  for (const notification of legacy.data.items) {
    if (notificationProblem(notification) === null) records.push({ op: 'add', notification });
    else skipped++;
  }
  if (skipped > 0) log.warn(`${skipped} malformed notifications in ${LEGACY_STORE_NAME}.json were left out when taking it over`);
  return records;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

export class Inbox {
  /** The next id to give; ahead of the stored next_id while adds are being written. */
  private nextId: number;

  private constructor(private readonly log: AppendLog<InboxState, InboxRecord>) {
    this.nextId = log.state.next_id;
  }

  static async open(stores: JsonStores, options: InboxOptions): Promise<Inbox> {
    const capacity = options.capacity ?? INBOX_CAPACITY;
    const legacyFile = path.join(stores.dir, `${LEGACY_STORE_NAME}.json`);
    const log = await AppendLog.open<InboxState, InboxRecord>({
      file: path.join(stores.dir, LOG_FILE),
      empty: () => ({ next_id: 1, items: [] }),
      apply: applyRecord(capacity),
      snapshot,
      check: recordProblem,
      initial: async () => ((await exists(legacyFile)) ? legacyRecords(stores, options.log) : []),
      log: options.log,
      compactRatio: options.compactRatio,
      compactMinBytes: options.compactMinBytes,
    });
    stores.track(log);
    // Also after a crash between writing the log and this rename: the log already holds the list.
    if (await exists(legacyFile)) {
      await rename(legacyFile, legacyFile + MIGRATED_SUFFIX);
      await fsyncPath(stores.dir, 'r');
      options.log.info(`took ${LEGACY_STORE_NAME}.json over into ${LOG_FILE}; the old file is kept as ${LEGACY_STORE_NAME}.json${MIGRATED_SUFFIX}`);
    }
    return new Inbox(log);
  }

  /** Resolves with the notification once it is on disk and in the list. */
  async add(input: NotificationInput, now: Date): Promise<Notification> {
    const notification: Notification = {
      id: String(this.nextId++),
      kind: input.kind,
      level: input.level,
      title: input.title,
      message: input.message,
      data: input.data ?? {},
      created_at: now.toISOString(),
      read: false,
    };
    await this.log.append({ op: 'add', notification });
    return notification;
  }

  list(query: InboxQuery): InboxPage {
    const items: Notification[] = [];
    let more = false;
    const all = this.log.state.items;
    for (let i = all.length - 1; i >= 0; i--) {
      const n = all[i];
      if (query.before !== undefined && Number(n.id) >= query.before) continue;
      if (query.unreadOnly && n.read) continue;
      if (items.length === query.limit) {
        more = true;
        break;
      }
      items.push(n);
    }
    return { items, unread_count: this.unreadCount(), next_before: more ? items[items.length - 1].id : null };
  }

  unreadCount(): number {
    let count = 0;
    for (const n of this.log.state.items) if (!n.read) count++;
    return count;
  }

  async markRead(id: string): Promise<Notification> {
    if (!this.find(id).read) await this.log.append({ op: 'read', id });
    return this.find(id);
  }

  /** Marks every notification listed now; returns how many of them were unread. */
  async markAllRead(): Promise<number> {
    const items = this.log.state.items;
    const unread = items.filter((n) => !n.read).length;
    if (unread > 0) await this.log.append({ op: 'read_all', through: items[items.length - 1].id });
    return unread;
  }

  async remove(id: string): Promise<void> {
    this.find(id);
    await this.log.append({ op: 'delete', id });
  }

  /** Unreadable lines found in the log at open. */
  problems(): readonly StoreProblem[] {
    return this.log.problems();
  }

  stats(): AppendLogStats {
    return this.log.stats();
  }

  /** Lets writes in progress finish and closes the log. */
  close(): Promise<void> {
    return this.log.close();
  }

  private find(id: string): Notification {
    const n = this.log.state.items.find((item) => item.id === id);
    if (!n) throw new AppError(ErrorCode.notFound, 404, `no notification ${id}`);
    return n;
  }
}
