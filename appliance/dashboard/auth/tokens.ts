/**
 * Session tokens: JWTs signed with HS256 (jose) carrying `sub` (the user id), `role` (the role at
 * login, informative only: the authenticator reads the current role from the user record), a
 * random `jti` (what logout revokes), `iat` and `exp`.
 */
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { Role } from '../http/route.js';

const ALGORITHM = 'HS256';
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const DURATION = /^(\d+(?:\.\d+)?) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;

/** `24h`, `30m`, `7d`, `90 s` → seconds; the grammar of the `auth.token_expiry` setting. */
export function durationSeconds(text: string): number {
  const m = DURATION.exec(text.trim());
  const seconds = m ? Math.round(Number(m[1]) * UNIT_SECONDS[m[2][0].toLowerCase()]) : 0;
  if (seconds < 1) throw new AppError(ErrorCode.validation, 400, `"${text}" is not a token lifetime such as 30m, 24h or 7d`);
  return seconds;
}

export interface IssuedToken {
  token: string;
  jti: string;
  /** Seconds since the epoch. */
  exp: number;
}

export interface TokenClaims {
  sub: string;
  role: string;
  jti: string;
  iat: number;
  exp: number;
}

export class TokenIssuer {
  constructor(
    private readonly secret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(userId: string, role: Role, lifetimeSeconds: number): Promise<IssuedToken> {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + lifetimeSeconds;
    const jti = randomBytes(16).toString('base64url');
    const token = await new SignJWT({ role })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(userId)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, jti, exp };
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: [ALGORITHM],
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      });
      const { sub, jti, iat, exp, role } = payload;
      if (typeof sub !== 'string' || typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null;
      return { sub, jti, iat, exp, role: typeof role === 'string' ? role : '' };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}
