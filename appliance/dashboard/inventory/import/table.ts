/**
 * What both parsers (csv.ts, json.ts) make of a Spoolman export: one flat record per row, keyed by
 * Spoolman's dotted names (`filament.vendor.name`, `extra.nozzle`), with the limits of an import.
 */
import { validationError } from '../../http/validate.js';

/** A cell: text from CSV; text, number or boolean from JSON; null when empty. */
export type Cell = string | number | boolean | null;

export interface ExportRow {
  /** 1-based position among the data rows (the CSV header is not counted). */
  row: number;
  cells: ReadonlyMap<string, Cell>;
  /** Why the row cannot be read at all (a CSV row of the wrong width, a JSON item that is not an object). */
  problem: string | null;
}

export interface ExportTable {
  /** Every column name of the file (a CSV header; the union of the keys of a JSON list). */
  keys: ReadonlySet<string>;
  rows: ExportRow[];
}

/** Largest export accepted: about ten thousand spools as Spoolman writes them. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;

/** A file that cannot be read as an export: nothing of it is imported. */
export function malformed(message: string): Error {
  return validationError([{ path: 'body', message }]);
}

export function checkRowCount(count: number): void {
  if (count > MAX_IMPORT_ROWS) throw malformed(`has ${count} rows; an import takes at most ${MAX_IMPORT_ROWS}`);
}
