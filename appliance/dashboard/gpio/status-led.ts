/**
 * The status LED: one look per state of the box, told apart from across a room. Idle is steady
 * on (the box is up), printing a slow blink, an error a fast one, an update a double flash (as
 * routers show a firmware update). The highest of the states wins: updating, error, printing,
 * idle.
 */
import type { GpioLine } from '../../hardware/gpio/chip.js';
import type { Logger } from '../../common/logger.js';
import type { PrinterStatus } from '../printers/status.js';

export const LED_PATTERNS = ['idle', 'printing', 'error', 'updating'] as const;
export type LedPattern = (typeof LED_PATTERNS)[number];

/** Milliseconds on, off, on, off… repeated; empty is steady on. */
export const PATTERN_TIMINGS: Readonly<Record<LedPattern, readonly number[]>> = {
  idle: [],
  printing: [1000, 1000],
  error: [150, 150],
  updating: [100, 150, 100, 650],
};

/** The pattern the printers call for: any in error, else any printing, else idle. */
export function fleetPattern(statuses: Iterable<Pick<PrinterStatus, 'state'>>): LedPattern {
  let printing = false;
  for (const status of statuses) {
    if (status.state === 'error') return 'error';
    if (status.state === 'printing' || status.state === 'preparing' || status.state === 'paused') printing = true;
  }
  return printing ? 'printing' : 'idle';
}

export class StatusLed {
  private current: LedPattern | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly line: GpioLine,
    private readonly log: Logger,
  ) {}

  get pattern(): LedPattern | null {
    return this.current;
  }

  show(pattern: LedPattern): void {
    if (pattern === this.current) return;
    this.current = pattern;
    this.halt();
    this.step(PATTERN_TIMINGS[pattern], 0);
  }

  /** Stops blinking and switches the LED off. */
  async stop(): Promise<void> {
    this.halt();
    this.current = null;
    await this.line.write(0);
  }

  private halt(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private step(timings: readonly number[], index: number): void {
    const on = timings.length === 0 || index % 2 === 0;
    this.line.write(on ? 1 : 0).catch((err: Error) => this.log.warn(`GPIO ${this.line.pin}: the status LED: ${err.message}`));
    if (timings.length === 0) return;
    this.timer = setTimeout(() => this.step(timings, (index + 1) % timings.length), timings[index]);
    this.timer.unref();
  }
}
