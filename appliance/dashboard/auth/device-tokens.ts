/**
 * Known-device tokens: given with every successful login, they let that client past the
 * per-account login limit later, so guesses at an account from many addresses slow down strangers
 * without locking the owner out. A token names its user and a fingerprint of the user's password
 * hash, so a password change retires every device that knew the old one; it lasts 90 days.
 *
 * A JWT (HS256) with its own `typ`, signed with a key derived from the token signing key: a device
 * token is never a session token, nor the other way round.
 */
import { createHash, createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { UserRecord } from './users.js';

export const DEVICE_TOKEN_LIFETIME_S = 90 * 86_400;
const ALGORITHM = 'HS256';
const TYPE = 'printyard-device';

/** Changes whenever the user's password does: each new hash has a fresh salt (the hash itself stays out of it). */
function passwordFingerprint(user: UserRecord): string {
  return createHash('sha256').update(user.password.salt).digest('base64url').slice(0, 22);
}

export class DeviceTokens {
  private readonly key: Uint8Array;

  constructor(
    signingSecret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new Uint8Array(createHmac('sha256', signingSecret).update('printyard known-device token').digest());
  }

  issue(user: UserRecord): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT({ pwd: passwordFingerprint(user) })
      .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + DEVICE_TOKEN_LIFETIME_S)
      .sign(this.key);
  }

  /** True when `token` is a genuine, unexpired device token of this user with their current password. */
  async vouchesFor(token: string | undefined, user: UserRecord | undefined): Promise<boolean> {
    if (token === undefined || user === undefined) return false;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        typ: TYPE,
        subject: user.id,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      return payload.pwd === passwordFingerprint(user);
    } catch (err) {
      if (err instanceof errors.JOSEError) return false;
      throw err;
    }
  }
}
