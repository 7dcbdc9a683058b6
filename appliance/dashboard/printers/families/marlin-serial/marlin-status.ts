/**
 * The driver's live picture of a Marlin printer turned into what the dashboard shows: the
 * `PrinterStatus`, the `PrintProgress` of a host print or of a print from the printer's own SD
 * card, and the `/state` details.
 *
 * States: a host print printing → `printing`, pausing or paused → `paused`, at its end →
 * `finished` (until the next start); a print that was interrupted (connection lost) or failed (a
 * printer fault) → `error` with the reason, its job still shown, until a start or a stop; a
 * stopped one → `idle`. An SD print (started on the printer) is `printing`, or `paused` when
 * paused from here. A fatal firmware error (`Error:Printer halted…`, thermal faults) → `error`.
 */
import type { HeaterTemperature, PrinterState, PrinterStatus, PrintJobStatus, PrintProgress, PrintProgressState } from '../../status.js';
import type { FirmwareInfo } from './firmware-info.js';
import type { HostPrint, HostPrintState } from './host-print.js';
import type { SdReport } from './replies.js';

/** A print the printer runs from its own card, as its SD status reports show it. */
export interface SdPrint {
  /** The long name (M27 C); null until known. */
  file: string | null;
  position: number;
  size: number;
  /** When the driver first saw it (the printer does not say when it started). */
  seenAt: number;
  pausedHere: boolean;
  finished: boolean;
}

export interface LiveState {
  printerId: string;
  heardAt: Date;
  temperatures: Record<string, HeaterTemperature>;
  partFan: number | null;
  /** A fault that stopped the printer, until it is reset. */
  fault: string | null;
  print: HostPrint | null;
  sd: SdPrint | null;
}

const PROGRESS_STATE: Record<HostPrintState, PrintProgressState> = {
  printing: 'printing',
  resuming: 'printing',
  pausing: 'paused',
  paused: 'paused',
  finished: 'finished',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
  failed: 'failed',
};

const PRINTER_STATE: Record<HostPrintState, PrinterState> = {
  printing: 'printing',
  resuming: 'printing',
  pausing: 'paused',
  paused: 'paused',
  finished: 'finished',
  cancelled: 'idle',
  interrupted: 'error',
  failed: 'error',
};

/** How a host print stands, in the words of `PrintProgress.state`. */
export function progressState(print: HostPrint): PrintProgressState {
  return PROGRESS_STATE[print.state];
}

/**
 * Follows an SD status report (a host print, when one runs, is what the printer prints). A print
 * that appears gets its name asked for (`M27 C`: the status names no file); one that ends
 * without `Done printing file` was stopped on the printer; a finished one stays shown until the
 * next print.
 */
export function followSdReport(live: LiveState, report: SdReport): { changed: boolean; askName: boolean } {
  const { sd } = live;
  if (live.print?.active) return { changed: false, askName: false };
  if (report.kind === 'printing' && report.size > 0) {
    if (sd && !sd.finished) {
      sd.position = report.position;
      return { changed: true, askName: false };
    }
    live.sd = { file: null, position: report.position, size: report.size, seenAt: Date.now(), pausedHere: false, finished: false };
    return { changed: true, askName: true };
  }
  if (report.kind === 'not-printing' && sd && !sd.finished) {
    live.sd = null;
    return { changed: true, askName: false };
  }
  if (report.kind === 'done' && sd) {
    sd.finished = true;
    sd.position = sd.size;
    return { changed: true, askName: false };
  }
  if (report.kind === 'current-file' && sd) {
    sd.file = report.name;
    return { changed: true, askName: false };
  }
  return { changed: false, askName: false };
}

function sdState(sd: SdPrint): 'finished' | 'paused' | 'printing' {
  if (sd.finished) return 'finished';
  return sd.pausedHere ? 'paused' : 'printing';
}

function sdJob(sd: SdPrint, now: number): PrintJobStatus {
  const share = sd.size > 0 ? Math.min(1, sd.position / sd.size) : 0;
  const elapsedS = Math.round((now - sd.seenAt) / 1000);
  return {
    file: sd.file ?? '(SD card)',
    progress: sd.finished ? 100 : Math.floor(share * 1000) / 10,
    layer: null,
    total_layers: null,
    elapsed_s: elapsedS,
    remaining_s: sd.finished ? 0 : null,
  };
}

export function printerStatus(live: LiveState): PrinterStatus {
  const { print, sd, fault } = live;
  let state: PrinterState = 'idle';
  let job: PrintJobStatus | null = null;
  let error: string | null = null;
  if (print && print.state !== 'cancelled') {
    state = PRINTER_STATE[print.state];
    job = print.job();
    if (state === 'error') error = print.reason;
  } else if (sd) {
    state = sdState(sd);
    job = sdJob(sd, Date.now());
  }
  if (fault) {
    state = 'error';
    error = fault;
  }
  return {
    printer_id: live.printerId,
    state,
    online: true,
    temperatures: live.temperatures,
    job,
    fans: live.partFan === null ? {} : { part: live.partFan },
    error,
    updated_at: live.heardAt.toISOString(),
  };
}

/** The progress of the print shown, with the filament it used per tool; null without one. */
export function printProgress(live: LiveState, extruded: readonly number[]): PrintProgress | null {
  const at = live.heardAt.toISOString();
  if (live.print) {
    const used = extruded.map((mm, tool) => Math.round((mm - (live.print?.extrudedBefore[tool] ?? 0)) * 1000) / 1000);
    return {
      ...live.print.job(),
      printer_id: live.printerId,
      updated_at: at,
      state: PROGRESS_STATE[live.print.state],
      ...live.print.counts(),
      extruded_mm: used,
    };
  }
  if (live.sd) {
    return {
      ...sdJob(live.sd, Date.now()),
      printer_id: live.printerId,
      updated_at: at,
      state: sdState(live.sd),
      bytes_done: live.sd.position,
      bytes_total: live.sd.size,
    };
  }
  return null;
}

export interface DetailsInput {
  firmware: FirmwareInfo | null;
  autoReport: { temperature: boolean; sd_status: boolean };
  extruded: number[];
  tool: number;
  live: LiveState;
  lastPrint: { file: string; result: PrintProgressState; at: string } | null;
  lastError: string | null;
  filamentCommands: boolean | null;
  line: number;
  resends: number;
}

function printDetails({ print, sd }: LiveState): Record<string, unknown> | null {
  if (print) return { source: 'host', file: print.file, state: PROGRESS_STATE[print.state], reason: print.reason, ...print.counts() };
  if (sd) return { source: 'sd', file: sd.file, position: sd.position, size: sd.size };
  return null;
}

export function stateDetails(input: DetailsInput): Record<string, unknown> {
  const { firmware, live } = input;
  return {
    firmware: firmware?.name ?? null,
    machine_type: firmware?.machineType ?? null,
    extruder_count: firmware?.extruders ?? null,
    uuid: firmware?.uuid ?? null,
    capabilities: firmware?.capabilities ?? {},
    auto_report: input.autoReport,
    extruded_mm: input.extruded,
    active_tool: input.tool,
    print: printDetails(live),
    last_print: input.lastPrint,
    fault: live.fault,
    last_error: input.lastError,
    filament_load_unload: input.filamentCommands,
    line_number: input.line,
    resends: input.resends,
  };
}
