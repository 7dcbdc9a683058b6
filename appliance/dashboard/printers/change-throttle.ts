/**
 * Passes on a stream of values only when they change, and at most once per interval. A change
 * that arrives too soon is held and sent when the interval ends (the newest one wins), so the
 * last state always gets through; a value that changes and changes back in between is not sent.
 *
 * Values may have a phase (a print's state and file): the newest wins only within a phase. A held
 * value whose phase the next one leaves is sent at once, so that no step of a print's story is
 * lost however fast it goes (a short print's `printing` overwritten by its own `finished`, a
 * `finished` by the next print's `printing`): history, the queue and the plates follow them.
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
    /** Values of different phases are never merged; without it, every value is of one phase. */
    private readonly phaseOf: (value: T) => string = () => '',
  ) {}

  push(value: T): void {
    const key = this.keyOf(value);
    if (this.timer !== null) {
      const held = this.pending;
      if (held !== null && this.phaseOf(held.value) !== this.phaseOf(value)) this.deliver(held.value, held.key);
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

/** The phase of a print's progress: its state and file. */
export function progressPhase(progress: { state?: string; file: string }): string {
  return `${progress.state ?? ''}\n${progress.file}`;
}

/** The phase of a printer's status: its state, connection and the file of its job. */
export function statusPhase(status: { state: string; online: boolean; job: { file: string } | null }): string {
  return `${status.state}\n${status.online}\n${status.job?.file ?? ''}`;
}

/** The key of a timestamped payload: its JSON without `updated_at`. */
export function keyWithoutTimestamp(value: { updated_at: string }): string {
  const { updated_at: _ignored, ...rest } = value;
  return JSON.stringify(rest);
}
