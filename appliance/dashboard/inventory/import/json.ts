/**
 * Spoolman's JSON export: a list with one object per record, keys already flattened to dotted names
 * (`filament.vendor.name`), datetimes as Python prints them (`2024-05-01 10:20:30`). Nested objects
 * are flattened the same way, so a list as Spoolman's API answers it (`GET /api/v1/spool`) reads too.
 */
import { checkRowCount, malformed, type Cell, type ExportRow, type ExportTable } from './table.js';

/** Deeper than a spool → filament → vendor → extra is not a Spoolman record. */
const MAX_DEPTH = 4;

class RowProblem extends Error {}

function flatten(value: Record<string, unknown>, prefix: string, depth: number, into: Map<string, Cell>): void {
  if (depth > MAX_DEPTH) throw new RowProblem(`${prefix.slice(0, -1)} nests objects too deeply`);
  for (const [key, item] of Object.entries(value)) {
    const name = `${prefix}${key}`;
    if (item === null || typeof item === 'number' || typeof item === 'boolean') into.set(name, item);
    else if (typeof item === 'string') into.set(name, item === '' ? null : item);
    else if (Array.isArray(item)) throw new RowProblem(`${name} is a list; an export has none`);
    else flatten(item as Record<string, unknown>, `${name}.`, depth + 1, into);
  }
}

export function parseJson(text: string): ExportTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw malformed(`is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw malformed('is not a list: a Spoolman JSON export is a list of records');
  checkRowCount(value.length);
  const keys = new Set<string>();
  const rows: ExportRow[] = value.map((item: unknown, i) => {
    const cells = new Map<string, Cell>();
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return { row: i + 1, cells, problem: 'is not an object' };
    try {
      flatten(item as Record<string, unknown>, '', 0, cells);
    } catch (err) {
      if (!(err instanceof RowProblem)) throw err;
      return { row: i + 1, cells: new Map(), problem: err.message };
    }
    for (const key of cells.keys()) keys.add(key);
    return { row: i + 1, cells, problem: null };
  });
  return { keys, rows };
}
