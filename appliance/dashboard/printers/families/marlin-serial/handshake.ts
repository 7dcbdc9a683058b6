/**
 * The first exchange on a freshly opened port, before the line sender takes over:
 * 1. `N0 M110 N0*125` resets the line number. Most boards reset when the port opens (DTR) and
 *    their bootloader drops whatever arrives for a second or two, so it is repeated every
 *    `helloIntervalMs` until an `ok` comes, and at once when the firmware prints `start`.
 *    Native-USB boards do not reset and answer the first one.
 * 2. `N1 M115*…` asks for the firmware line and the capabilities. Its answer is the
 *    `FIRMWARE_NAME:` line, the `Cap:` lines, then `ok`; an `ok` before the firmware line answers
 *    a repeated M110, so only an `ok` after it ends the handshake. A firmware that reboots
 *    meanwhile, or refuses the line, starts the handshake over.
 * The sender then numbers from 2.
 */
import { frame } from './framing.js';
import { isFirmwareLine, parseFirmwareInfo, type FirmwareInfo } from './firmware-info.js';
import { classify } from './replies.js';

export interface HandshakeOptions {
  timeoutMs: number;
  helloIntervalMs: number;
  /** Names the port in the error when nothing answers. */
  describe: string;
}

/** The first line number the sender uses after the handshake. */
export const FIRST_LINE_AFTER_HANDSHAKE = 2;

export class Handshake {
  readonly result: Promise<FirmwareInfo>;
  private phase: 'hello' | 'identify' | 'done' = 'hello';
  private answer: string[] = [];
  private repeat: NodeJS.Timeout | null = null;
  private readonly deadline: NodeJS.Timeout;
  private settle!: (error: Error | null, info?: FirmwareInfo) => void;

  constructor(
    private readonly write: (line: string) => void,
    private readonly options: HandshakeOptions,
  ) {
    this.result = new Promise<FirmwareInfo>((resolve, reject) => {
      this.settle = (error, info) => {
        if (this.phase === 'done') return;
        this.phase = 'done';
        this.stopRepeating();
        clearTimeout(this.deadline);
        if (error) reject(error);
        else resolve(info as FirmwareInfo);
      };
    });
    this.deadline = setTimeout(
      () =>
        this.settle(
          new Error(`no answer to M110/M115 within ${options.timeoutMs / 1000} s on ${options.describe} (a Marlin printer, at this baud rate?)`),
        ),
      options.timeoutMs,
    );
    this.hello();
  }

  receive(line: string): void {
    if (this.phase === 'done') return;
    const reply = classify(line);
    if (reply.kind === 'start') {
      this.hello();
      return;
    }
    if (this.phase === 'hello') {
      if (reply.kind === 'ok') this.identify();
      return;
    }
    if (reply.kind === 'resend' || reply.kind === 'line-error') {
      this.hello();
      return;
    }
    if (isFirmwareLine(line)) this.answer = [line];
    else if (this.answer.length > 0 && reply.kind !== 'ok') this.answer.push(line);
    else if (this.answer.length > 0) this.settle(null, parseFirmwareInfo(this.answer));
  }

  /** Gives up (the port closed, the driver was told to disconnect). */
  cancel(reason: string): void {
    this.settle(new Error(reason));
  }

  private hello(): void {
    this.phase = 'hello';
    this.answer = [];
    this.stopRepeating();
    const send = () => this.write(frame(0, 'M110 N0'));
    send();
    this.repeat = setInterval(send, this.options.helloIntervalMs);
  }

  private identify(): void {
    this.phase = 'identify';
    this.stopRepeating();
    this.write(frame(1, 'M115'));
    // Lost on the way, or answered by something that is not Marlin: start over.
    this.repeat = setTimeout(() => this.hello(), this.options.helloIntervalMs * 3);
  }

  private stopRepeating(): void {
    if (this.repeat) clearTimeout(this.repeat);
    this.repeat = null;
  }
}
