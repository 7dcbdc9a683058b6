/** Time as the manager sees it; tests pass a manual clock to step through backoff and throttling. */
export interface Clock {
  /** Milliseconds, monotonic enough for intervals. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // A pending reconnect or trailing event must not keep the process alive on its own.
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
