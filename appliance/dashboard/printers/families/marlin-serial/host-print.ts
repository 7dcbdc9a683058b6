/**
 * One host print: a G-code file on the box streamed to the printer line by line (gcode-file.ts),
 * as fast as the printer acknowledges lines (the line sender asks `next()` whenever it may send
 * one). It reads ahead a little, counts what the printer acknowledged (bytes, lines, layers) and
 * says how far the print is and how long it should still take.
 *
 * At the end of the file the print is finished only when the printer has finished moving: an
 * `M400` follows the last line (Marlin acknowledges moves once they are queued, seconds before
 * they are done).
 *
 * Remaining time: from the last `M73 R<minutes>` the printer acknowledged when the slicer wrote
 * them (PrusaSlicer, OrcaSlicer, our engine), counted down while printing; otherwise extrapolated
 * from the time printed so far and the share of the file done (once 2 % is done). Paused time
 * counts for elapsed but not for the estimate.
 */
import type { PrintJobStatus } from '../../status.js';
import { GcodeReader, scanGcodeFile, type GcodeLine, type GcodeTotals } from './gcode-file.js';
import { parseCommand } from './gcode-state.js';
import type { LineRequest } from './line-sender.js';

/**
 * `pausing`/`resuming`: the park or return moves are on their way. The last four are ends:
 * `cancelled` by stop(), `interrupted` by a lost connection, `failed` by a printer fault.
 */
export type HostPrintState = 'printing' | 'pausing' | 'paused' | 'resuming' | 'finished' | 'cancelled' | 'interrupted' | 'failed';

export interface HostPrintHooks {
  /** Lines are ready to send (after reading ahead). */
  ready(): void;
  /** The printer acknowledged another line. */
  advanced(): void;
  /** Every line has been acknowledged. */
  finished(): void;
  /** The file could not be read. */
  unreadable(error: Error): void;
}

export interface HostPrintCounts {
  bytes_done: number;
  bytes_total: number;
  lines_done: number;
  lines_total: number;
}

const READ_AHEAD = 256;
/** Share of the file done before the time left is extrapolated from the time so far. */
const MIN_SHARE_FOR_ESTIMATE = 0.02;

export class HostPrint {
  state: HostPrintState = 'printing';
  /** Why it ended, for interrupted and failed prints. */
  reason: string | null = null;
  readonly startedAt = Date.now();
  private readonly buffer: GcodeLine[] = [];
  private reading = false;
  private endOfFile = false;
  /** The closing M400: not sent, sent, acknowledged. */
  private drain: 'no' | 'sent' | 'done' = 'no';
  private unacknowledged = 0;
  private lines = 0;
  private bytes = 0;
  private layer = 0;
  private pausedMs = 0;
  private pausedSince: number | null = null;
  private endedAt: number | null = null;
  private remainingHint: { seconds: number; activeMs: number } | null = null;

  private constructor(
    readonly file: string,
    readonly totals: GcodeTotals,
    /** Filament per tool counted before the print, to tell what it used. */
    readonly extrudedBefore: readonly number[],
    private readonly reader: GcodeReader,
    private readonly hooks: HostPrintHooks,
  ) {}

  static async open(path: string, file: string, extrudedBefore: readonly number[], hooks: HostPrintHooks): Promise<HostPrint> {
    const totals = await scanGcodeFile(path);
    const print = new HostPrint(file, totals, extrudedBefore, await GcodeReader.open(path), hooks);
    await print.readAhead();
    return print;
  }

  get active(): boolean {
    return this.state === 'printing' || this.state === 'pausing' || this.state === 'paused' || this.state === 'resuming';
  }

  /** The line sender's source: the next line while printing, else nothing. */
  next(): LineRequest | null {
    if (this.state !== 'printing') return null;
    if (this.buffer.length < READ_AHEAD / 2) void this.readAhead();
    const line = this.buffer.shift();
    if (!line) return this.endOfFile ? this.drainRequest() : null;
    this.unacknowledged++;
    return {
      command: line.command,
      done: () => this.acknowledged(line),
      // The driver decides what a lost line means for the print (interrupted, failed).
      failed: () => {
        this.unacknowledged--;
      },
    };
  }

