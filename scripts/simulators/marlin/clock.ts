/**
 * Simulated time. Everything the virtual printer does over time (heating, moves, dwells, reports,
 * the boot delay) runs on this one clock, scaled by the speed factor: at `--speed 10` a 60 s
 * heat-up takes 6 s of wall time and nothing drifts out of step with anything else.
 *
 * Waits are expressed as absolute simulated deadlines. A loop that sleeps to fixed deadlines
 * catches up when a timer fires late (timers have a 1 ms floor), instead of slowing down.
 */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}

export type CancelTimer = () => void;

export class SimClock {
  readonly speed: number;
  private readonly realNow: () => number;
  private readonly startReal: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(speed: number, realNow: () => number = () => performance.now()) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this.speed = speed;
    this.realNow = realNow;
    this.startReal = realNow();
  }

  /** Simulated milliseconds since the clock was made. */
  now(): number {
    return (this.realNow() - this.startReal) * this.speed;
  }

  /** Calls `fn` at simulated time `at`, or as soon as possible when that time has passed. */
  at(at: number, fn: () => void): CancelTimer {
    let timer: NodeJS.Timeout;
    const arm = () => {
      timer = setTimeout(
        () => {
          this.timers.delete(timer);
          // Node's timers may fire a fraction of a millisecond early, which is long in simulated time.
          if (this.now() < at) arm();
          else fn();
        },
        Math.max(0, (at - this.now()) / this.speed),
      );
      this.timers.add(timer);
    };
    arm();
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  after(ms: number, fn: () => void): CancelTimer {
    return this.at(this.now() + ms, fn);
  }

  /** Resolves at simulated time `at`; rejects with AbortedError when the signal aborts first. */
  sleepUntil(at: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortedError());
        return;
      }
      const onAbort = () => {
        cancel();
        reject(new AbortedError());
      };
      const cancel = this.at(at, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleepUntil(this.now() + ms, signal);
  }

  /** Cancels every pending timer (the simulator is being stopped). */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
