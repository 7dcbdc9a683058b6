/**
 * The receiving side of the serial port. Bytes become lines (protocol.ts); each arriving line
 * passes the emergency parser at once (M108, M112, M410 act even while the queue is blocked) and
 * then waits in the receive buffer until the command queue has room, where Marlin's reader checks
 * line number and checksum. A bad line is answered `Error:…`, `Resend: <n>`, `ok`, and everything
 * already received after it is thrown away, as the firmware flushes its receive buffer.
 *
 * Faults enter here: a dropped line never arrives; a forced resend or checksum error refuses a
 * numbered line that was in fact fine.
 */
import type { FaultInjector } from './faults.js';
import { checkLine, LINE_ERROR_TEXT, LineSplitter, type LineError } from './protocol.js';

export type EmergencyCommand = 'M108' | 'M112' | 'M410';

export interface SerialInputHooks {
  faults: FaultInjector;
  lastLineNumber(): number;
  setLastLineNumber(n: number): void;
  /** Whether the command queue can take another line. */
  hasRoom(): boolean;
  enqueue(line: string): void;
  /** M28 is writing to the SD card (unnumbered lines other than M29 are refused then). */
  writingToSd(): boolean;
  emergency(command: EmergencyCommand): void;
  send(line: string): void;
  /** Called for every line that arrived (after a drop fault spared it). */
  arrived(): void;
}

const EMERGENCY = /^ *(?:N-?\d* *)?M(108|112|410)(?!\d)/;
/** "M29" not followed by a digit anywhere in the line, as Marlin's is_M29 matches. */
const M29 = /M29(?!\d)/;

export class SerialInput {
  private readonly hooks: SerialInputHooks;
  private readonly splitter = new LineSplitter();
  private pending: string[] = [];

  constructor(hooks: SerialInputHooks) {
    this.hooks = hooks;
  }

  /** Lines received but not yet read into the command queue. */
  get waiting(): number {
    return this.pending.length;
  }

  receive(text: string): void {
    for (const line of this.splitter.push(text)) {
      if (this.hooks.faults.strikes('drop')) continue;
      const emergency = EMERGENCY.exec(line);
      if (emergency) this.hooks.emergency(`M${emergency[1]}` as EmergencyCommand);
      this.pending.push(line);
      this.hooks.arrived();
    }
  }

  /** Moves waiting lines into the command queue while it has room. */
  pump(): void {
    while (this.pending.length > 0 && this.hooks.hasRoom()) {
      const line = this.pending.shift() as string;
      const last = this.hooks.lastLineNumber();
      const check = checkLine(line, last);
      if (!check.ok) {
        this.refuse(check.error);
        continue;
      }
      if (check.lineNumber !== null) {
        if (this.hooks.faults.strikes('checksum')) {
          this.refuse('checksum');
          continue;
        }
        if (this.hooks.faults.strikes('resend')) {
          this.requestResend();
          continue;
        }
        this.hooks.setLastLineNumber(check.lineNumber);
      } else if (this.hooks.writingToSd() && !M29.test(line)) {
        this.refuse('no-checksum');
        continue;
      }
      this.hooks.enqueue(line);
    }
  }

  /** `Resend: <last + 1>` and `ok`, after throwing away what is waiting (M999 uses it too). */
  requestResend(): void {
    this.pending = [];
    this.hooks.send(`Resend: ${this.hooks.lastLineNumber() + 1}`);
    this.hooks.send('ok');
  }

  /** Forgets everything received (reset). */
  clear(): void {
    this.pending = [];
    this.splitter.clear();
  }

  private refuse(error: LineError): void {
    this.hooks.send(`Error:${LINE_ERROR_TEXT[error]}${this.hooks.lastLineNumber()}`);
    this.requestResend();
  }
}
