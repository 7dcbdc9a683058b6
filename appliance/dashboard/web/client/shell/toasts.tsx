/**
 * New notifications as toasts in a polite live region (screen readers hear them without losing
 * their place). Errors stay until closed; the others go after a while. On the list itself they
 * would only repeat it.
 */
import { dismissToast, markRead, toasts } from '../notifications/store';
import { followLink, location } from '../router';
import { t } from '../texts';

export function Toasts() {
  if (location.value.path === '/notifications') return null;
  return (
    <section class="toasts" aria-live="polite" aria-label={t.shell.toastsLabel}>
      {toasts.value.map((n) => (
        <div key={n.id} class="toast" data-level={n.level}>
          <p class="toast-title">
            <span class="level-tag">{t.notifications.levels[n.level]}</span> {n.title}
          </p>
          {n.message !== '' && <p class="toast-message">{n.message}</p>}
          <div class="toast-actions">
            <a href="/notifications" onClick={followLink}>
              {t.shell.showAll}
            </a>
            <button type="button" class="ghost" onClick={() => void markRead(n.id).catch(() => dismissToast(n.id))}>
              {t.notifications.markRead}
            </button>
            <button type="button" class="ghost" onClick={() => dismissToast(n.id)} aria-label={t.shell.closeToast(n.title)}>
              ✕
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}
