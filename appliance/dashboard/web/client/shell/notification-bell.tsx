/** The header's bell: the unread count, a link to the list. */
import { unread } from '../notifications/store';
import { followLink, location } from '../router';
import { t } from '../texts';

export function NotificationBell() {
  const count = unread.value;
  return (
    <a
      class="bell"
      href="/notifications"
      onClick={followLink}
      aria-label={t.shell.bell(count)}
      aria-current={location.value.path === '/notifications' ? 'page' : undefined}
    >
      <svg class="bell-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 2a6 6 0 0 0-6 6v3.6L4.3 15A1 1 0 0 0 5.2 16.5h13.6a1 1 0 0 0 .9-1.5L18 11.6V8a6 6 0 0 0-6-6Zm-2.6 16a2.7 2.7 0 0 0 5.2 0Z" />
      </svg>
      {count > 0 && (
        <span class="bell-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </a>
  );
}
