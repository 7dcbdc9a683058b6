/** The profile record, its summary, and the report a catalogue load returns. */
import type { ConfigPatch, PrintConfig } from './schema.js';

export type ProfileKind = 'printer' | 'filament' | 'process';
export type ProfileSource = 'bundled' | 'user' | 'prusaslicer-import' | 'orcaslicer-import';

export const PROFILE_KINDS: readonly ProfileKind[] = ['printer', 'filament', 'process'];

export interface Profile {
  /** Stable slug, unique across the catalogue, e.g. `bambu-lab-x1-carbon-0.4`. */
  id: string;
  kind: ProfileKind;
  name: string;
  vendor: string;
  /** Id of the parent profile; its settings apply first. */
  inherits?: string;
  /** Abstract bases are false: they exist only to be inherited and are never listed. */
  instantiable: boolean;
  is_default: boolean;
  source: ProfileSource;
  /** Ids of the printers a filament or process profile was made for (informative). */
  compatible_printers?: string[];
  /** Human name of the printer model, e.g. "Bambu Lab X1 Carbon". */
  printer_model?: string;
  description?: string;
  /** The profile's own settings (or, from `get`, the settings resolved along `inherits`). */
  settings: ConfigPatch;
}

export interface ProfileSummary {
  id: string;
  kind: ProfileKind;
  name: string;
  vendor: string;
  is_default: boolean;
  inherits?: string;
  source: ProfileSource;
  printer_model?: string;
}

export interface ListFilter {
  kind?: ProfileKind | 'all';
  vendor?: string;
}

export interface ResolveRequest {
  printerId: string;
  /** One filament profile per filament slot used by the job, in slot order. */
  filamentIds: string[];
  processId: string;
  /** Per-job settings, checked against the schema like everything else. */
  overrides?: Record<string, unknown>;
}

export type { ConfigPatch, PrintConfig };

export interface LoadedEntry {
  id: string;
  kind: ProfileKind;
  source: ProfileSource;
  file: string;
}

export interface SkippedEntry {
  file: string;
  /** The profile's name or id when the file got far enough to name it. */
  name?: string;
  reason: string;
}

export interface LoadWarning {
  file: string;
  profile?: string;
  message: string;
}

export interface LoadReport {
  loaded: LoadedEntry[];
  skipped: SkippedEntry[];
  warnings: LoadWarning[];
  /** Foreign keys an importer did not map, with how many times each was dropped. */
  droppedKeys: Record<string, number>;
}

export function emptyReport(): LoadReport {
  return { loaded: [], skipped: [], warnings: [], droppedKeys: {} };
}

/** Folds `part` into `into` (used when several importers contribute to one load). */
export function mergeReport(into: LoadReport, part: LoadReport): LoadReport {
  into.loaded.push(...part.loaded);
  into.skipped.push(...part.skipped);
  into.warnings.push(...part.warnings);
  for (const [key, count] of Object.entries(part.droppedKeys)) {
    into.droppedKeys[key] = (into.droppedKeys[key] ?? 0) + count;
  }
  return into;
}

/** What an importer or a file reader hands to the catalogue: candidates plus their report. */
export interface ProfileBatch {
  /** Each candidate with the file it came from. */
  profiles: Array<{ profile: Profile; file: string }>;
  report: LoadReport;
}
