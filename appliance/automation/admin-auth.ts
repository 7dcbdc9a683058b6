/**
 * One sign-in for the Node-RED editor: its `adminAuth` accepts the dashboard's session tokens
 * (and API keys) as bearer tokens. Every token is checked by the dashboard itself
 * (`GET /api/auth/me`), so a logout, an expiry, a demotion or a deleted user counts at once,
 * give or take the short cache below; only dashboard admins get Node-RED's full permission ("*"),
 * everyone else is refused. The editor takes the token once from `?access_token=` in its URL and
 * sends it as `Authorization: Bearer` from then on (its HTTP calls and its comms WebSocket).
 *
 * No user names or passwords are Node-RED's own: its login form has no users, so the way in is
 * the dashboard (see README.md).
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../common/logger.js';

/** What Node-RED's `tokens` function resolves to for a granted token. */
export interface NodeRedUser {
  username: string;
  permissions: '*';
}

export interface AdminAuthOptions {
  dashboardUrl: string;
  log: Logger;
  /** How long an answer of the dashboard is reused: the editor sends dozens of requests as it loads. */
  cacheMs?: number;
  /** A dashboard that does not answer within this refuses the request. */
  timeoutMs?: number;
  now?: () => number;
}

const DEFAULT_CACHE_MS = 5000;
const DEFAULT_TIMEOUT_MS = 5000;
/** Entries kept at most; the oldest go first (tokens of a busy editor are few). */
const MAX_CACHED = 100;

interface Cached {
  user: NodeRedUser | null;
  until: number;
}

/** The answer of `GET /api/auth/me` that counts: a user or an API key, with its role. */
interface Me {
  kind?: string;
  role?: string;
  username?: string;
  name?: string;
}

/** Node-RED's `adminAuth` setting: no users of its own, every token asked of the dashboard. */
export function dashboardAdminAuth(options: AdminAuthOptions) {
  const { dashboardUrl, log } = options;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Cached>();

  async function ask(token: string): Promise<NodeRedUser | null> {
    let response: Response;
    try {
      response = await fetch(`${dashboardUrl}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      log.warn(`editor sign-in: the dashboard at ${dashboardUrl} did not answer: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return null;
    }
    const me = (await response.json()) as Me;
    if (me.role !== 'admin') {
      log.info(`editor sign-in refused: ${me.kind ?? 'user'} "${me.username ?? me.name ?? '?'}" is ${me.role ?? 'no role'}, not admin`);
      return null;
    }
    return { username: me.username ?? me.name ?? 'admin', permissions: '*' };
  }

  async function tokens(token: string): Promise<NodeRedUser | null> {
    const key = createHash('sha256').update(token).digest('hex');
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.user;
    const user = await ask(token);
    cache.delete(key);
    cache.set(key, { user, until: now() + cacheMs });
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
    return user;
  }

  return {
    type: 'credentials' as const,
    users: [] as never[],
    tokens,
  };
}
