/**
 * Slows down password guessing. Failed logins are counted per (username, address), per address,
 * and per username over all addresses (the account). Once a count reaches its free allowance,
 * each further failure locks that key for a window that doubles every time (1 s, 2 s, 4 s … up
 * to 15 min, 5 min for an account); attempts during a lock are refused without looking at the
 * password. A successful login clears its (username, address) count; the address and account
 * counts are not cleared by it — otherwise logging in to one's own account now and then would
 * launder guesses at everybody else's, or at one's own from elsewhere — and are forgotten after a
 * quiet hour.
 *
 * The account lock is what stops guesses spread over many addresses; as anyone can set it off,
 * it is a slowdown with a short ceiling, and sessions.ts lets a client that proves it is the
 * owner's (a known-device token, the local setup code) past it.
 *
 * Memory is bounded: counts are forgotten after `forgetAfterMs` without failures, and at most
 * `maxTracked` keys are kept per kind (the least recently failed go first).
 */

export interface LoginThrottleOptions {
  /** Failures per (username, address) before the first lock. */
  userFreeFailures: number;
  /** Failures per address, over all usernames, before the first lock. */
  addressFreeFailures: number;
  /** Failures per username, over all addresses, before the first lock of the account. */
  accountFreeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
  /** The longest account lock: kept short, as a stranger can set it off. */
  accountMaxLockMs: number;
  forgetAfterMs: number;
  maxTracked: number;
  now: () => number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleOptions = {
  userFreeFailures: 5,
  addressFreeFailures: 20,
  accountFreeFailures: 10,
  firstLockMs: 1000,
  maxLockMs: 15 * 60_000,
  accountMaxLockMs: 5 * 60_000,
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
    private readonly maxLockMs: number,
    private readonly options: LoginThrottleOptions,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  lockedFor(key: string, now: number): number {
    const count = this.counts.get(key);
    return count ? Math.max(0, count.lockedUntil - now) : 0;
  }

  failuresOf(key: string, now: number): number {
    const count = this.counts.get(key);
    return count && now - count.lastFailure < this.options.forgetAfterMs ? count.failures : 0;
  }

  /** Counts a failure; true when it is the one that used up the allowance (the first lock). */
  fail(key: string, now: number): boolean {
    this.forgetOld(now);
    const count = this.counts.get(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    this.counts.delete(key);
    count.failures += 1;
    count.lastFailure = now;
    const over = count.failures - this.freeFailures;
    if (over >= 0) count.lockedUntil = now + Math.min(this.options.firstLockMs * 2 ** Math.min(over, 30), this.maxLockMs);
    this.counts.set(key, count);
    while (this.counts.size > this.options.maxTracked) this.counts.delete(this.counts.keys().next().value as string);
    return over === 0;
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
  private readonly perAccount: FailureCounts;
  /** Password checks under way, per account. */
  private readonly accountChecks = new Map<string, number>();

  constructor(options: Partial<LoginThrottleOptions> = {}) {
    this.options = { ...LOGIN_THROTTLE_DEFAULTS, ...options };
    const { userFreeFailures, addressFreeFailures, accountFreeFailures, maxLockMs, accountMaxLockMs } = this.options;
    this.perUser = new FailureCounts(userFreeFailures, maxLockMs, this.options);
    this.perAddress = new FailureCounts(addressFreeFailures, maxLockMs, this.options);
    this.perAccount = new FailureCounts(accountFreeFailures, accountMaxLockMs, this.options);
  }

  /** Milliseconds until this address may try this username again; 0 when it may be now. */
  retryAfterMs(username: string, address: string): number {
    const now = this.options.now();
    return Math.max(this.perUser.lockedFor(userKey(username, address), now), this.perAddress.lockedFor(address, now));
  }

  /** Milliseconds the account is locked for, from any address, to clients that cannot prove they are its owner's. */
  accountRetryAfterMs(username: string): number {
    const key = username.toLowerCase();
    const now = this.options.now();
    // Checks under way may each end in a failure, so they take up the allowance before they end:
    // otherwise a burst of parallel guesses would all pass before the first one failed.
    const checking = this.accountChecks.get(key) ?? 0;
    const busy = checking > 0 && this.perAccount.failuresOf(key, now) + checking >= this.options.accountFreeFailures;
    return Math.max(this.perAccount.lockedFor(key, now), busy ? this.options.firstLockMs : 0);
  }

  /** Marks a password check of the account as under way, until the returned function is called. */
  checking(username: string): () => void {
    const key = username.toLowerCase();
    this.accountChecks.set(key, (this.accountChecks.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.accountChecks.get(key) ?? 1) - 1;
      if (left > 0) this.accountChecks.set(key, left);
      else this.accountChecks.delete(key);
    };
  }

  /** Counts a failed login; true when it is the one that set off the account's first lock. */
  failed(username: string, address: string): boolean {
    const now = this.options.now();
    this.perUser.fail(userKey(username, address), now);
    this.perAddress.fail(address, now);
    return this.perAccount.fail(username.toLowerCase(), now);
  }

  succeeded(username: string, address: string): void {
    this.perUser.clear(userKey(username, address));
  }

  /** How many keys are tracked (for tests of the memory bound). */
  get tracked(): { users: number; addresses: number; accounts: number } {
    return { users: this.perUser.size, addresses: this.perAddress.size, accounts: this.perAccount.size };
  }
}

function userKey(username: string, address: string): string {
  return `${username.toLowerCase()}\u0000${address}`;
}
