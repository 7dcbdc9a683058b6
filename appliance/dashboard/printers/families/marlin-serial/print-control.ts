/**
 * Starting, pausing, resuming and stopping prints on a Marlin printer.
 *
 * Host prints (host-print.ts): `start` streams a file stored on the box; pause stops the stream,
 * lets the line in flight finish, reads the position and parks; resume returns and streams on;
 * stop ends the stream, parks and makes the printer safe (print-scripts.ts). A stop during a
 * heat-up wait first breaks the wait with M108 (Cap:EMERGENCY_PARSER), or it would only act once
 * the temperature is reached. An interrupted or failed print is ended by `stop` too: the
 * heaters, fan and motors go off (no park: where the head is after a reset is unknown) and the
 * printer is idle again; or `start` begins another print.
 *
 * Prints the printer runs from its own SD card (started on its screen) are followed through
 * its SD status and controlled with M25 (pause), M24 (resume) and M524 (stop: the firmware
 * switches the heaters off and homes X/Y itself).
 *
 * A pause or resume asked while the other is still on its way (parking, returning) waits for
 * it to finish. Refused with 409: a start while a print runs, is paused or the printer reports
 * a fault; pause, resume and stop when the print is not in a state they apply to.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import type { FirmwareInfo } from './firmware-info.js';
import { isHeatWait } from './framing.js';
import type { GcodeState } from './gcode-state.js';
import { HostPrint, type HostPrintState } from './host-print.js';
import type { LineSender } from './line-sender.js';
import type { LiveState } from './marlin-status.js';
import { parkCommands, returnCommands, safeCommands, type PausedAt } from './print-scripts.js';
import type { PrinterFiles } from './printer-files.js';
import { parsePosition } from './replies.js';

export interface PrintContext {
  /** The connection's sender; 503 while offline. */
  sender(): LineSender;
  firmware(): FirmwareInfo | null;
  readonly gcode: GcodeState;
  readonly live: LiveState;
  readonly files: PrinterFiles;
  /** Status and progress, now. */
  publish(): void;
  /** The print moved on (progress, rate-limited). */
  advanced(): void;
  /** A print reached its end (finished, cancelled, interrupted, failed). */
  ended(print: HostPrint): void;
  info(line: string): void;
  error(error: Error): void;
}

/** The state now: a stop or a lost connection may have changed it during an await. */
function stateOf(print: HostPrint): HostPrintState {
  return print.state;
}

function conflict(message: string): AppError {
  return new AppError(ErrorCode.conflict, 409, message);
}

export class PrintControl {
  private pausedAt: PausedAt | null = null;
  private starting = false;
  /** The pause or resume on its way. */
  private transition: Promise<void> | null = null;

  constructor(private readonly ctx: PrintContext) {}

  async start(name: string): Promise<void> {
    const { live } = this.ctx;
    const sender = this.ctx.sender();
    if (this.starting) throw conflict('another print is being started on this printer');
    if (live.fault) throw conflict(`the printer reports a fault (${live.fault}); reset it before printing`);
    if (live.print?.active) throw conflict(`the printer is busy with ${live.print.file} (${live.print.state})`);
    if (live.sd && !live.sd.finished) throw conflict('the printer is printing from its SD card');
    this.starting = true;
    try {
      const path = await this.ctx.files.find(name);
      const print = await HostPrint.open(path, name, this.ctx.gcode.extrudedMm(), {
        ready: () => sender.pump(),
        advanced: () => this.ctx.advanced(),
        finished: () => this.ended(print),
        unreadable: (err) => {
          print.setState('failed', `reading ${name} failed: ${err.message}`);
          this.ctx.error(new Error(print.reason ?? err.message));
          this.ended(print);
        },
      });
      this.pausedAt = null;
      live.print = print;
      live.sd = null;
      sender.setSource(() => print.next());
      this.ctx.info(`printing ${name} from the box: ${print.totals.lines} lines, ${print.totals.bytes} bytes`);
      this.ctx.publish();
    } finally {
      this.starting = false;
    }
  }

