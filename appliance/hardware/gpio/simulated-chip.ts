/**
 * A GPIO chip in memory, for tests and for trying the roles on a machine without GPIO: inputs
 * rest at their inactive level until something drives them (`drive`, as a button or a sensor
 * would), outputs keep what is written and remember when (`writes`), so a test can check the
 * order of a relay switch and an upload, or the timing of a blinking LED. Edges are reported as
 * the kernel does, including the bounces a test puts on a line to check the debouncing.
 */
import { EventEmitter } from 'node:events';
import type { ChipDescription, Edge, GpioChip, GpioLine, InputOptions, Level, OutputOptions } from './chip.js';
import { HEADER_PINS, kernelNumber } from './sysfs-map.js';

export interface SimulatedWrite {
  pin: number;
  value: Level;
  /** performance.now() at the write. */
  at: number;
}

interface SimulatedLineState {
  direction: 'in' | 'out';
  activeLow: boolean;
  edge: Edge;
  /** The physical level on the wire. */
  physical: Level;
}

export class SimulatedChip extends EventEmitter<{ write: [SimulatedWrite] }> implements GpioChip {
  readonly type = 'simulated';
  readonly description: ChipDescription;
  readonly writes: SimulatedWrite[] = [];
  private readonly exported = new Map<number, SimulatedLineState>();
  private readonly watchers = new Map<number, Set<(value: Level) => void>>();

  constructor(description: ChipDescription = { label: 'simulated', base: 0, ngpio: HEADER_PINS }) {
    super();
    this.description = description;
  }

  async exportInput(pin: number, options: InputOptions): Promise<GpioLine> {
    // An input rests at its inactive level (a pull-up or pull-down holds it there).
    return this.export(pin, { direction: 'in', activeLow: options.activeLow, edge: options.edge, physical: options.activeLow ? 1 : 0 });
  }

  async exportOutput(pin: number, options: OutputOptions): Promise<GpioLine> {
    const physical = (options.activeLow ? 1 - options.initial : options.initial) as Level;
    const line = this.export(pin, { direction: 'out', activeLow: options.activeLow, edge: 'both', physical });
    this.record(pin, options.initial);
    return line;
  }

  async close(): Promise<void> {
    this.exported.clear();
    this.watchers.clear();
  }

  isExported(pin: number): boolean {
    return this.exported.has(pin);
  }

  /** The logical level of an exported line; null when it is not exported. */
  level(pin: number): Level | null {
    const state = this.exported.get(pin);
    return state ? this.logical(state) : null;
  }

  /** Puts a logical level on an input, as the device wired to it would; watchers hear the edge. */
  drive(pin: number, value: Level): void {
    const state = this.exported.get(pin);
    if (state?.direction !== 'in') throw new Error(`GPIO ${pin} is not an exported input`);
    const physical = (state.activeLow ? 1 - value : value) as Level;
    if (physical === state.physical) return;
    state.physical = physical;
    const rising = this.logical(state) === 1;
    if (state.edge === 'both' || (state.edge === 'rising') === rising) {
      for (const listener of this.watchers.get(pin) ?? []) listener(this.logical(state));
    }
  }

  private logical(state: SimulatedLineState): Level {
    return (state.activeLow ? 1 - state.physical : state.physical) as Level;
  }

  private record(pin: number, value: Level): void {
    const write = { pin, value, at: performance.now() };
    this.writes.push(write);
    this.emit('write', write);
  }

  private export(pin: number, state: SimulatedLineState): GpioLine {
    const number = kernelNumber(this.description, pin);
    if (this.exported.has(pin)) throw new Error(`GPIO ${pin} is exported already (EBUSY)`);
    this.exported.set(pin, state);
    const line: GpioLine = {
      pin,
      kernelNumber: number,
      direction: state.direction,
      read: async () => this.logical(state),
      write: async (value) => {
        if (state.direction !== 'out') throw new Error(`GPIO ${pin} is an input`);
        state.physical = (state.activeLow ? 1 - value : value) as Level;
        this.record(pin, value);
      },
      watch: (listener) => {
        const set = this.watchers.get(pin) ?? new Set();
        this.watchers.set(pin, set);
        set.add(listener);
        return () => set.delete(listener);
      },
      unexport: async () => {
        if (this.exported.get(pin) !== state) return;
        this.exported.delete(pin);
        this.watchers.delete(pin);
      },
    };
    return line;
  }
}
