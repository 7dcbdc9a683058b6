/**
 * Login and logout. A wrong username and a wrong password get the same answer, after about the
 * same time (an unknown username is checked against a dummy hash), so the answers do not tell
 * which usernames exist. Guessing is slowed down by the login throttle; while an account is
 * locked by failures from many addresses, a client gets past that lock (not past its own
 * address's) by proving it is the owner's: a known-device token of the account, given with each
 * successful login, or the one-time setup code, made and logged when the account lock starts.
 */
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { Principal } from '../http/route.js';
import type { Settings } from '../settings/settings.js';
import type { DeviceTokens } from './device-tokens.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword, type PasswordHash } from './password.js';
import type { RevocationList } from './revocations.js';
import type { SetupCode } from './setup-code.js';
import { durationSeconds, type TokenIssuer } from './tokens.js';
import type { UserStore } from './users.js';

export const BAD_CREDENTIALS = 'wrong username or password';

/** A login refused by the throttle; the route answers 429 with Retry-After. */
export class LoginThrottled extends AppError {
  constructor(
    readonly retryAfterS: number,
    why = 'too many failed logins',
  ) {
    super(ErrorCode.rateLimited, 429, `${why}; try again in ${retryAfterS} s`);
  }
}

const ACCOUNT_LOCKED =
  'too many failed logins for this account from several addresses; ' +
  'a device that logged in to it before (device_token) or the one-time setup code from the dashboard log (setup_code) gets through now';

/** What lets a client past an account lock (see the module comment). */
export interface OwnerProof {
  deviceToken?: string;
  setupCode?: string;
}

export interface LoginResult {
  token: string;
  /** The configured lifetime, as written in the settings (e.g. `24h`). */
  expiresIn: string;
  /** This client's known-device token for the account: send it with later logins. */
  device_token: string;
}

export interface SessionDeps {
  users: UserStore;
  tokens: TokenIssuer;
  revocations: RevocationList;
  throttle: LoginThrottle;
  devices: DeviceTokens;
  setupCode: SetupCode;
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

  async login(username: string, password: string, address: string, proof: OwnerProof = {}): Promise<LoginResult> {
    const { users, tokens, throttle, devices, setupCode, settings } = this.deps;
    const waitMs = throttle.retryAfterMs(username, address);
    if (waitMs > 0) throw new LoginThrottled(Math.ceil(waitMs / 1000));
    const user = users.findByUsername(username);
    const accountWaitMs = throttle.accountRetryAfterMs(username);
    let usesCode = false;
    if (accountWaitMs > 0 && !(await devices.vouchesFor(proof.deviceToken, user))) {
      usesCode = setupCode.matches(proof.setupCode);
      if (!usesCode) throw new LoginThrottled(Math.ceil(accountWaitMs / 1000), ACCOUNT_LOCKED);
    }
    const checked = throttle.checking(username);
    let matches: boolean;
    try {
      matches = await verifyPassword(password, user?.password ?? this.dummyHash);
    } finally {
      checked();
    }
    if (user === undefined || !matches) {
      const accountLocked = throttle.failed(username, address);
      if (accountLocked && user !== undefined) await setupCode.issue(`logins to ${user.username} are slowed by failures from several addresses`);
      throw new AppError(ErrorCode.unauthorized, 401, BAD_CREDENTIALS);
    }
    throttle.succeeded(username, address);
    if (usesCode) await setupCode.discard();
    const expiresIn = settings.current.auth.token_expiry;
    const issued = await tokens.issue(user.id, user.role, durationSeconds(expiresIn));
    return { token: issued.token, expiresIn, device_token: await devices.issue(user) };
  }

  /** Revokes the session token the request came with, until it would have expired anyway. */
  async logout(principal: Principal): Promise<void> {
    if (principal.kind !== 'user' || principal.token_id === undefined || principal.token_exp === undefined) {
      throw new AppError(ErrorCode.validation, 400, 'only a session token can be logged out; API keys are revoked with DELETE /api/api-keys/:id');
    }
    await this.deps.revocations.revoke(principal.token_id, principal.token_exp);
  }
}
