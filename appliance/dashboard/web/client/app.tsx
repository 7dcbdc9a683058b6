/**
 * The shell: the header (brand, navigation, live state, account, theme), the page for the current
 * path, and the gate in front of it: a box without an admin shows the first-run page, a person
 * without a session the login page (coming back to the page they asked for).
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { api, ApiError, reason } from './api/client';
import { logout, refreshSession, session, toLogin } from './api/session';
import { live } from './app-live';
import { RoutePage } from './page-loader';
import { followLink, location, navigate } from './router';
import { isOpenPage, matchRoute, ROUTES } from './routes';
import { boxName } from './shell/box';
import { NotificationBell } from './shell/notification-bell';
import { SlicerPill } from './shell/slicer-pill';
import { Toasts } from './shell/toasts';
import { t } from './texts';
import { nextTheme, theme } from './theme';
import { ProblemAlert } from './problem-alert';

const THEME_ICONS = { system: '◐', light: '☀', dark: '☾' } as const;

function NotFound() {
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.notFound.title}</h1>
      <p>
        <a href="/" onClick={followLink}>
          {t.notFound.back}
        </a>
      </p>
    </section>
  );
}

function Page({ path, onShown }: { path: string; onShown: () => void }) {
  const match = matchRoute(path);
  if (match === null) return <NotFound />;
  return <RoutePage key={path} route={match.route} params={match.params} onShown={onShown} />;
}

/** A navigation entry is current on its own page and on the pages under it (`/printers` on `/printers/7`). */
function isCurrent(pattern: string, path: string): boolean {
  return pattern === '/' ? path === '/' : path === pattern || path.startsWith(`${pattern}/`);
}

function Header() {
  const current = session.value;
  const path = location.value.path;
  return (
    <header class="top">
      <a class="brand" href="/" onClick={followLink}>
        {current === null ? t.appName : (boxName.value ?? t.appName)}
      </a>
      {current !== null && (
        <nav aria-label={t.nav.label} class="nav">
          {ROUTES.map(
            (route) =>
              route.nav !== undefined && (
                <a key={route.pattern} href={route.pattern} onClick={followLink} aria-current={isCurrent(route.pattern, path) ? 'page' : undefined}>
                  {t.nav[route.nav]}
                </a>
              ),
          )}
        </nav>
      )}
      <div class="top-end">
        {current !== null && (
          <>
            <SlicerPill />
            <span class="live" data-live={live.state.value} role="status">
              {t.live[live.state.value]}
            </span>
            <NotificationBell />
          </>
        )}
        <button type="button" class="ghost" onClick={nextTheme} aria-label={t.theme.label(t.theme[theme.value])}>
          <span aria-hidden="true">{THEME_ICONS[theme.value]}</span>
        </button>
        {current !== null && (
          <>
            <span class="who">{t.account.signedInAs(current.username, t.roles[current.role] ?? current.role)}</span>
            <button type="button" class="ghost" onClick={() => void logout()}>
              {t.account.logout}
            </button>
          </>
        )}
      </div>
    </header>
  );
}

export function App() {
  const ready = useSignal(false);
  const problem = useSignal<string | null>(null);
  const main = useRef<HTMLElement>(null);
  const path = location.value.path;

  useEffect(() => {
    (async () => {
      const setup = await api('GET /api/auth/setup');
      if (setup.needed) navigate('/setup', true);
      else if (session.value === null) {
        if (!isOpenPage(location.value.path)) toLogin(null);
      } else await refreshSession();
      ready.value = true;
    })().catch((err: unknown) => {
      // A 401 has already sent the person to the login page.
      if (!(err instanceof ApiError && err.status === 401)) problem.value = reason(err, t.errors.network);
      ready.value = true;
    });
  }, []);

  // A page that needs a session, without one (logged out in another tab, or just now).
  useEffect(() => {
    if (ready.value && session.value === null && !isOpenPage(path)) toLogin(null);
  }, [ready.value, session.value, path]);

  // After a move inside the app, keyboard and screen-reader users land on the new page's heading
  // once it is shown (not at the first load: a form's own first field keeps its focus then).
  const moved = useRef(false);
  const onShown = () => {
    if (moved.current) main.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
    moved.current = true;
  };

  return (
    <>
      <a class="skip" href="#main">
        {t.skipToContent}
      </a>
      <Header />
      <main id="main" ref={main} tabIndex={-1}>
        <ProblemAlert message={problem.value} />
        {ready.value ? <Page path={path} onShown={onShown} /> : <p>{t.loading}</p>}
      </main>
      {session.value !== null && <Toasts />}
    </>
  );
}