  /** The M400 after the last line, once: its `ok` means every move is done. */
  private drainRequest(): LineRequest | null {
    if (this.drain !== 'no') return null;
    this.drain = 'sent';
    return {
      command: 'M400',
      done: () => {
        this.drain = 'done';
        this.finishIfDone();
      },
      failed: () => {
        this.drain = 'no';
      },
    };
  }

  setState(state: HostPrintState, reason: string | null = null): void {
    if (!this.active) return;
    const now = Date.now();
    const pausedNow = state === 'pausing' || state === 'paused';
    if (pausedNow && this.pausedSince === null) this.pausedSince = now;
    if (!pausedNow && this.pausedSince !== null) {
      this.pausedMs += now - this.pausedSince;
      this.pausedSince = null;
    }
    this.state = state;
    this.reason = reason;
    if (!this.active) this.end(now);
    else if (state === 'printing') this.finishIfDone();
  }

  counts(): HostPrintCounts {
    return {
      bytes_done: this.state === 'finished' ? this.totals.bytes : this.bytes,
      bytes_total: this.totals.bytes,
      lines_done: this.lines,
      lines_total: this.totals.lines,
    };
  }

  job(): PrintJobStatus {
    const now = this.endedAt ?? Date.now();
    const share = this.totals.bytes > 0 ? Math.min(1, this.bytes / this.totals.bytes) : 1;
    return {
      file: this.file,
      progress: this.state === 'finished' ? 100 : Math.floor(share * 1000) / 10,
      layer: this.totals.layers === null ? null : this.layer,
      total_layers: this.totals.layers,
      elapsed_s: Math.round((now - this.startedAt) / 1000),
      remaining_s: this.remaining(share, now),
    };
  }

  private remaining(share: number, now: number): number | null {
    if (this.state === 'finished') return 0;
    if (!this.active) return null;
    const activeMs = this.activeMs(now);
    if (this.remainingHint) return Math.max(0, Math.round(this.remainingHint.seconds - (activeMs - this.remainingHint.activeMs) / 1000));
    if (share < MIN_SHARE_FOR_ESTIMATE) return null;
    return Math.round(((activeMs / 1000) * (1 - share)) / share);
  }

  private activeMs(now: number): number {
    const paused = this.pausedMs + (this.pausedSince === null ? 0 : now - this.pausedSince);
    return now - this.startedAt - paused;
  }

  private acknowledged(line: GcodeLine): void {
    this.unacknowledged--;
    this.lines++;
    this.bytes = line.end;
    this.layer = line.layers;
    const m73 = /^M73(?!\d)/.test(line.command) ? parseCommand(line.command)?.params.get('R') : undefined;
    if (m73 !== undefined) this.remainingHint = { seconds: m73 * 60, activeMs: this.activeMs(Date.now()) };
    this.hooks.advanced();
    this.finishIfDone();
  }

  private finishIfDone(): void {
    if (this.state !== 'printing' || !this.endOfFile || this.buffer.length > 0 || this.unacknowledged > 0) return;
    if (this.drain !== 'done') {
      if (this.drain === 'no') this.hooks.ready();
      return;
    }
    this.state = 'finished';
    this.end(Date.now());
    this.hooks.finished();
  }

  private end(now: number): void {
    this.endedAt = now;
    this.buffer.length = 0;
    void this.reader.close().catch(() => undefined);
  }

  private async readAhead(): Promise<void> {
    if (this.reading || this.endOfFile || this.endedAt !== null) return;
    this.reading = true;
    try {
      while (this.buffer.length < READ_AHEAD) {
        const line = await this.reader.next();
        if (line === null) {
          this.endOfFile = true;
          break;
        }
        this.buffer.push(line);
      }
    } catch (err) {
      // A print that ended meanwhile closed the file under the read.
      if (this.endedAt === null) this.hooks.unreadable(err as Error);
      return;
    } finally {
      this.reading = false;
    }
    if (this.endedAt !== null) return;
    this.hooks.ready();
    this.finishIfDone();
  }
}
