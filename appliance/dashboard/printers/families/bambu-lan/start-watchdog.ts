/**
 * Watches a `project_file` start until the printer shows it began. A printer can accept the
 * command and still not print (a file it cannot read, a start it dropped, a reply that was the
 * only sign of life), and a farm must not believe a print runs when none does. The start counts
 * as made when the printer reports an active state (PREPARE, SLICING, RUNNING, PAUSE); it failed
 * when the printer turns to FAILED (from another state, or with another error or file than the
 * FAILED it was in), or when neither happened within `timeoutMs` (90 s by default: some models sit
 * a while before PREPARE).
 */
import { ACTIVE_STATES, describePrintError, gcodeState, printError } from './bambu-status.js';
import type { Json } from './report-state.js';

export interface StartWatch {
  file: string;
  timeoutMs: number;
  /** The printer's state when the start was sent: a FAILED left over from before is not this start's. */
  before: Json;
  onStarted(): void;
  onFailed(reason: string): void;
}

export class StartWatchdog {
  private watch: StartWatch | null = null;
  private timer: NodeJS.Timeout | null = null;

  get watching(): boolean {
    return this.watch !== null;
  }

  arm(watch: StartWatch): void {
    this.disarm();
    this.watch = watch;
    this.timer = setTimeout(
      () => this.fail(`the printer did not start ${watch.file} within ${Math.round(watch.timeoutMs / 1000)} s`),
      watch.timeoutMs,
    );
  }

  /** A new merged state. */
  observe(print: Json): void {
    const watch = this.watch;
    if (!watch) return;
    const state = gcodeState(print);
    if (ACTIVE_STATES.has(state)) {
      this.disarm();
      watch.onStarted();
      return;
    }
    const error = printError(print);
    const { before } = watch;
    const changed = gcodeState(before) !== 'FAILED' || error !== printError(before) || print.gcode_file !== before.gcode_file;
    if (state === 'FAILED' && changed) {
      this.fail(`the printer could not start ${watch.file}: ${error === 0 ? 'it reports FAILED' : describePrintError(error)}`);
    }
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watch = null;
  }

  private fail(reason: string): void {
    const watch = this.watch;
    this.disarm();
    watch?.onFailed(reason);
  }
}
