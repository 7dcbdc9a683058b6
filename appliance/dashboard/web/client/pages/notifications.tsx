/**
 * The notification list: newest first, a page at a time (`next_before`), all or unread only (kept
 * in the URL as `?unread=1`); mark one or all read; delete (print and admin: it changes what
 * everyone sees). New notifications arriving while the page is open reload the first page.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, reason } from '../api/client';
import { can } from '../api/session';
import { arrivals, markAllRead, markRead, refreshUnread, unread, type Notification } from '../notifications/store';
import { location, navigate } from '../router';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

const PAGE = 25;

function when(iso: string): string {
  return new Date(iso).toLocaleString();
}

export function NotificationsPage() {
  const unreadOnly = location.value.query.get('unread') === '1';
  const items = useSignal<Notification[]>([]);
  const nextBefore = useSignal<string | null>(null);
  const loaded = useSignal(false);
  const problem = useSignal<string | null>(null);

  const load = async (before: string | null) => {
    try {
      const page = await api('GET /api/notifications', { query: { limit: PAGE, unread: unreadOnly ? '1' : undefined, before: before ?? undefined } });
      items.value = before === null ? page.items : [...items.value, ...page.items];
      nextBefore.value = page.next_before;
      unread.value = page.unread_count;
      problem.value = null;
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    } finally {
      loaded.value = true;
    }
  };
  useEffect(() => {
    void load(null);
  }, [unreadOnly, arrivals.value]);

  const act = async (action: () => Promise<void>) => {
    try {
      await action();
      await load(null);
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };
  const remove = (n: Notification) =>
    act(async () => {
      await api('DELETE /api/notifications/{id}', { path: { id: n.id } });
      await refreshUnread();
    });

  return (
    <section class="notifications">
      <h1 tabIndex={-1}>{t.notifications.title}</h1>
      <div class="toolbar">
        <button type="button" class="filter" aria-pressed={!unreadOnly} onClick={() => navigate('/notifications')}>
          {t.notifications.all}
        </button>
        <button type="button" class="filter" aria-pressed={unreadOnly} onClick={() => navigate('/notifications?unread=1')}>
          {t.notifications.unreadOnly(unread.value)}
        </button>
        <button type="button" onClick={() => void act(markAllRead)} disabled={unread.value === 0}>
          {t.notifications.markAllRead}
        </button>
      </div>
      <ProblemAlert message={problem.value} />
      {loaded.value && items.value.length === 0 && problem.value === null && <p>{unreadOnly ? t.notifications.noneUnread : t.notifications.none}</p>}
      <ul class="notification-list">
        {items.value.map((n) => (
          <li key={n.id} class="notification" data-level={n.level} data-read={n.read}>
            <div class="notification-head">
              <span class="level-tag">{t.notifications.levels[n.level]}</span>
              <h2>{n.title}</h2>
              {!n.read && <span class="unread-tag">{t.notifications.unreadTag}</span>}
            </div>
            {n.message !== '' && <p>{n.message}</p>}
            <p class="hint">
              <time dateTime={n.created_at}>{when(n.created_at)}</time> · {n.kind}
            </p>
            <div class="row-actions">
              {!n.read && (
                <button type="button" onClick={() => void act(() => markRead(n.id))}>
                  {t.notifications.markRead}
                </button>
              )}
              {can('print') && (
                <button type="button" class="danger" onClick={() => void remove(n)} aria-label={t.notifications.deleteOne(n.title)}>
                  {t.notifications.delete}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {nextBefore.value !== null && (
        <button type="button" onClick={() => void load(nextBefore.value)}>
          {t.notifications.more}
        </button>
      )}
    </section>
  );
}
