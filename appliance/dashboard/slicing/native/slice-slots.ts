/**
 * Bounded slicing on the appliance: a few slices at a time (a slice takes every core it gets and
 * hundreds of megabytes), a short queue behind them in order of arrival, and a 429 beyond that
 * rather than an ever-growing backlog of uploads. A caller that gives up while waiting leaves the
 * queue at once.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';

export interface SlotLimits {
  /** Slices that run at the same time. */
  running: number;
  /** Slices that may wait for a free slot; one more is refused with 429. */
  waiting: number;
}

interface Waiter {
  grant: (release: () => void) => void;
}

export class SliceSlots {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly limits: SlotLimits,
    private readonly what: string,
  ) {}

  /** Resolves with the function that frees the slot; rejects with 429 when the queue is full. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(cancelled());
    if (this.active < this.limits.running) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.limits.waiting) {
      return Promise.reject(
        new AppError(ErrorCode.tooManyJobs, 429, `${this.what} is busy: ${this.active} slicing, ${this.queue.length} waiting; try again later`),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** False when a new slice would be refused (every slot taken, the queue full). */
  get hasRoom(): boolean {
    return this.active < this.limits.running || this.queue.length < this.limits.waiting;
  }

  /** What /api/system/info shows. */
  stats(): { running: number; waiting: number; limits: SlotLimits } {
    return { running: this.active, waiting: this.queue.length, limits: this.limits };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.grant(this.releaser());
      else this.active--;
    };
  }
}

function cancelled(): AppError {
  return new AppError(ErrorCode.cancelled, 409, 'slice cancelled');
}
