/**
 * The virtual Marlin printer: the firmware model behind a socat pty pair. Start it, give a host
 * `hostPath`, and drive faults at run time: rates and one-shot faults, pulling and putting back
 * the cable, switching the auto-report capabilities off. `state()` shows the machine.
 *
 * When a host opens the port the firmware resets (`resetOnOpen`, like a board with a USB-serial
 * chip whose DTR line resets the MCU) and the boot banner follows; with `resetOnOpen: false` it
 * behaves like a native-USB board that keeps running when a host connects.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../../appliance/common/logger.js';
import { SimClock } from './clock.js';
import { FaultInjector, type FaultKind, type FaultRates } from './faults.js';
import { MarlinFirmware } from './firmware.js';
import { defaultFirmwareSettings, uuidFor, type FirmwareSettings } from './firmware-settings.js';
import { PtyLink } from './pty-transport.js';
import { snapshot, type VirtualPrinterState } from './snapshot.js';

/** After a random `disconnect` fault the cable goes back in this much simulated time later. */
export const REPLUG_AFTER_MS = 5000;

export interface VirtualMarlinOptions {
  /** Folder for the `printer` and `host` links (created when missing). */
  dir: string;
  /** Simulated seconds per real second. */
  speed?: number;
  faults?: Partial<FaultRates>;
  /** Seed of the random fault decisions. */
  seed?: number;
  resetOnOpen?: boolean;
  firmware?: Partial<FirmwareSettings>;
  /** Files on the SD card at power-up, by (long) name. */
  sdFiles?: Record<string, string | Buffer>;
  /** Gets the wire traffic at debug level and problems at warn level. */
  log?: Logger;
  /** socat executable. */
  socat?: string;
}

export interface VirtualMarlinEvents {
  /** A line the printer wrote (whether or not a host was there to read it). */
  sent: [line: string];
  /** Text the printer received. */
  received: [text: string];
  /** The firmware finished booting (power-up, reset by a host opening the port). */
  booted: [];
  'host-open': [];
  'host-close': [];
  error: [err: Error];
}

export class VirtualMarlin extends EventEmitter<VirtualMarlinEvents> {
  readonly clock: SimClock;
  readonly hostPath: string;
  readonly resetOnOpen: boolean;
  private readonly firmware: MarlinFirmware;
  private readonly link: PtyLink;
  private readonly faults: FaultInjector;
  private readonly log: Logger | undefined;
  private stopped = false;

  private constructor(options: VirtualMarlinOptions) {
    super();
    this.clock = new SimClock(options.speed ?? 1);
    this.resetOnOpen = options.resetOnOpen ?? true;
    this.log = options.log;
    this.faults = new FaultInjector(options.faults, options.seed);
    this.link = new PtyLink(options.dir, options.socat);
    this.hostPath = this.link.hostPath;
    const settings = defaultFirmwareSettings({ uuid: uuidFor(this.link.hostPath), ...options.firmware });
    this.firmware = new MarlinFirmware(settings, this.clock, this.faults, {
      send: (line) => this.transmit(line),
      lineArrived: () => this.maybeDisconnect(),
      booted: () => this.emit('booted'),
      crashed: (err) => this.fail(err instanceof Error ? err : new Error(String(err))),
    });
    for (const [name, content] of Object.entries(options.sdFiles ?? {})) this.firmware.sd.put(name, content);
    this.link.on('data', (text) => {
      this.log?.debug('recv', { text: text.trimEnd() });
      this.emit('received', text);
      this.firmware.receive(text);
    });
    this.link.on('host-open', () => {
      this.log?.info('host opened the port');
      if (this.resetOnOpen) this.firmware.reset(' External Reset');
      this.emit('host-open');
    });
    this.link.on('host-close', () => {
      this.log?.info('host closed the port');
      this.emit('host-close');
    });
    this.link.on('error', (err) => this.fail(err));
  }

  /** Powers the printer on and plugs its cable in; resolves when a host can open `hostPath`. */
  static async start(options: VirtualMarlinOptions): Promise<VirtualMarlin> {
    const printer = new VirtualMarlin(options);
    printer.firmware.reset('PowerUp');
    try {
      await printer.link.plug();
    } catch (err) {
      await printer.stop();
      throw err;
    }
    return printer;
  }

  state(): VirtualPrinterState {
    return snapshot(this.firmware, { plugged: this.link.cablePlugged, hostConnected: this.link.hostConnected });
  }

  /** The content of a file on the SD card, by short or long name. */
  sdFile(name: string): Buffer | undefined {
    return this.firmware.sd.list().find((f) => f.longName === name || f.shortName === name.toUpperCase())?.content;
  }

  /** Puts a file on the SD card, as if it had been copied there on a PC. */
  putSdFile(name: string, content: string | Buffer): void {
    this.firmware.sd.put(name, content);
  }

  get faultRates(): FaultRates {
    return this.faults.rates;
  }

  /** Changes fault rates (0..1); kinds not given keep their rate. */
  setFaults(rates: Partial<FaultRates>): void {
    this.faults.set(rates);
  }

  /** The next `count` eligible lines or commands get this fault for sure. */
  injectFault(kind: FaultKind, count = 1): void {
    this.faults.force(kind, count);
  }

  /** Switches the AUTOREPORT_TEMP / AUTOREPORT_SD_STATUS capabilities (off: hosts must poll). */
  setAutoReport(enabled: boolean): void {
    this.firmware.setAutoReport(enabled);
  }

  /** Pulls the cable: the host's port fails and the path disappears. The printer keeps running. */
  async disconnect(): Promise<void> {
    this.log?.info('cable pulled');
    await this.link.unplug();
  }

  /** Puts the cable back; resolves when the host can open the port again. */
  async reconnect(): Promise<void> {
    if (this.stopped) return;
    this.log?.info('cable plugged back');
    await this.link.plug();
  }

  /** Resolves when a host can open the port (after start, a host's close, or reconnect). */
  whenReady(): Promise<void> {
    return this.link.whenReady();
  }

  /** Resolves when the firmware is up and reads commands (it is not while booting or halted). */
  whenBooted(): Promise<void> {
    if (this.firmware.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.once('booted', () => resolve()));
  }

  /** Switches the printer off and on again: the firmware reboots and prints its banner. */
  powerCycle(): void {
    this.firmware.reset('PowerUp');
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.firmware.powerOff();
    await this.link.unplug();
    this.clock.dispose();
  }

  private transmit(line: string): void {
    this.emit('sent', line);
    if (this.link.write(`${line}\n`)) this.log?.debug('send', { line });
  }

  private maybeDisconnect(): void {
    if (!this.faults.strikes('disconnect') || !this.link.cablePlugged) return;
    void this.disconnect().then(() => {
      this.clock.after(REPLUG_AFTER_MS, () => {
        this.reconnect().catch((err: Error) => this.fail(err));
      });
    });
  }

  private fail(err: Error): void {
    this.log?.warn(`virtual Marlin: ${err.message}`);
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }
}
