/**
 * What a G-code handler sees of the firmware. Handlers live in `commands/`, one module per concern;
 * they read and change this state, write lines to the host, and may take simulated time (the
 * firmware sends `busy: processing` while they do). Returning 'no-ok' means the handler answered
 * the host itself (M105 puts the temperatures on its `ok` line); 'unknown' means the command is not
 * in this build (a feature switched off), which Marlin answers like any unknown command.
 */
import type { SimClock } from './clock.js';
import type { FirmwareSettings } from './firmware-settings.js';
import type { GcodeCommand } from './gcode-command.js';
import type { Motion } from './motion.js';
import type { Planner } from './planner.js';
import type { Heaters } from './reports.js';
import type { SdCard } from './sd-card.js';

export type JobTimerState = 'idle' | 'running' | 'paused';

export interface FirmwareContext {
  readonly clock: SimClock;
  readonly settings: FirmwareSettings;
  readonly heaters: Heaters;
  readonly motion: Motion;
  readonly planner: Planner;
  readonly sd: SdCard;
  /** Aborts when the firmware resets or is killed; every wait must honour it. */
  readonly signal: AbortSignal;
  /** Filament pushed through each tool since the simulator started (mm). */
  readonly extruded: number[];

  lastLineNumber: number;
  keepaliveSeconds: number;
  /** Part-cooling fan speeds, 0..255. */
  fans: number[];
  /** M117 status message. */
  message: string;
  /** M73 progress as the host set it. */
  progress: { percent: number | null; remainingMinutes: number | null };
  jobTimer: JobTimerState;
  /** True while M109/M190 wait; M108 (emergency parser) clears it to stop the wait. */
  waitingForHeat: boolean;

  send(line: string): void;
  /** Sends `echo:<text>`. */
  echo(text: string): void;
  /** Sends `Error:<text>`. */
  error(text: string): void;
  /** Waits simulated milliseconds; rejects when the firmware resets or is killed. */
  sleep(ms: number): Promise<void>;
  sleepUntil(at: number): Promise<void>;
  setTemperatureReportInterval(seconds: number): void;
  setSdReportInterval(seconds: number): void;
  /** The SD file may be read again (M24 resumed it); wakes the command loop. */
  resumeSdFetching(): void;
  /** M524 and friends: drops every queued command. */
  clearQueue(): void;
  /** M999: asks the host to resend from the line after the last good one. */
  requestResend(): void;
  /** M112 and fatal errors: halts the firmware until it is reset. */
  kill(): void;
}

export type HandlerResult = undefined | 'no-ok' | 'unknown';
export type CommandHandler = (cmd: GcodeCommand, fw: FirmwareContext) => HandlerResult | Promise<HandlerResult>;
export type CommandTable = Record<string, CommandHandler>;
