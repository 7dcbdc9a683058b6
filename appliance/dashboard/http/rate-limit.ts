/**
 * Requests per client: at most `perMinute` in any 60 s and `perSecond` in any 1 s. Each client
 * keeps the times of its accepted requests of the last minute, so both windows slide exactly
 * and the wait until the next allowed request is known (the Retry-After of a 429).
 *
 * Memory stays bounded: clients idle for a minute are swept, and beyond `maxClients` the least
 * recently seen client is dropped (which only forgets its count).
 */
export interface RateLimits {
  enabled: boolean;
  perMinute: number;
  perSecond: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;
const DEFAULT_MAX_CLIENTS = 10_000;

/**
 * Times of one client's accepted requests within the last minute, oldest first, in a ring that
 * grows with use up to `perMinute` slots (most clients send far fewer).
 */
class ClientWindow {
  private times = new Float64Array(8);
  private start = 0;
  private count = 0;

  constructor(private readonly perMinute: number) {}

  private at(k: number): number {
    return this.times[(this.start + k) % this.times.length];
  }

  get lastSeen(): number {
    return this.count === 0 ? -Infinity : this.at(this.count - 1);
  }

  /** Milliseconds until a request is allowed (0: now). */
  waitMs(now: number, perSecond: number): number {
    while (this.count > 0 && this.at(0) <= now - MINUTE_MS) {
      this.start = (this.start + 1) % this.times.length;
      this.count--;
    }
    let wait = 0;
    if (this.count >= this.perMinute) wait = this.at(this.count - this.perMinute) + MINUTE_MS - now;
    if (this.count >= perSecond) {
      // The request `perSecond` back from the newest must have left the last second.
      const boundary = this.at(this.count - perSecond);
      if (boundary > now - SECOND_MS) wait = Math.max(wait, boundary + SECOND_MS - now);
    }
    return wait;
  }

  /** Call only after waitMs returned 0, so at most `perMinute` times are ever kept. */
  record(now: number): void {
    if (this.count === this.times.length) this.grow();
    this.times[(this.start + this.count) % this.times.length] = now;
    this.count++;
  }

  private grow(): void {
    const next = new Float64Array(Math.min(this.perMinute, this.times.length * 2));
    for (let k = 0; k < this.count; k++) next[k] = this.at(k);
    this.times = next;
    this.start = 0;
  }
}

export class RateLimiter {
  private clients = new Map<string, ClientWindow>();
  private limits: RateLimits;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    limits: RateLimits,
    private readonly now: () => number = () => performance.now(),
    private readonly maxClients = DEFAULT_MAX_CLIENTS,
  ) {
    this.limits = { ...limits };
  }

  /** New limits apply at once; counts restart, since the ring size depends on them. */
  configure(limits: RateLimits): void {
    this.limits = { ...limits };
    this.clients.clear();
  }

  /** Counts a request of `client` if it is allowed now. */
  take(client: string): RateDecision {
    if (!this.limits.enabled) return { allowed: true };
    const now = this.now();
    let window = this.clients.get(client);
    if (window === undefined) {
      if (this.clients.size >= this.maxClients) this.evictOldest();
      window = new ClientWindow(this.limits.perMinute);
    } else {
      // Re-inserting keeps the map in least-recently-seen order for eviction.
      this.clients.delete(client);
    }
    this.clients.set(client, window);
    const wait = window.waitMs(now, this.limits.perSecond);
    if (wait > 0) return { allowed: false, retryAfterS: Math.max(1, Math.ceil(wait / 1000)) };
    window.record(now);
    return { allowed: true };
  }

  /** Number of clients currently tracked. */
  get size(): number {
    return this.clients.size;
  }

  /** Forgets clients whose last request is older than the minute window. */
  sweep(): void {
    const cutoff = this.now() - MINUTE_MS;
    for (const [client, window] of this.clients) {
      if (window.lastSeen <= cutoff) this.clients.delete(client);
    }
  }

  /** Sweeps once a minute until `stop()`; the timer does not keep the process alive. */
  startSweeping(): void {
    this.sweeper ??= setInterval(() => this.sweep(), MINUTE_MS).unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private evictOldest(): void {
    const oldest = this.clients.keys().next();
    if (!oldest.done) this.clients.delete(oldest.value);
  }
}
