/**
 * Every page of the app: its path pattern, the navigation entry it has (if any), whether it needs a
 * session, and how it is loaded. The first pages a person sees (fleet, login, setup) are in the
 * main bundle; every other page is its own chunk, loaded when it is first opened, so the first page
 * stays small however many pages the app grows.
 */
import type { ComponentType } from 'preact';
import { FleetPage } from './pages/fleet';
import { LoginPage } from './pages/login';
import { SetupPage } from './pages/setup';
import type { Texts } from './texts';

/** The values of a pattern's `:name` parts, decoded. */
export type RouteParams = Record<string, string>;
export type PageComponent = ComponentType<{ params: RouteParams }>;

interface RouteBase {
  /** `/printers/:id`: literal parts and `:name` parts, one path segment each. */
  pattern: string;
  /** The header's link to the page, by its text in `t.nav`; pages without one are reached from others. */
  nav?: Exclude<keyof Texts['nav'], 'label'>;
  /** Reachable without a session. */
  open?: boolean;
}

/** A page in the main bundle, or one loaded as its own chunk: `load: () => import('./pages/x').then((m) => m.XPage)`. */
export type PageRoute = RouteBase & ({ page: PageComponent } | { load: () => Promise<PageComponent> });

export const ROUTES: PageRoute[] = [
  { pattern: '/', nav: 'fleet', page: FleetPage },
  { pattern: '/login', open: true, page: LoginPage },
  { pattern: '/setup', open: true, page: SetupPage },
  { pattern: '/printers/new', load: () => import('./pages/printer-form').then((m) => m.PrinterFormPage) },
  { pattern: '/printers/:id', load: () => import('./pages/printer').then((m) => m.PrinterPage) },
  { pattern: '/printers/:id/edit', load: () => import('./pages/printer-form').then((m) => m.PrinterFormPage) },
  { pattern: '/slice', nav: 'slice', load: () => import('./pages/slice').then((m) => m.SlicePage) },
  { pattern: '/models', nav: 'models', load: () => import('./pages/models').then((m) => m.ModelsPage) },
  { pattern: '/queue', nav: 'queue', load: () => import('./pages/queue').then((m) => m.QueuePage) },
  { pattern: '/spools', nav: 'spools', load: () => import('./pages/spools').then((m) => m.SpoolsPage) },
  { pattern: '/spools/:id', load: () => import('./pages/spools').then((m) => m.SpoolsPage) },
  { pattern: '/history', nav: 'history', load: () => import('./pages/history').then((m) => m.HistoryPage) },
  { pattern: '/notifications', load: () => import('./pages/notifications').then((m) => m.NotificationsPage) },
  { pattern: '/settings', nav: 'settings', load: () => import('./pages/settings').then((m) => m.SettingsPage) },
];

export interface RouteMatch {
  route: PageRoute;
  params: RouteParams;
}

/** The route whose pattern matches `path`, or null. */
export function matchRoute(path: string): RouteMatch | null {
  const parts = path.split('/');
  for (const route of ROUTES) {
    const pattern = route.pattern.split('/');
    if (pattern.length !== parts.length) continue;
    const params: RouteParams = {};
    let matches = true;
    for (let i = 0; i < pattern.length && matches; i++) {
      if (pattern[i].startsWith(':')) {
        if (parts[i] === '') matches = false;
        else params[pattern[i].slice(1)] = safeDecode(parts[i]);
      } else matches = pattern[i] === parts[i];
    }
    if (matches) return { route, params };
  }
  return null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Whether the page at `path` can be shown without a session. */
export function isOpenPage(path: string): boolean {
  return matchRoute(path)?.route.open === true;
}
