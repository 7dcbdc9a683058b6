/**
 * The in-app list of notifications: the newest few hundred, kept in `notifications.json`, with a
 * read flag. Ids are increasing integers (as strings), so `before=<id>` pages stay stable while
 * new notifications arrive or old ones are deleted.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import type { Notification, NotificationInput } from './notification.js';

/** Older notifications fall off the end beyond this many. */
export const INBOX_CAPACITY = 500;
export const STORE_NAME = 'notifications';

interface InboxData {
  next_id: number;
  /** Oldest first. */
  items: Notification[];
}

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

function checkShape(data: unknown): string | null {
  const d = data as Partial<InboxData> | null;
  if (typeof d !== 'object' || d === null) return 'not an object';
  if (!Number.isInteger(d.next_id) || (d.next_id as number) < 1) return 'next_id is not a positive integer';
  if (!Array.isArray(d.items)) return 'items is not a list';
  return null;
}

export class Inbox {
  private constructor(
    private readonly store: JsonStore<InboxData>,
    private readonly capacity: number,
  ) {}

  static async open(stores: JsonStores, capacity = INBOX_CAPACITY): Promise<Inbox> {
    return new Inbox(await stores.open<InboxData>(STORE_NAME, { next_id: 1, items: [] }, checkShape), capacity);
  }

  /** Adds at once (list and unread count see it); `saved` resolves when it is on disk. */
  add(input: NotificationInput, now: Date): { notification: Notification; saved: Promise<void> } {
    const data = this.store.data;
    const notification: Notification = {
      id: String(data.next_id),
      kind: input.kind,
      level: input.level,
      title: input.title,
      message: input.message,
      data: input.data ?? {},
      created_at: now.toISOString(),
      read: false,
    };
    data.next_id++;
    data.items.push(notification);
    if (data.items.length > this.capacity) data.items.splice(0, data.items.length - this.capacity);
    return { notification, saved: this.store.write() };
  }

  list(query: InboxQuery): InboxPage {
    const items: Notification[] = [];
    let more = false;
    const all = this.store.data.items;
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
    for (const n of this.store.data.items) if (!n.read) count++;
    return count;
  }

  async markRead(id: string): Promise<Notification> {
    const n = this.find(id);
    if (!n.read) {
      n.read = true;
      await this.store.write();
    }
    return n;
  }

  /** Returns how many were unread. */
  async markAllRead(): Promise<number> {
    let changed = 0;
    for (const n of this.store.data.items) {
      if (!n.read) {
        n.read = true;
        changed++;
      }
    }
    if (changed > 0) await this.store.write();
    return changed;
  }

  async remove(id: string): Promise<void> {
    const items = this.store.data.items;
    const index = items.indexOf(this.find(id));
    items.splice(index, 1);
    await this.store.write();
  }

  private find(id: string): Notification {
    const n = this.store.data.items.find((item) => item.id === id);
    if (!n) throw new AppError(ErrorCode.notFound, 404, `no notification ${id}`);
    return n;
  }
}
