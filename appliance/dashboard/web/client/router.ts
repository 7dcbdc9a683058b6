/**
 * The app's location as a signal, on the History API: the server answers index.html for every page
 * path, so a reload or a shared link opens the same page.
 */
import { signal } from '@preact/signals';

export interface AppLocation {
  path: string;
  query: URLSearchParams;
}

function read(): AppLocation {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

export const location = signal<AppLocation>(read());

window.addEventListener('popstate', () => {
  location.value = read();
});

/** Goes to `to` (a path with an optional query); `replace` leaves no history entry (redirects). */
export function navigate(to: string, replace = false): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  location.value = read();
}

/** The current path and query, to come back to after a login. */
export function here(): string {
  return window.location.pathname + window.location.search;
}

/** An <a> click handler that navigates inside the app (modified clicks still open new tabs). */
export function followLink(event: MouseEvent): void {
  const link = event.currentTarget as HTMLAnchorElement;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.origin !== window.location.origin) return;
  event.preventDefault();
  navigate(link.pathname + link.search);
}
