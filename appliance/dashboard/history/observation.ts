/**
 * What a driver's report says about the print on a printer, in one shape for both report kinds:
 * a print running (`active`), one that ended (with how), or none at all (`gone`). Marlin's
 * `print.progress` carries the print's own state; a Bambu Lab printer tells it only through its
 * status (FINISH → `finished`, FAILED → `failed`, or `cancelled` when the firmware's error is
 * 0300-400C "printing was cancelled").
 */
import type { PrinterStatus, PrintProgress } from '../printers/status.js';
import type { EndState } from './record.js';

export type Phase = 'active' | EndState | 'gone';

export interface Observation {
  phase: Phase;
  /** Empty for `gone`. */
  file: string;
  progress: number | null;
  elapsed_s: number | null;
  /** Millimetres per tool during this print (Marlin host prints), else null. */
  extruded_mm: number[] | null;
  /** The printer's reason, for a failed or interrupted print. */
  error: string | null;
}

/** Bambu's print_error for a print stopped by a person (0x0300400C), as the status text names it. */
const BAMBU_CANCELLED = /\b0300-400C\b/i;

const ACTIVE_STATES = new Set(['preparing', 'printing', 'paused']);

/** From a progress event that carries the print's state; null for one that does not (Bambu). */
export function fromProgress(progress: PrintProgress): Observation | null {
  if (progress.state === undefined) return null;
  const state = progress.state;
  return {
    phase: state === 'printing' || state === 'paused' ? 'active' : state,
    file: progress.file,
    progress: progress.progress,
    elapsed_s: progress.elapsed_s,
    extruded_mm: progress.extruded_mm ?? null,
    error: null,
  };
}

/** From a status; null when it says nothing about prints (offline, connecting: the print may go on). */
export function fromStatus(status: PrinterStatus): Observation | null {
  if (status.state === 'offline' || status.state === 'connecting') return null;
  const job = status.job;
  if (job === null) return { phase: 'gone', file: '', progress: null, elapsed_s: null, extruded_mm: null, error: null };
  const base = { file: job.file, progress: job.progress, elapsed_s: job.elapsed_s, extruded_mm: null };
  if (ACTIVE_STATES.has(status.state)) return { ...base, phase: 'active', error: null };
  if (status.state === 'finished') return { ...base, phase: 'finished', error: null };
  if (status.state === 'error') {
    const cancelled = status.error !== null && BAMBU_CANCELLED.test(status.error);
    return { ...base, phase: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : status.error };
  }
  return { ...base, phase: 'gone', file: '', error: null };
}

/**
 * The name a print is matched by: without folders and without the print-file extension, since a
 * Bambu Lab printer reports `cube` for `cube.gcode.3mf`, and case-blind (FAT cards are).
 */
export function printKey(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/(\.gcode\.3mf|\.3mf|\.gcode|\.gco|\.g)$/i, '').toLowerCase();
}

export function sameFile(a: string, b: string): boolean {
  return printKey(a) === printKey(b);
}
