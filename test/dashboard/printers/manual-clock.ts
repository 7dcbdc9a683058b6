/** A clock that moves only when the test says, firing due timers in order. */
import type { Clock } from '../../../appliance/dashboard/printers/clock.js';

interface Timer {
  at: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Delays of the timers still pending, from now, soonest first. */
  pendingDelays(): number[] {
    return [...this.timers.values()].map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, running each timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let dueId: number | null = null;
      let due: Timer | null = null;
      for (const [id, timer] of this.timers) {
        if (timer.at <= end && (due === null || timer.at < due.at)) {
          dueId = id;
          due = timer;
        }
      }
      if (due === null || dueId === null) break;
      this.timers.delete(dueId);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
  }
}
