/**
 * The auth domain put together: users, first-run setup, API keys, the token signing key, revoked
 * tokens, known-device tokens, the setup code and the login throttle, opened from the data directory. It is the dashboard's Authenticator (app.ts
 * puts it in the context as `auth`), and the auth feature's routes call it for everything else.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStores } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { ROLES, type Authenticator, type Principal, type Role } from '../http/route.js';
import type { Settings } from '../settings/settings.js';
import { ApiKeyStore, type PublicApiKey } from './api-keys.js';
import { StoredCredentials } from './authenticator.js';
import { DeviceTokens } from './device-tokens.js';
import { FirstSetup } from './first-setup.js';
import { LoginThrottle, type LoginThrottleOptions } from './login-throttle.js';
import { RevocationList } from './revocations.js';
import { loadOrCreateSecret } from './secret.js';
import { Sessions } from './sessions.js';
import { SetupCode } from './setup-code.js';
import { TokenIssuer } from './tokens.js';
import { UserStore } from './users.js';

/** What the auth domain needs from the dashboard (a part of DashboardContext). */
export interface AuthDeps {
  readonly dataDir: string;
  readonly stores: JsonStores;
  readonly settings: Settings;
  readonly log: Logger;
}

export interface AuthOptions {
  /** The clock of tokens, revocations, key use and the throttle (tests move it). */
  now?: () => number;
  throttle?: Partial<LoginThrottleOptions>;
}

export type Me =
  | { kind: 'user'; id: string; username: string; role: Role; created_at: string; updated_at: string; token_expires_at: string | null }
  | { kind: 'api_key'; id: string; name: string; role: Role; owner_id: string; created_at: string; last_used_at: string | null };

export class AuthService implements Authenticator {
  private constructor(
    readonly users: UserStore,
    readonly setup: FirstSetup,
    readonly apiKeys: ApiKeyStore,
    readonly sessions: Sessions,
    private readonly credentials: StoredCredentials,
  ) {}

  static async open(deps: AuthDeps, options: AuthOptions = {}): Promise<AuthService> {
    const now = options.now ?? Date.now;
    const log = deps.log.child('auth');
    const users = await UserStore.open(deps.stores);
    const setupCode = await SetupCode.open(deps.dataDir, log);
    const setup = await FirstSetup.open(deps.dataDir, users, setupCode, log);
    const apiKeys = await ApiKeyStore.open(deps.stores, log, now);
    const revocations = await RevocationList.open(deps.stores, now);
    const secret = await loadOrCreateSecret(deps.dataDir, log);
    const tokens = new TokenIssuer(secret, now);
    const devices = new DeviceTokens(secret, now);
    const throttle = new LoginThrottle({ ...options.throttle, now });
    const sessions = await Sessions.create({ users, tokens, revocations, throttle, devices, setupCode, settings: deps.settings });
    return new AuthService(users, setup, apiKeys, sessions, new StoredCredentials({ users, apiKeys, tokens, revocations }));
  }

  authenticate(headers: Readonly<Record<string, string | undefined>>): Promise<Principal | null> {
    return this.credentials.authenticate(headers);
  }

  authenticateToken(token: string): Promise<Principal | null> {
    return this.credentials.authenticateToken(token);
  }

  /** Who the principal is, as GET /api/auth/me shows it. */
  me(principal: Principal): Me {
    if (principal.kind === 'user') {
      const user = this.users.get(principal.id);
      if (user === undefined) throw new AppError(ErrorCode.unauthorized, 401, 'the user of this session no longer exists');
      const expires = principal.token_exp === undefined ? null : new Date(principal.token_exp * 1000).toISOString();
      const { id, username, created_at, updated_at } = user;
      return { kind: 'user', id, username, role: principal.role, created_at, updated_at, token_expires_at: expires };
    }
    const key = this.apiKeys.get(principal.id);
    if (key === undefined) throw new AppError(ErrorCode.unauthorized, 401, 'this API key no longer exists');
    const { id, name, owner_id, created_at, last_used_at } = key;
    return { kind: 'api_key', id, name, role: principal.role, owner_id, created_at, last_used_at };
  }

  /** Deletes a user; their sessions end at once and their API keys go with them. */
  async deleteUser(id: string): Promise<void> {
    await this.users.remove(id);
    await this.apiKeys.removeOwnedBy(id);
  }

  /** A new key for the principal's user, at most at the principal's own role. */
  async createApiKey(principal: Principal, name: string, role: Role): Promise<{ key: string; record: PublicApiKey }> {
    if (ROLES.indexOf(role) > ROLES.indexOf(principal.role)) {
      throw new AppError(ErrorCode.forbidden, 403, `a key cannot have a higher role than its creator (${principal.role})`);
    }
    const ownerId = principal.kind === 'user' ? principal.id : this.apiKeys.get(principal.id)?.owner_id;
    if (ownerId === undefined) throw new AppError(ErrorCode.unauthorized, 401, 'this API key no longer exists');
    return this.apiKeys.create({ name, role, ownerId });
  }
}
