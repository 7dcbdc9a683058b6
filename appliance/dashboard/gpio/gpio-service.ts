/**
 * The box's pins at work: the chip (settings `gpio.type`, opened at start; a box without GPIO
 * says why and the rest of the dashboard runs), the pin map of `gpio.json` (config.ts), and the
 * roles on their lines: power relays (power-relays.ts, which printers/power.ts asks before every
 * start), debounced inputs (input-actions.ts) and the status LED (status-led.ts), which follow
 * the printers' reports on the bus. A pin whose line cannot be exported is shown with the reason;
 * the other pins work.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore } from '../../common/json-store.js';
import type { ChipDescription, GpioChip, GpioLine, Level } from '../../hardware/gpio/chip.js';
import { debounceInput, type DebouncedInput } from '../../hardware/gpio/debounce.js';
import { openChip } from '../../hardware/gpio/open-chip.js';
import type { DashboardContext } from '../feature.js';
import type { NotificationCenter } from '../notifications/center.js';
import type { Printers } from '../printers/feature.js';
import { PrinterControl } from '../printers/control.js';
import type { PrinterStatus } from '../printers/status.js';
import { checkGpioConfig, EMPTY_GPIO_CONFIG, isInputRole, storedPin, type GpioConfig, type InputRole, type PinConfig } from './config.js';
import { actOnInput, type InputActions } from './input-actions.js';
import { PowerRelays, type RelayView } from './power-relays.js';
import { fleetPattern, StatusLed, type LedPattern } from './status-led.js';

export type GpioContext = Pick<DashboardContext, 'bus' | 'log' | 'settings' | 'stores'>;

export interface GpioDeps {
  printers: Printers;
  notifications: NotificationCenter;
  /** Confirms a printer's plate clear and runs a dispatch round (the queue's). */
  plateCleared(printerId: string, by: string): Promise<unknown>;
  /** A chip of the caller's (tests: a simulated chip); else the one the settings name. */
  chip?: GpioChip;
}

interface ActivePin {
  config: PinConfig;
  line: GpioLine | null;
  problem: string | null;
  input: DebouncedInput | null;
}

export interface PinView {
  pin: number;
  kernel_number: number | null;
  role: PinConfig['role'];
  printer_id: string | null;
  printer_name: string | null;
  direction: 'in' | 'out';
  active_low: boolean;
  /** The logical level (1 = active, on); null when the line is not exported. */
  value: Level | null;
  problem: string | null;
  relay: RelayView | null;
}

export interface GpioView {
  available: boolean;
  type: string;
  chip: ChipDescription | null;
  /** Why there is no chip, or why gpio.json was not applied. */
  problem: string | null;
  led: { pattern: LedPattern | null; override: LedPattern | null } | null;
  pins: PinView[];
}

interface StoredConfig {
  pins: Array<Record<string, unknown>>;
}

export class GpioService {
  readonly relays: PowerRelays;
  private chip: GpioChip | null = null;
  private chipProblem: string | null = null;
  private configProblem: string | null = null;
  private store: JsonStore<StoredConfig> | null = null;
  private pins: ActivePin[] = [];
  private led: StatusLed | null = null;
  private ledOverride: LedPattern | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly control: PrinterControl;

  constructor(
    private readonly ctx: GpioContext,
    private readonly deps: GpioDeps,
  ) {
    this.relays = new PowerRelays(ctx.log.child('gpio'));
    this.control = new PrinterControl(deps.printers.fleet, deps.printers.manager);
  }

  private get log() {
    return this.ctx.log.child('gpio');
  }

