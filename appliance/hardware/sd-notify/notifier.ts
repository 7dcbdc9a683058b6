/**
 * What a service tells systemd (sd_notify(3)): READY=1 once it listens, STATUS lines, WATCHDOG=1
 * pings and STOPPING=1. Started outside systemd ($NOTIFY_SOCKET unset: `npm start`, tests, a
 * shell) it does nothing at all.
 *
 * The pings come from a timer of the event loop, every half of $WATCHDOG_USEC (as sd_watchdog_enabled(3)
 * advises): a loop that hangs stops them, and systemd restarts the service. The STATUS text is
 * asked for again at each ping (or every STATUS_REFRESH_MS without a watchdog) and sent with it
 * when it changed, so it costs no extra run.
 *
 * The variables are removed from process.env once read, as sd_notify's unset_environment does:
 * the processes the services start (slicing workers, desktop slicers) must not speak for them.
 */
import type { Logger } from '../../common/logger.js';
import { CliSender } from './cli-sender.js';

/** Without a watchdog, how often the STATUS text is checked for a change. */
const STATUS_REFRESH_MS = 30_000;

export interface ServiceNotifier {
  /** The socket messages go to; null when the service was not started by systemd. */
  readonly socket: string | null;
  /** The ping period (half of $WATCHDOG_USEC), or null without a watchdog for this process. */
  readonly pingEveryMs: number | null;
  /** READY=1 with the status, then pings and status updates until close. Call once it listens. */
  ready(status: () => string): void;
  /** STOPPING=1 with a status: the service has begun its graceful stop. */
  stopping(status: string): void;
  /** Stops the timers and waits until what was sent has been delivered. */
  close(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** The watchdog period for this process from $WATCHDOG_USEC and $WATCHDOG_PID, in ms; null without one. */
export function watchdogPeriodMs(env: Env, pid: number): number | null {
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isInteger(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID !== undefined && Number(env.WATCHDOG_PID) !== pid) return null;
  return Math.max(1, Math.floor(usec / 2000));
}

const SILENT: ServiceNotifier = {
  socket: null,
  pingEveryMs: null,
  ready() {},
  stopping() {},
  async close() {},
};

class SystemdNotifier implements ServiceNotifier {
  private readonly sender: CliSender;
  private timer: NodeJS.Timeout | null = null;
  private lastStatus = '';

  constructor(
    readonly socket: string,
    readonly pingEveryMs: number | null,
    log: Logger,
  ) {
    this.sender = new CliSender(socket, log);
  }

  ready(status: () => string): void {
    this.lastStatus = status();
    this.sender.send(['READY=1', `STATUS=${this.lastStatus}`]);
    this.timer = setInterval(() => {
      const now = status();
      const changed = now !== this.lastStatus;
      this.lastStatus = now;
      const assignments = changed ? [`STATUS=${now}`] : [];
      if (this.pingEveryMs !== null) assignments.unshift('WATCHDOG=1');
      if (assignments.length > 0) this.sender.send(assignments);
    }, this.pingEveryMs ?? STATUS_REFRESH_MS);
    // The pings keep nothing alive: a stopped service exits whatever the timer.
    this.timer.unref();
  }

  stopping(status: string): void {
    this.sender.send(['STOPPING=1', `STATUS=${status}`]);
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.sender.flushed();
  }
}

/** The notifier for this process, from (and removing) NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID of `env`. */
export function createServiceNotifier(env: Env, log: Logger, pid = process.pid): ServiceNotifier {
  const socket = env.NOTIFY_SOCKET;
  const pingEveryMs = watchdogPeriodMs(env, pid);
  for (const name of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'WATCHDOG_PID']) delete env[name];
  if (!socket) return SILENT;
  return new SystemdNotifier(socket, pingEveryMs, log);
}
