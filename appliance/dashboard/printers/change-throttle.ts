/**
 * Passes on a stream of values only when they change, and at most once per interval. A change
 * that arrives too soon is held and sent when the interval ends (the newest one wins), so the
 * last state always gets through; a value that changes and changes back in between is not sent.
 */
import type { Clock } from './clock.js';

export class ChangeThrottle<T> {
  private lastKey: string | null = null;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private pending: { value: T; key: string } | null = null;
  private timer: unknown = null;

  constructor(
    private readonly intervalMs: number,
    /** Equal keys mean "no change" (e.g. the JSON without the timestamp). */
    private readonly keyOf: (value: T) => string,
    private readonly send: (value: T) => void,
    private readonly clock: Clock,
  ) {}

  push(value: T): void {
    const key = this.keyOf(value);
    if (this.timer !== null) {
      this.pending = key === this.lastKey ? null : { value, key };
      return;
    }
    if (key === this.lastKey) return;
    const wait = this.lastSentAt + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.deliver(value, key);
      return;
    }
    this.pending = { value, key };
    this.timer = this.clock.setTimeout(() => this.flush(), wait);
  }

  /** Drops a held value; what was sent stays the reference for deduplication. */
  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private flush(): void {
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.deliver(pending.value, pending.key);
  }

  private deliver(value: T, key: string): void {
    this.lastKey = key;
    this.lastSentAt = this.clock.now();
    this.send(value);
  }
}

/** The key of a timestamped payload: its JSON without `updated_at`. */
export function keyWithoutTimestamp(value: { updated_at: string }): string {
  const { updated_at: _ignored, ...rest } = value;
  return JSON.stringify(rest);
}