  async pause(): Promise<void> {
    await this.transition;
    const { live } = this.ctx;
    const sender = this.ctx.sender();
    if (this.sdPrinting()) return this.sdControl('M25', false, true);
    const print = live.print;
    if (print?.state !== 'printing') throw conflict(`cannot pause: ${this.describe()}`);
    return this.during(async () => {
      print.setState('pausing');
      this.ctx.publish();
      // Sent after the ok of the print line in flight: the stream gives no more lines now.
      const position = (await sender.send('M114')).map(parsePosition).find((p) => p !== null) ?? null;
      if (stateOf(print) !== 'pausing') return;
      if (position) {
        this.pausedAt = { position, modes: this.ctx.gcode.modes() };
        await sender.sendAll(parkCommands());
      } else {
        this.pausedAt = null;
        this.ctx.info('M114 gave no position: paused without parking');
      }
      if (stateOf(print) !== 'pausing') return;
      print.setState('paused');
      this.ctx.publish();
    });
  }

  async resume(): Promise<void> {
    await this.transition;
    const { live } = this.ctx;
    const sender = this.ctx.sender();
    if (live.sd?.pausedHere && !live.print?.active) return this.sdControl('M24', true, false);
    const print = live.print;
    if (print?.state !== 'paused') throw conflict(`cannot resume: ${this.describe()}`);
    return this.during(async () => {
      print.setState('resuming');
      this.ctx.publish();
      if (this.pausedAt) await sender.sendAll(returnCommands(this.pausedAt));
      if (stateOf(print) !== 'resuming') return;
      this.pausedAt = null;
      print.setState('printing');
      sender.pump();
      this.ctx.publish();
    });
  }

  async stop(): Promise<void> {
    const { live } = this.ctx;
    const sender = this.ctx.sender();
    const firmware = this.ctx.firmware();
    const safe = safeCommands(firmware?.extruders ?? 1, firmware?.capabilities.CHAMBER_TEMPERATURE === true);
    if (this.sdPrinting()) {
      await sender.send('M524');
      live.sd = null;
      this.ctx.publish();
      return;
    }
    const print = live.print;
    if (print && (print.state === 'interrupted' || print.state === 'failed')) {
      await sender.sendAll(safe);
      live.print = null;
      this.ctx.publish();
      return;
    }
    if (!print?.active) throw conflict(`cannot stop: ${this.describe()}`);
    const parked = print.state === 'paused' || print.state === 'pausing';
    const inFlight = sender.inFlight;
    print.setState('cancelled');
    this.pausedAt = null;
    this.ended(print);
    if (inFlight && isHeatWait(inFlight) && firmware?.capabilities.EMERGENCY_PARSER) {
      // Its answer is the wait's end; a lost connection is reported on its own.
      sender.sendUrgent('M108').catch(() => undefined);
    }
    await sender.sendAll([...(parked ? [] : parkCommands()), ...safe]);
  }

  /** Runs a pause or resume; the next one waits for it (whatever its outcome). */
  private during(work: () => Promise<void>): Promise<void> {
    const running = work();
    const settled = running.catch(() => undefined);
    this.transition = settled;
    void settled.then(() => {
      if (this.transition === settled) this.transition = null;
    });
    return running;
  }

  private sdPrinting(): boolean {
    const { live } = this.ctx;
    return live.sd !== null && !live.sd.finished && !live.print?.active;
  }

  private async sdControl(command: 'M24' | 'M25', pausedBefore: boolean, pausedAfter: boolean): Promise<void> {
    const sd = this.ctx.live.sd;
    if (!sd || sd.pausedHere !== pausedBefore) throw conflict(`cannot ${pausedAfter ? 'pause' : 'resume'}: ${this.describe()}`);
    await this.ctx.sender().send(command);
    sd.pausedHere = pausedAfter;
    this.ctx.publish();
  }

  private ended(print: HostPrint): void {
    this.ctx.ended(print);
    this.ctx.publish();
  }

  private describe(): string {
    const { print, sd } = this.ctx.live;
    if (print?.active) return `the print of ${print.file} is ${print.state}`;
    if (sd && !sd.finished) return `the SD print is ${sd.pausedHere ? 'paused' : 'printing'}`;
    if (print) return `the last print (${print.file}) is ${print.state}`;
    return 'nothing is printing';
  }
}
