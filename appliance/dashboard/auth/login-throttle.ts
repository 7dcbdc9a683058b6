/**
 * Slows down password guessing. Failed logins are counted per (username, address) and per
 * address. Once a count reaches its free allowance, each further failure locks that key for a
 * window that doubles every time (1 s, 2 s, 4 s … up to 15 min); attempts during a lock are
 * refused without looking at the password. A successful login clears its (username, address)
 * count; the per-address count is not cleared by it — otherwise logging in to one's own account
 * now and then would launder guesses at everybody else's — and is forgotten after a quiet hour.
 *
 * Memory is bounded: counts are forgotten after `forgetAfterMs` without failures, and at most
 * `maxTracked` keys are kept per kind (the least recently failed go first).
 */

export interface LoginThrottleOptions {
  /** Failures per (username, address) before the first lock. */
  userFreeFailures: number;
  /** Failures per address, over all usernames, before the first lock. */
  addressFreeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
  maxTracked: number;
  now: () => number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleOptions = {
  userFreeFailures: 5,
  addressFreeFailures: 20,
  firstLockMs: 1000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxTracked: 10_000,
  now: Date.now,
};

interface FailureCount {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

/** Failure counts of one kind of key, in order of their last failure (a Map keeps insertion order). */
class FailureCounts {
  private readonly counts = new Map<string, FailureCount>();

  constructor(
    private readonly freeFailures: number,
    private readonly options: LoginThrottleOptions,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  lockedFor(key: string, now: number): number {
    const count = this.counts.get(key);
    return count ? Math.max(0, count.lockedUntil - now) : 0;
  }

  fail(key: string, now: number): void {
    this.forgetOld(now);
    const count = this.counts.get(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    this.counts.delete(key);
    count.failures += 1;
    count.lastFailure = now;
    const over = count.failures - this.freeFailures;
    if (over >= 0) {
      const { firstLockMs, maxLockMs } = this.options;
      count.lockedUntil = now + Math.min(firstLockMs * 2 ** Math.min(over, 30), maxLockMs);
    }
    this.counts.set(key, count);
    while (this.counts.size > this.options.maxTracked) this.counts.delete(this.counts.keys().next().value as string);
  }

  clear(key: string): void {
    this.counts.delete(key);
  }

  private forgetOld(now: number): void {
    for (const [key, count] of this.counts) {
      if (now - count.lastFailure < this.options.forgetAfterMs) return;
      this.counts.delete(key);
    }
  }
}

export class LoginThrottle {
  private readonly options: LoginThrottleOptions;
  private readonly perUser: FailureCounts;
  private readonly perAddress: FailureCounts;

  constructor(options: Partial<LoginThrottleOptions> = {}) {
    this.options = { ...LOGIN_THROTTLE_DEFAULTS, ...options };
    this.perUser = new FailureCounts(this.options.userFreeFailures, this.options);
    this.perAddress = new FailureCounts(this.options.addressFreeFailures, this.options);
  }

  /** Milliseconds until this login may be attempted; 0 when it may be now. */
  retryAfterMs(username: string, address: string): number {
    const now = this.options.now();
    return Math.max(this.perUser.lockedFor(userKey(username, address), now), this.perAddress.lockedFor(address, now));
  }

  failed(username: string, address: string): void {
    const now = this.options.now();
    this.perUser.fail(userKey(username, address), now);
    this.perAddress.fail(address, now);
  }

  succeeded(username: string, address: string): void {
    this.perUser.clear(userKey(username, address));
  }

  /** How many keys are tracked (for tests of the memory bound). */
  get tracked(): { users: number; addresses: number } {
    return { users: this.perUser.size, addresses: this.perAddress.size };
  }
}

function userKey(username: string, address: string): string {
  return `${username.toLowerCase()}\u0000${address}`;
}
