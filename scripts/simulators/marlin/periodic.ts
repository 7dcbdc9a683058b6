/**
 * Something the firmware does every N simulated milliseconds (auto-reports, `busy` keepalives,
 * `wait`). Deadlines advance by the interval from the previous deadline, so a late timer does not
 * shift the rhythm; after a long stall it resumes one interval from now instead of bursting.
 */
import type { CancelTimer, SimClock } from './clock.js';

export class Periodic {
  private readonly clock: SimClock;
  private readonly action: () => void;
  private cancel: CancelTimer | null = null;
  private interval = 0;

  constructor(clock: SimClock, action: () => void) {
    this.clock = clock;
    this.action = action;
  }

  get intervalMs(): number {
    return this.interval;
  }

  /** (Re)starts with a new interval; 0 stops. The first run is one interval from now. */
  start(intervalMs: number): void {
    this.stop();
    this.interval = intervalMs;
    if (intervalMs > 0) this.schedule(this.clock.now() + intervalMs);
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.interval = 0;
  }

  private schedule(at: number): void {
    this.cancel = this.clock.at(at, () => {
      const now = this.clock.now();
      const next = at + this.interval > now ? at + this.interval : now + this.interval;
      this.schedule(next);
      this.action();
    });
  }
}