  async start(): Promise<void> {
    const settings = this.ctx.settings.current.gpio;
    const opened = this.deps.chip
      ? { chip: this.deps.chip, problem: null }
      : await openChip({ type: settings.type, sysfsRoot: settings.sysfs_root, chipLabel: settings.chip_label });
    this.chip = opened.chip;
    this.chipProblem = opened.problem;
    if (opened.problem) this.log.info(`no GPIO: ${opened.problem}`);
    this.store = await this.ctx.stores.open<StoredConfig>('gpio', { pins: [] }, (data) =>
      Array.isArray((data as Partial<StoredConfig> | null)?.pins) ? null : 'expected {"pins": [...]}',
    );
    let config = EMPTY_GPIO_CONFIG;
    try {
      config = checkGpioConfig(this.store.data, (id) => this.printerExists(id), 'gpio.json: ');
    } catch (err) {
      this.configProblem = err instanceof Error ? err.message : String(err);
      this.log.error(`the pin map is not applied: ${this.configProblem}`);
    }
    await this.apply(config);
    this.unsubscribe = this.ctx.bus.on('printer.status', (status) => {
      this.relays.onStatus(status);
      this.refreshLed();
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.release();
    await this.chip?.close();
  }

  /** The pin map as stored (each pin with its role's keys). */
  config(): GpioConfig {
    return { pins: this.pins.map((p) => p.config) };
  }

  /** Replaces the pin map: checked (400 naming the pin and role), stored, then applied. */
  async setConfig(input: unknown): Promise<GpioConfig> {
    const config = checkGpioConfig(input, (id) => this.printerExists(id), 'body/');
    const store = this.requireStore();
    store.data = { pins: config.pins.map(storedPin) };
    await store.write();
    this.configProblem = null;
    await this.release();
    await this.apply(config);
    return this.config();
  }

  async view(): Promise<GpioView> {
    const names = new Map<string, string>();
    try {
      for (const printer of this.deps.printers.fleet.list()) names.set(printer.id, printer.name);
    } catch {
      // The printers are not open: ids without names.
    }
    const pins = await Promise.all(
      this.pins.map(async ({ config, line, problem }): Promise<PinView> => {
        let value: Level | null = null;
        let readProblem = problem;
        if (line) {
          try {
            value = await line.read();
          } catch (err) {
            readProblem = `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
          }
        }
        return {
          pin: config.pin,
          kernel_number: line?.kernelNumber ?? null,
          role: config.role,
          printer_id: config.printer_id,
          printer_name: config.printer_id === null ? null : (names.get(config.printer_id) ?? null),
          direction: isInputRole(config.role) ? 'in' : 'out',
          active_low: config.active_low,
          value,
          problem: readProblem,
          relay: config.role === 'power_relay' && config.printer_id !== null ? this.relays.view(config.printer_id) : null,
        };
      }),
    );
    return {
      available: this.chip !== null,
      type: this.chip?.type ?? this.ctx.settings.current.gpio.type,
      chip: this.chip?.description ?? null,
      problem: this.chipProblem ?? this.configProblem,
      led: this.led ? { pattern: this.led.pattern, override: this.ledOverride } : null,
      pins,
    };
  }

  /** An admin switches a power relay: 404 for a pin not in the map, 409 for any other role. */
  async switchPin(pinNumber: number, on: boolean, by: string): Promise<PinView> {
    const pin = this.pins.find((p) => p.config.pin === pinNumber);
    if (!pin) throw new AppError(ErrorCode.notFound, 404, `GPIO ${pinNumber} is not in the pin map`);
    if (pin.config.role !== 'power_relay' || pin.config.printer_id === null) {
      const hint = pin.config.role === 'status_led' ? ': the status LED follows its pattern (PUT /api/hardware/gpio/led)' : '';
      throw new AppError(ErrorCode.conflict, 409, `GPIO ${pinNumber} is a ${pin.config.role} pin, not a power relay${hint}`);
    }
    if (!pin.line) throw new AppError(ErrorCode.unavailable, 503, `GPIO ${pinNumber} is not available: ${pin.problem}`);
    await this.relays.switchTo(pin.config.printer_id, on, by);
    const view = (await this.view()).pins.find((p) => p.pin === pinNumber);
    if (!view) throw new AppError(ErrorCode.internal, 500, `GPIO ${pinNumber} vanished from the pin map`);
    return view;
  }

  /** Shows a pattern whatever the printers say (an update in progress), or follows them again (null). */
  setLedOverride(pattern: LedPattern | null): GpioView['led'] {
    if (!this.led) throw new AppError(ErrorCode.conflict, 409, 'the pin map has no working status_led pin');
    this.ledOverride = pattern;
    this.refreshLed();
    return { pattern: this.led.pattern, override: this.ledOverride };
  }

  info(): Record<string, unknown> {
    return {
      available: this.chip !== null,
      type: this.chip?.type ?? this.ctx.settings.current.gpio.type,
      chip: this.chip?.description ?? null,
      problem: this.chipProblem ?? this.configProblem,
      pins: this.pins.length,
      pin_problems: this.pins.filter((p) => p.problem !== null).length,
    };
  }

  private printerExists(id: string): boolean {
    return this.deps.printers.fleet.find(id) !== null;
  }

  private requireStore(): JsonStore<StoredConfig> {
    if (!this.store) throw new AppError(ErrorCode.unavailable, 503, 'the GPIO feature is not started');
    return this.store;
  }

  private async apply(config: GpioConfig): Promise<void> {
    for (const pin of config.pins) this.pins.push(await this.activate(pin));
    this.refreshLed();
  }

  private async activate(config: PinConfig): Promise<ActivePin> {
    const active: ActivePin = { config, line: null, problem: null, input: null };
    if (!this.chip) return { ...active, problem: `no GPIO: ${this.chipProblem}` };
    try {
      if (isInputRole(config.role)) {
        active.line = await this.chip.exportInput(config.pin, { activeLow: config.active_low, edge: 'both' });
        const role = config.role;
        active.input = await debounceInput(active.line, config.debounce_ms ?? 0, (level) => {
          if (level === 1) this.onInput({ ...config, role });
        });
      } else {
        active.line = await this.chip.exportOutput(config.pin, { activeLow: config.active_low, initial: 0 });
        if (config.role === 'power_relay') this.relays.add(config, active.line, await active.line.read());
        else this.led = new StatusLed(active.line, this.log);
      }
    } catch (err) {
      active.problem = err instanceof Error ? err.message : String(err);
      this.log.warn(`GPIO ${config.pin} (${config.role}) is not available: ${active.problem}`);
    }
    return active;
  }

  private async release(): Promise<void> {
    this.relays.clear();
    await this.led?.stop();
    this.led = null;
    for (const pin of this.pins) {
      pin.input?.stop();
      await pin.line?.unexport();
    }
    this.pins = [];
  }

  private refreshLed(): void {
    if (!this.led) return;
    let statuses: PrinterStatus[] = [];
    try {
      statuses = this.deps.printers.fleet.list().map((p) => p.status);
    } catch {
      // The printers are not open: idle.
    }
    this.led.show(this.ledOverride ?? fleetPattern(statuses));
  }

  private onInput(pin: PinConfig & { role: InputRole }): void {
    actOnInput(pin, this.actions())
      .then((done) => this.log.info(`GPIO ${pin.pin} (${pin.role}) active: ${done}`))
      .catch((err: Error) => this.log.error(`GPIO ${pin.pin} (${pin.role}): ${err.message}`));
  }

  private actions(): InputActions {
    return {
      printers: () => this.deps.printers.fleet.list().map((p) => ({ id: p.id, name: p.name, state: p.state })),
      pause: (id) => this.control.control(id, 'pause'),
      stop: (id) => this.control.control(id, 'stop'),
      cutPower: (id, why) => this.relays.cut(id, why),
      plateCleared: async (id, by) => {
        await this.deps.plateCleared(id, by);
      },
      notify: (input) => this.deps.notifications.notify(input),
    };
  }
}
