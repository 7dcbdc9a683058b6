/**
 * A plain-data picture of the virtual printer for tests and the CLI: what a person standing next
 * to the machine would see (temperatures, head position, filament pushed per tool, the SD card,
 * the print) plus the firmware's serial state.
 */
import type { JobTimerState } from './command-context.js';
import type { FaultRates } from './faults.js';
import type { FirmwareStatus, MarlinFirmware } from './firmware.js';
import type { Heater } from './heater.js';
import type { AxisValues, LinearAxis } from './motion.js';

export interface HeaterState {
  temperature: number;
  target: number;
  /** Output 0..1. */
  power: number;
}

export interface SdFileInfo {
  name: string;
  shortName: string;
  size: number;
}

export interface SdPrintState {
  file: SdFileInfo;
  /** Bytes read so far, as M27 reports them. */
  position: number;
  /** False while paused (M25) or selected but not started. */
  printing: boolean;
}

export interface VirtualPrinterState {
  firmware: FirmwareStatus;
  cable: { plugged: boolean; hostConnected: boolean };
  lastLineNumber: number;
  hotends: HeaterState[];
  bed: HeaterState;
  /** Logical position as M114 reports it (the end of the last planned move). */
  position: AxisValues;
  homed: Record<LinearAxis, boolean>;
  activeTool: number;
  /** Filament pushed through each tool since the simulator started, in mm (retractions subtract). */
  extruded: number[];
  feedratePercent: number;
  flowPercent: number[];
  fans: number[];
  message: string;
  progress: { percent: number | null; remainingMinutes: number | null };
  jobTimer: JobTimerState;
  sd: { files: SdFileInfo[]; writing: string | null; print: SdPrintState | null };
  queue: { commands: number; moves: number };
  autoReport: { available: boolean; temperatureSeconds: number; sdSeconds: number };
  faults: FaultRates;
}

function heaterState(heater: Heater): HeaterState {
  return { temperature: heater.current, target: heater.target, power: heater.power };
}

export function snapshot(fw: MarlinFirmware, cable: VirtualPrinterState['cable']): VirtualPrinterState {
  const job = fw.sd.job;
  const info = (f: { longName: string; shortName: string; content: Buffer }): SdFileInfo => ({
    name: f.longName,
    shortName: f.shortName,
    size: f.content.length,
  });
  return {
    firmware: fw.status,
    cable,
    lastLineNumber: fw.lastLineNumber,
    hotends: fw.heaters.hotends.map(heaterState),
    bed: heaterState(fw.heaters.bed),
    position: { ...fw.motion.position },
    homed: { ...fw.motion.homed },
    activeTool: fw.motion.activeTool,
    extruded: [...fw.extruded],
    feedratePercent: fw.motion.feedratePercent,
    flowPercent: [...fw.motion.flowPercent],
    fans: [...fw.fans],
    message: fw.message,
    progress: { ...fw.progress },
    jobTimer: fw.jobTimer,
    sd: {
      files: fw.sd.list().map(info),
      writing: fw.sd.writingFile?.longName ?? null,
      print: job ? { file: info(job.file), position: job.position, printing: job.printing } : null,
    },
    queue: { commands: fw.queuedCommands, moves: fw.planner.queued },
    autoReport: { available: fw.settings.autoReport, ...fw.autoReportIntervals },
    faults: fw.faults.rates,
  };
}
