/**
 * Who is logged in: the session token (sent as `Authorization: Bearer`, as the API expects), the
 * user's name and role, kept in localStorage so that a reload or a second tab stays logged in.
 * The device token of the last login is kept apart and sent with the next one (auth/README.md:
 * it gets its owner past an account lock). A 401 ends the session and returns to the login page,
 * which comes back to the page the person was on.
 */
import { computed, signal } from '@preact/signals';
import { here, navigate } from '../router';
import { api, setApiHooks, type Ok } from './client';

export type Role = 'view' | 'print' | 'admin';
const ROLES: readonly Role[] = ['view', 'print', 'admin'];

export interface Session {
  token: string;
  username: string;
  role: Role;
}

const SESSION_KEY = 'printyard.session';
/** Device tokens are per account: several people may use one tablet. */
const deviceKey = (username: string) => `printyard.device-token.${username.toLowerCase()}`;

function stored(): Session | null {
  try {
    const value = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
    return value && typeof value.token === 'string' && ROLES.includes(value.role) ? value : null;
  } catch {
    return null;
  }
}

export const session = signal<Session | null>(stored());

/** Why the login page is shown, for its message. */
export const loginReason = signal<'expired' | 'logged-out' | null>(null);

/** True when the logged-in role may do what needs `level` (the server still checks). */
export function can(level: Role): boolean {
  const role = session.value?.role;
  return role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(level);
}

export const canPrint = computed(() => can('print'));

function save(next: Session | null): void {
  session.value = next;
  if (next === null) localStorage.removeItem(SESSION_KEY);
  else localStorage.setItem(SESSION_KEY, JSON.stringify(next));
}

/** Sends the person to the login page, to come back here afterwards. */
export function toLogin(reason: 'expired' | 'logged-out' | null): void {
  save(null);
  loginReason.value = reason;
  const path = here();
  // Already there: keep the `next` it has.
  if (path.startsWith('/login')) return;
  navigate(path.startsWith('/setup') ? '/login' : `/login?next=${encodeURIComponent(path)}`, true);
}

setApiHooks({
  token: () => session.value?.token ?? null,
  unauthorized: () => toLogin('expired'),
});

type Me = Ok<'GET /api/auth/me'>;

function fromMe(token: string, me: Me): Session {
  return { token, username: me.kind === 'user' ? me.username : me.name, role: me.role };
}

export async function login(username: string, password: string): Promise<void> {
  const deviceToken = localStorage.getItem(deviceKey(username)) ?? undefined;
  const answer = await api('POST /api/auth/login', { body: { username, password, device_token: deviceToken } });
  localStorage.setItem(deviceKey(username), answer.device_token);
  save({ token: answer.token, username, role: 'view' });
  // The role is the user record's, read now: the token's claim is informative only.
  save(fromMe(answer.token, await api('GET /api/auth/me')));
  loginReason.value = null;
}

/** Refreshes the name and role (a role may have changed since the last visit); a 401 ends the session. */
export async function refreshSession(): Promise<void> {
  const current = session.value;
  if (current === null) return;
  save(fromMe(current.token, await api('GET /api/auth/me')));
}

export async function logout(): Promise<void> {
  try {
    await api('POST /api/auth/logout');
  } finally {
    toLogin('logged-out');
  }
}
