/**
 * The person's notifications: the unread count of the header's bell, the toasts of new ones, and
 * marking read. The count is read when the live feed (re)connects (events may have been missed)
 * and follows `notification` events and this person's own marks.
 */
import { signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
import { live } from '../app-live';

export type Notification = Ok<'GET /api/notifications'>['items'][number];

/** A toast stays this long unless it is closed or hovered (an error stays until closed). */
export const TOAST_MS = 8000;
const MAX_TOASTS = 3;

export const unread = signal(0);
export const toasts = signal<Notification[]>([]);
/** Bumped by every new notification, so an open list reloads. */
export const arrivals = signal(0);

export function refreshUnread(): Promise<void> {
  return api('GET /api/notifications', { query: { limit: 1 } }).then(
    (page) => {
      unread.value = page.unread_count;
    },
    () => {},
  );
}

export function dismissToast(id: string): void {
  toasts.value = toasts.value.filter((n) => n.id !== id);
}

export async function markRead(id: string): Promise<void> {
  await api('POST /api/notifications/{id}/read', { path: { id } });
  dismissToast(id);
  await refreshUnread();
}

export async function markAllRead(): Promise<void> {
  await api('POST /api/notifications/read-all');
  toasts.value = [];
  unread.value = 0;
}

live.onOpen(() => void refreshUnread());
live.on('notification', (payload) => {
  const notification = payload as Notification;
  unread.value++;
  arrivals.value++;
  toasts.value = [notification, ...toasts.value.filter((n) => n.id !== notification.id)].slice(0, MAX_TOASTS);
  if (notification.level !== 'error') window.setTimeout(() => dismissToast(notification.id), TOAST_MS);
});
