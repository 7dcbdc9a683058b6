/**
 * The box's GPIO: sysfs GPIO through onoff 6. onoff numbers lines as the kernel does, so each
 * BCM number goes through the chip's base first (sysfs-map.ts). onoff works on the fixed
 * `/sys/class/gpio`; the sysfs root given here is where the chip is looked up (the same folder on
 * a box; a fake tree in tests, which then fail to export with the error the kernel would give).
 * onoff is loaded when the chip opens: its epoll addon is compiled at install and may be missing
 * on a machine without a compiler, which must not stop the dashboard.
 */
import type { ChipDescription, GpioChip, GpioLine, InputOptions, Level, OutputOptions } from './chip.js';
import { findHeaderChip, kernelNumber } from './sysfs-map.js';

type OnoffModule = typeof import('onoff');
type OnoffGpio = InstanceType<OnoffModule['Gpio']>;

export interface OnoffChipOptions {
  /** Where the chips are looked up (`/sys/class/gpio`). */
  sysfsRoot: string;
  /** The header chip's label; empty for the Raspberry Pi labels. */
  chipLabel: string;
}

class OnoffLine implements GpioLine {
  constructor(
    readonly pin: number,
    readonly kernelNumber: number,
    readonly direction: 'in' | 'out',
    private readonly gpio: OnoffGpio,
    private readonly released: (line: OnoffLine) => void,
  ) {}

  read(): Promise<Level> {
    return this.gpio.read();
  }

  write(value: Level): Promise<void> {
    if (this.direction !== 'out') return Promise.reject(new Error(`GPIO ${this.pin} is an input`));
    return this.gpio.write(value);
  }

  watch(listener: (value: Level) => void): () => void {
    const callback = (err: Error | null | undefined, value: Level) => {
      if (!err) listener(value);
    };
    this.gpio.watch(callback);
    return () => this.gpio.unwatch(callback);
  }

  async unexport(): Promise<void> {
    this.released(this);
    this.gpio.unwatchAll();
    this.gpio.unexport();
  }
}

export class OnoffChip implements GpioChip {
  readonly type = 'onoff';
  private readonly lines = new Set<OnoffLine>();

  private constructor(
    readonly description: ChipDescription,
    private readonly onoff: OnoffModule,
  ) {}

  /** Finds the header chip and loads onoff; throws saying which of the two is missing. */
  static async open(options: OnoffChipOptions): Promise<OnoffChip> {
    const { path: _path, ...description } = await findHeaderChip(options.sysfsRoot, options.chipLabel);
    let onoff: OnoffModule;
    try {
      onoff = await import('onoff');
    } catch (err) {
      throw new Error(`onoff does not load: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new OnoffChip(description, onoff);
  }

  async exportInput(pin: number, options: InputOptions): Promise<GpioLine> {
    const gpio = new this.onoff.Gpio(kernelNumber(this.description, pin), 'in', options.edge, { activeLow: options.activeLow });
    return this.keep(new OnoffLine(pin, kernelNumber(this.description, pin), 'in', gpio, (line) => this.lines.delete(line)));
  }

  async exportOutput(pin: number, options: OutputOptions): Promise<GpioLine> {
    // 'high'/'low' set the level together with the direction, so a relay never glitches on at export.
    // The kernel takes them as raw levels (active_low does not apply), hence the inversion here.
    // A line that is an output already (a dashboard restarted) keeps its level: no reconfiguring.
    const raw = options.activeLow ? 1 - options.initial : options.initial;
    const gpio = new this.onoff.Gpio(kernelNumber(this.description, pin), raw === 1 ? 'high' : 'low', 'none', {
      activeLow: options.activeLow,
      reconfigureDirection: false,
    });
    return this.keep(new OnoffLine(pin, kernelNumber(this.description, pin), 'out', gpio, (line) => this.lines.delete(line)));
  }

  async close(): Promise<void> {
    for (const line of [...this.lines]) await line.unexport();
  }

  private keep(line: OnoffLine): OnoffLine {
    this.lines.add(line);
    return line;
  }
}
