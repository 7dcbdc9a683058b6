/**
 * The GPIO interface the dashboard's roles use: a chip hands out lines by BCM number (the
 * numbers printed on Raspberry Pi pinout charts), each exported as an input that reports edges or
 * as an output. Values are logical: 1 is active, so an active-low wiring (a relay board that
 * switches on a low level, a button to ground with a pull-up) is said once, when the line is
 * exported, and never again. Implementations: `onoff-chip.ts` (sysfs GPIO through onoff, for the
 * box) and `simulated-chip.ts` (in memory, for tests and trying the roles without hardware).
 */

export type Level = 0 | 1;
export type Edge = 'rising' | 'falling' | 'both';

export interface InputOptions {
  activeLow: boolean;
  edge: Edge;
}

export interface OutputOptions {
  activeLow: boolean;
  /** The logical level the line takes when it is exported. */
  initial: Level;
}

export interface GpioLine {
  /** The BCM number. */
  readonly pin: number;
  /** The number the kernel knows the line by (chip base + BCM number). */
  readonly kernelNumber: number;
  readonly direction: 'in' | 'out';
  read(): Promise<Level>;
  /** Outputs only. */
  write(value: Level): Promise<void>;
  /** Inputs only: called with the level read after each edge. Returns the function that stops watching. */
  watch(listener: (value: Level) => void): () => void;
  /** Releases the line; the kernel leaves an output at its level. */
  unexport(): Promise<void>;
}

/** Which kernel chip carries the header's lines, as found under the sysfs root. */
export interface ChipDescription {
  label: string;
  /** The kernel number of BCM line 0. */
  base: number;
  /** How many lines the chip has. */
  ngpio: number;
}

export interface GpioChip {
  readonly type: string;
  readonly description: ChipDescription;
  exportInput(pin: number, options: InputOptions): Promise<GpioLine>;
  exportOutput(pin: number, options: OutputOptions): Promise<GpioLine>;
  /** Unexports every line still exported. */
  close(): Promise<void>;
}
