/**
 * What a driver reports, recorded the way the manager would receive it: statuses, progress, AMS
 * updates, identity, log lines, errors and disconnections, with waits for the one a test expects
 * (a wait fails after a while instead of hanging). Shared by the driver tests.
 */
import type { DisconnectReason, DriverEvents, DriverLogLine } from '../../../../appliance/dashboard/printers/driver.js';
import type { PrinterIdentity } from '../../../../appliance/dashboard/printers/printer.js';
import type { AmsUpdate, PrinterStatus, PrintProgress } from '../../../../appliance/dashboard/printers/status.js';

export class RecordedEvents implements DriverEvents {
  readonly statuses: PrinterStatus[] = [];
  readonly progresses: PrintProgress[] = [];
  readonly amsUpdates: AmsUpdate[] = [];
  readonly identities: PrinterIdentity[] = [];
  readonly logs: DriverLogLine[] = [];
  readonly errors: Error[] = [];
  readonly disconnects: DisconnectReason[] = [];
  private waiters: Array<() => void> = [];

  status = (s: PrinterStatus): void => this.push(this.statuses, s);
  progress = (p: PrintProgress): void => this.push(this.progresses, p);
  ams = (a: AmsUpdate): void => this.push(this.amsUpdates, a);
  identity = (i: PrinterIdentity): void => this.push(this.identities, i);
  log = (l: DriverLogLine): void => this.push(this.logs, l);
  error = (e: Error): void => this.push(this.errors, e);
  disconnected = (r: DisconnectReason): void => this.push(this.disconnects, r);

  /** Waits until `check` holds (re-checked on every event and every 50 ms), up to `timeoutMs`. */
  async until<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private push<T>(list: T[], item: T): void {
    list.push(item);
    for (const wake of this.waiters.splice(0)) wake();
  }
}
