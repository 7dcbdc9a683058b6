/**
 * A queue job as the queue stores it: what to print (a print-ready file kept in the data dir),
 * how many copies (each copy one print, tracked on its own), its priority, what a printer must
 * have to take it, and what the file says about itself (the filaments' planned use, the
 * slicer's estimate, the plate's picture). The states live in states.ts.
 */
import type { CopyState } from './states.js';

export type PrintFormat = 'gcode' | 'gcode.3mf';

export interface FilamentRequirement {
  /** The slicer's filament number, from 1 (Marlin tool T(n−1), Bambu `ams_mapping` index n−1). */
  filament: number;
  /** `PLA`, `PETG-CF`…, upper case. */
  material: string;
  /** `#RRGGBB` upper case, or null: any colour of the material. */
  color_hex: string | null;
}

export interface JobRequirements {
  /** The printers that may take the job; empty for any. One entry pins the job to that printer. */
  printer_ids: string[];
  /** A printer type (`bambu-lan`, `marlin-serial`), or null for any that prints the file's format. */
  printer_type: string | null;
  /** The printer's model as configured or reported (`P1S`), case-insensitive; null for any. */
  printer_model: string | null;
  /** mm; null for any. */
  nozzle_diameter: number | null;
  filaments: FilamentRequirement[];
}

export interface JobFile {
  /** The name the user uploaded, e.g. `bracket.gcode.3mf`. */
  name: string;
  /** Null for a model, whose format is the one its printer's profile slices to. */
  format: PrintFormat | null;
  /** Relative to the data directory. */
  path: string;
  size_bytes: number;
}

/** How a model job is sliced at dispatch: the profiles as the slice routes take them. */
export interface SliceSpec {
  /** Printer profile id; null: the chosen printer's own `printer_profile`. */
  printer_profile_id: string | null;
  filament_ids: string[];
  process_id: string;
  overrides: Record<string, unknown>;
  /** Who queued it, for the slicer service's job. */
  owner: { kind: 'user' | 'api_key'; id: string; name: string };
}

export interface PlannedAmount {
  filament: number;
  grams: number | null;
  length_mm: number | null;
}

/** What the file says about itself, read once when the job is added. */
export interface FilePlan {
  estimate_s: number | null;
  amounts: PlannedAmount[];
  /** The plate's PNG, relative to the data directory, or null when the file has none. */
  thumbnail: string | null;
}

export interface JobCopy {
  /** 1-based. */
  copy: number;
  state: CopyState;
  /** The printer it went to (dispatching, printing, done, failed), else null. */
  printer_id: string | null;
  /** The file's name on that printer. */
  remote_name: string | null;
  /** Dispatches of this copy so far (each may have made several upload attempts). */
  dispatches: number;
  error: string | null;
  started_at: string | null;
  ended_at: string | null;
}

export interface QueueJob {
  /** 16 hex digits. */
  id: string;
  name: string;
  file: JobFile;
  /** Set for a model (STL/3MF) that is sliced at dispatch; null for a print-ready file. */
  slice: SliceSpec | null;
  priority: number;
  /** The operator keeps the job from being dispatched (running copies go on). */
  held: boolean;
  cancelled: boolean;
  requirements: JobRequirements;
  /** Where the filament requirements came from: given by the user, read from the file, or none. */
  filaments_from: 'user' | 'file' | 'none';
  plan: FilePlan;
  copies: JobCopy[];
  /** The user who queued it, or null for an API key or automation. */
  user: string | null;
  /** Why nothing of the job is being dispatched now; null when it is not waiting. */
  waiting_reason: string | null;
  /** The last failure (a dispatch that gave up, a print that failed), null when none. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export function newCopy(copy: number): JobCopy {
  return { copy, state: 'pending', printer_id: null, remote_name: null, dispatches: 0, error: null, started_at: null, ended_at: null };
}

/** `#rrggbb` (or `rrggbb`, with or without alpha) as `#RRGGBB`; null for anything else. */
export function normaliseHex(value: string | null | undefined): string | null {
  const hex = (value ?? '').trim().replace(/^#/, '').toUpperCase();
  return /^[0-9A-F]{6}([0-9A-F]{2})?$/.test(hex) ? `#${hex.slice(0, 6)}` : null;
}

/** The stem a printer shows while it prints a file: no `.gcode.3mf`, `.3mf` or `.gcode`, lower case. */
export function printedStem(name: string): string {
  return name
    .replace(/\.gcode\.3mf$|\.3mf$|\.gcode$/i, '')
    .trim()
    .toLowerCase();
}
