/**
 * The serial port of one printer: opened with the hang-up-safe reader (hardware/serial/tty-port.ts,
 * so a pulled cable closes the port instead of leaving serialport spinning on a dead tty), read
 * line by line with ReadlineParser, written one line at a time. Latin1 both ways: one character
 * is one byte, as the firmware counts them for checksums.
 *
 * The link reports its end once: `closed(error)` when the port went away on its own (the cable,
 * the adapter, a write that failed); closing it on purpose reports nothing.
 */
import { ReadlineParser, type SerialPort } from 'serialport';
import { openTty } from '../../../../hardware/serial/tty-port.js';

export interface LinkHandlers {
  line(text: string): void;
  closed(reason: string): void;
}

export class SerialLink {
  private ended = false;

  private constructor(
    private readonly port: SerialPort,
    private readonly handlers: LinkHandlers,
  ) {
    const parser = port.pipe(new ReadlineParser({ delimiter: '\n', encoding: 'latin1' }));
    parser.on('data', (text: string) => {
      if (!this.ended) handlers.line(text.replace(/\r$/, ''));
    });
    port.on('close', (err: Error | null) => this.end(err ? err.message : 'the port closed'));
    // Errors of a port that is still open end in `close`; the rest (writes) are reported where they happen.
    port.on('error', () => undefined);
  }

  static async open(path: string, baud: number, handlers: LinkHandlers): Promise<SerialLink> {
    return new SerialLink(await openTty(path, baud), handlers);
  }

  get open(): boolean {
    return !this.ended && this.port.isOpen;
  }

  write(line: string): void {
    if (!this.open) return;
    this.port.write(Buffer.from(`${line}\n`, 'latin1'), (err) => {
      if (err) this.end(`writing to the port failed: ${err.message}`);
    });
  }

  /** Closes the port on purpose; resolves once it is released. */
  close(): Promise<void> {
    this.ended = true;
    if (!this.port.isOpen) return Promise.resolve();
    return new Promise((resolve) => this.port.close(() => resolve()));
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    if (this.port.isOpen) this.port.close(() => undefined);
    this.handlers.closed(reason);
  }
}
