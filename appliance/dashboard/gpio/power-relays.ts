/**
 * A power relay per printer, as OctoPrint's PSU Control switches a printer's supply: on before a
 * print is sent (printers/power.ts asks), off once the print has ended and the hottest hot end has
 * cooled below the relay's `off_below_c`, `off_delay_s` later (the fans of the hot end need the
 * supply until then; a new print within the delay keeps it on). Only the end of a print switches
 * a relay off: one an admin switched on stays on until switched off.
 */
import type { GpioLine, Level } from '../../hardware/gpio/chip.js';
import type { Logger } from '../../common/logger.js';
import type { PowerSwitch } from '../printers/power.js';
import type { PrinterStatus } from '../printers/status.js';
import type { PinConfig } from './config.js';

const PRINTING_STATES = new Set<PrinterStatus['state']>(['preparing', 'printing', 'paused']);
/** States in which a printer reports a print as over (offline and connecting tell nothing). */
const ENDED_STATES = new Set<PrinterStatus['state']>(['idle', 'finished', 'error']);

/** Where a relay is in its cycle: `printing` covers a dispatch on its way too. */
export type RelayPhase = 'idle' | 'printing' | 'cooling' | 'cooled';

interface Relay {
  config: PinConfig;
  line: GpioLine;
  on: boolean;
  phase: RelayPhase;
  timer: NodeJS.Timeout | null;
  /** The hottest hot end last reported, °C; null before a report. */
  hottest: number | null;
}

export interface RelayView {
  on: boolean;
  phase: RelayPhase;
  hottest_c: number | null;
}

/** The hottest hot end (`tool0`, `tool1`…) of a status; null when it reports none. */
export function hottestHotend(status: Pick<PrinterStatus, 'temperatures'>): number | null {
  const tools = Object.entries(status.temperatures)
    .filter(([name]) => /^tool\d+$/.test(name))
    .map(([, t]) => t.actual);
  return tools.length === 0 ? null : Math.max(...tools);
}

export class PowerRelays implements PowerSwitch {
  private readonly relays = new Map<string, Relay>();

  constructor(private readonly log: Logger) {}

  add(config: PinConfig, line: GpioLine, level: Level): void {
    if (config.printer_id === null) return;
    this.relays.set(config.printer_id, { config, line, on: level === 1, phase: 'idle', timer: null, hottest: null });
  }

  /** Forgets every relay (the lines are released by their owner); pending switch-offs are cancelled. */
  clear(): void {
    for (const relay of this.relays.values()) this.cancel(relay);
    this.relays.clear();
  }

  view(printerId: string): RelayView | null {
    const relay = this.relays.get(printerId);
    return relay ? { on: relay.on, phase: relay.phase, hottest_c: relay.hottest } : null;
  }

  async beforeStart(printerId: string): Promise<void> {
    const relay = this.relays.get(printerId);
    if (!relay) return;
    this.cancel(relay);
    relay.phase = 'printing';
    if (relay.on) return;
    await this.set(relay, true, 'a print is about to start');
  }

  /** An admin's switch: also ends any wait for a cool-down. */
  async switchTo(printerId: string, on: boolean, by: string): Promise<void> {
    const relay = this.relays.get(printerId);
    if (!relay) return;
    this.cancel(relay);
    relay.phase = 'idle';
    await this.set(relay, on, `switched by ${by}`);
  }

  /** Cuts the supply at once (an emergency stop). */
  async cut(printerId: string, why: string): Promise<boolean> {
    const relay = this.relays.get(printerId);
    if (!relay) return false;
    this.cancel(relay);
    relay.phase = 'idle';
    await this.set(relay, false, why);
    return true;
  }

  /** Follows a printer's reports: the end of a print, then its cool-down. */
  onStatus(status: PrinterStatus): void {
    const relay = this.relays.get(status.printer_id);
    if (!relay) return;
    relay.hottest = hottestHotend(status) ?? relay.hottest;
    if (status.online && PRINTING_STATES.has(status.state)) {
      this.cancel(relay);
      relay.phase = 'printing';
      return;
    }
    if (relay.phase === 'printing' && status.online && ENDED_STATES.has(status.state)) relay.phase = 'cooling';
    if (relay.phase !== 'cooling' && relay.phase !== 'cooled') return;
    const limit = relay.config.off_below_c ?? 0;
    const cool = relay.hottest === null || relay.hottest < limit;
    if (cool && relay.phase === 'cooling') {
      relay.phase = 'cooled';
      const delay = (relay.config.off_delay_s ?? 0) * 1000;
      relay.timer = setTimeout(() => {
        relay.timer = null;
        relay.phase = 'idle';
        this.set(relay, false, `the print ended and the hot end cooled below ${limit} °C`).catch((err: Error) =>
          this.log.error(`GPIO ${relay.config.pin}: the power relay of printer ${status.printer_id} did not switch off: ${err.message}`),
        );
      }, delay);
      relay.timer.unref();
    } else if (!cool && relay.phase === 'cooled') {
      this.cancel(relay);
      relay.phase = 'cooling';
    }
  }

  private cancel(relay: Relay): void {
    if (relay.timer) clearTimeout(relay.timer);
    relay.timer = null;
  }

  private async set(relay: Relay, on: boolean, why: string): Promise<void> {
    await relay.line.write(on ? 1 : 0);
    relay.on = on;
    this.log.info(`GPIO ${relay.config.pin}: power of printer ${relay.config.printer_id} ${on ? 'on' : 'off'}: ${why}`);
  }
}
