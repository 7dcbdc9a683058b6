/**
 * Login and logout. A wrong username and a wrong password get the same answer, after about the
 * same time (an unknown username is checked against a dummy hash), so the answers do not tell
 * which usernames exist. Guessing is slowed down by the login throttle.
 */
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { Principal } from '../http/route.js';
import type { Settings } from '../settings/settings.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword, type PasswordHash } from './password.js';
import type { RevocationList } from './revocations.js';
import { durationSeconds, type TokenIssuer } from './tokens.js';
import type { UserStore } from './users.js';

export const BAD_CREDENTIALS = 'wrong username or password';

/** A login refused by the throttle; the route answers 429 with Retry-After. */
export class LoginThrottled extends AppError {
  constructor(readonly retryAfterS: number) {
    super(ErrorCode.rateLimited, 429, `too many failed logins; try again in ${retryAfterS} s`);
  }
}

export interface LoginResult {
  token: string;
  /** The configured lifetime, as written in the settings (e.g. `24h`). */
  expiresIn: string;
}

export interface SessionDeps {
  users: UserStore;
  tokens: TokenIssuer;
  revocations: RevocationList;
  throttle: LoginThrottle;
  settings: Settings;
}

export class Sessions {
  private constructor(
    private readonly deps: SessionDeps,
    private readonly dummyHash: PasswordHash,
  ) {}

  static async create(deps: SessionDeps): Promise<Sessions> {
    return new Sessions(deps, await hashPassword(randomBytes(18).toString('base64')));
  }

  async login(username: string, password: string, address: string): Promise<LoginResult> {
    const { users, tokens, throttle, settings } = this.deps;
    const waitMs = throttle.retryAfterMs(username, address);
    if (waitMs > 0) throw new LoginThrottled(Math.ceil(waitMs / 1000));
    const user = users.findByUsername(username);
    const matches = await verifyPassword(password, user?.password ?? this.dummyHash);
    if (user === undefined || !matches) {
      throttle.failed(username, address);
      throw new AppError(ErrorCode.unauthorized, 401, BAD_CREDENTIALS);
    }
    throttle.succeeded(username, address);
    const expiresIn = settings.current.auth.token_expiry;
    const issued = await tokens.issue(user.id, user.role, durationSeconds(expiresIn));
    return { token: issued.token, expiresIn };
  }

  /** Revokes the session token the request came with, until it would have expired anyway. */
  async logout(principal: Principal): Promise<void> {
    if (principal.kind !== 'user' || principal.token_id === undefined || principal.token_exp === undefined) {
      throw new AppError(ErrorCode.validation, 400, 'only a session token can be logged out; API keys are revoked with DELETE /api/api-keys/:id');
    }
    await this.deps.revocations.revoke(principal.token_id, principal.token_exp);
  }
}
