/**
 * From an export's rows to what the inventory stores: which kind of export a file is (spools carry
 * their filament and its vendor, filaments their vendor, vendors stand alone), and each row read
 * into typed fields with Spoolman's rules. A value that does not fit fails its row, naming the
 * field; nothing here touches the inventory.
 */
import type { MultiColorDirection } from '../records.js';
import { storedColor } from '../materials.js';
import type { Cell, ExportRow } from './table.js';

export type ExportKind = 'spools' | 'filaments' | 'vendors';

export interface VendorFields {
  spoolman_id: number | null;
  registered: string | null;
  name: string;
  comment: string | null;
  empty_spool_weight: number | null;
  external_id: string | null;
  extra: Record<string, string>;
}

export interface FilamentFields {
  spoolman_id: number | null;
  registered: string | null;
  vendor: VendorFields | null;
  name: string | null;
  material: string | null;
  price: number | null;
  density: number | null;
  diameter: number | null;
  weight: number | null;
  spool_weight: number | null;
  article_number: string | null;
  comment: string | null;
  settings_extruder_temp: number | null;
  settings_bed_temp: number | null;
  color_hex: string | null;
  /** Stored colours (`FF0000`), two or more for a multi-colour filament. */
  multi_color_hexes: string[];
  multi_color_direction: MultiColorDirection | null;
  external_id: string | null;
  extra: Record<string, string>;
}

export interface SpoolFields {
  /** Spoolman's id: with `registered`, what recognises the spool on a second import. */
  spoolman_id: number;
  registered: string | null;
  filament: FilamentFields;
  first_used: string | null;
  last_used: string | null;
  price: number | null;
  initial_weight: number | null;
  spool_weight: number | null;
  used_weight: number;
  location: string | null;
  lot_nr: string | null;
  comment: string | null;
  archived: boolean;
  extra: Record<string, string>;
}

export type MappedRow =
  | { kind: 'vendors'; row: number; fields: VendorFields }
  | { kind: 'filaments'; row: number; fields: FilamentFields }
  | { kind: 'spools'; row: number; fields: SpoolFields };

/** A row that is not imported, and why: the field (dotted name as in the file) when one is to blame. */
export interface RowFailure {
  row: number;
  spoolman_id: number | null;
  field: string | null;
  reason: string;
}

/** Spools exports name their filament's fields `filament.…`; filament exports have density and diameter. */
export function exportKind(keys: ReadonlySet<string>): ExportKind | null {
  const names = [...keys];
  if (names.some((k) => k.startsWith('filament.')) || keys.has('used_weight') || keys.has('filament_id')) return 'spools';
  if (names.some((k) => k.startsWith('vendor.')) || ['density', 'diameter', 'material', 'vendor_id'].some((k) => keys.has(k))) return 'filaments';
  if (keys.has('name')) return 'vendors';
  return null;
}

class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

// Spoolman's column sizes.
const NAME_LENGTH = 64;
const COMMENT_LENGTH = 1024;
const EXTERNAL_ID_LENGTH = 256;

/** Reads the cells of one record (a spool, its filament, its vendor) under a dotted prefix. */
class Fields {
  constructor(
    private readonly cells: ReadonlyMap<string, Cell>,
    readonly prefix: string,
  ) {}

  under(name: string): Fields {
    return new Fields(this.cells, `${this.prefix}${name}.`);
  }

  /** True when any cell of this record has a value. */
  present(): boolean {
    for (const [key, value] of this.cells) if (key.startsWith(this.prefix) && value !== null) return true;
    return false;
  }

  private raw(name: string): Cell {
    return this.cells.get(this.prefix + name) ?? null;
  }

  private fail(name: string, message: string): never {
    throw new FieldProblem(this.prefix + name, message);
  }

  text(name: string, maxLength: number): string | null {
    const value = this.raw(name);
    if (value === null) return null;
    const text = String(value).trim();
    if (text === '') return null;
    if ([...text].length > maxLength) this.fail(name, `is longer than ${maxLength} characters`);
    return text;
  }

  number(name: string, rule: { min: number; exclusive?: boolean; integer?: boolean }): number | null {
    const value = this.raw(name);
    if (value === null) return null;
    // Python prints floats as `1000.0` or `1e-05`; JSON gives numbers.
    const numeric = typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value);
    const n = typeof value === 'number' || numeric ? Number(value) : Number.NaN;
    if (!Number.isFinite(n)) this.fail(name, `is not a number (${JSON.stringify(value)})`);
    if (rule.integer && !Number.isInteger(n)) this.fail(name, `is not a whole number (${n})`);
    if (rule.exclusive ? n <= rule.min : n < rule.min) this.fail(name, `must be ${rule.exclusive ? 'more than' : 'at least'} ${rule.min} (${n})`);
    return n;
  }

  /** Python prints booleans `True`/`False`; JSON has true/false. */
  boolean(name: string): boolean | null {
    const value = this.raw(name);
    if (value === null || typeof value === 'boolean') return value;
    const text = String(value).trim().toLowerCase();
    if (['true', '1'].includes(text)) return true;
    if (['false', '0'].includes(text)) return false;
    return this.fail(name, `is not True or False (${JSON.stringify(value)})`);
  }

  /** `2024-05-01 10:20:30[.ffffff][+00:00]` as Python prints a datetime, or ISO 8601; without an offset it is UTC, as Spoolman stores it. */
  time(name: string): string | null {
    const text = this.text(name, 64);
    if (text === null) return null;
    const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
    const at = match ? new Date(`${match[1]}T${match[2]}${match[3] ?? 'Z'}`) : null;
    if (at === null || Number.isNaN(at.getTime())) return this.fail(name, `is not a date and time (${JSON.stringify(text)})`);
    return at.toISOString();
  }

  color(name: string): string | null {
    const text = this.text(name, 16);
    if (text === null) return null;
    return storedColor(text) ?? this.fail(name, `is not a hex colour (${JSON.stringify(text)})`);
  }

  colors(name: string): string[] {
    const text = this.text(name, 1024);
    if (text === null) return [];
    return text.split(',').map((part) => storedColor(part) ?? this.fail(name, `has ${JSON.stringify(part.trim())}, which is not a hex colour`));
  }

  direction(name: string): MultiColorDirection | null {
    const text = this.text(name, 16);
    if (text === null || text === 'coaxial' || text === 'longitudinal') return text;
    return this.fail(name, `is neither coaxial nor longitudinal (${JSON.stringify(text)})`);
  }

  /**
   * `extra.<key>` cells: Spoolman keeps each value JSON-encoded (`"blue"`, `12`, `true`) and so
   * does the inventory. A value that is not JSON (typed into a spreadsheet) is kept as a JSON string.
   */
  extra(): Record<string, string> {
    const out: Record<string, string> = {};
    const start = `${this.prefix}extra.`;
    for (const [key, value] of this.cells) {
      if (!key.startsWith(start) || value === null) continue;
      const name = key.slice(start.length);
      if (!/^[a-z0-9_]{1,64}$/.test(name)) throw new FieldProblem(key, 'is not an extra field name Spoolman allows (a-z, 0-9, _)');
      out[name] = typeof value === 'string' && isJson(value) ? value : JSON.stringify(value);
    }
    return out;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function vendorFields(f: Fields): VendorFields {
  const name = f.text('name', NAME_LENGTH);
  if (name === null) throw new FieldProblem(`${f.prefix}name`, 'is required');
  return {
    spoolman_id: f.number('id', { min: 1, integer: true }),
    registered: f.time('registered'),
    name,
    comment: f.text('comment', COMMENT_LENGTH),
    empty_spool_weight: f.number('empty_spool_weight', { min: 0 }),
    external_id: f.text('external_id', EXTERNAL_ID_LENGTH),
    extra: f.extra(),
  };
}

function filamentFields(f: Fields): FilamentFields {
  const vendor = f.under('vendor');
  const colors = f.colors('multi_color_hexes');
  return {
    spoolman_id: f.number('id', { min: 1, integer: true }),
    registered: f.time('registered'),
    vendor: vendor.present() ? vendorFields(vendor) : null,
    name: f.text('name', NAME_LENGTH),
    material: f.text('material', NAME_LENGTH),
    price: f.number('price', { min: 0 }),
    density: f.number('density', { min: 0, exclusive: true }),
    diameter: f.number('diameter', { min: 0, exclusive: true }),
    weight: f.number('weight', { min: 0, exclusive: true }),
    spool_weight: f.number('spool_weight', { min: 0 }),
    article_number: f.text('article_number', NAME_LENGTH),
    comment: f.text('comment', COMMENT_LENGTH),
    settings_extruder_temp: f.number('settings_extruder_temp', { min: 0, integer: true }),
    settings_bed_temp: f.number('settings_bed_temp', { min: 0, integer: true }),
    color_hex: f.color('color_hex'),
    multi_color_hexes: colors,
    multi_color_direction: f.direction('multi_color_direction'),
    external_id: f.text('external_id', EXTERNAL_ID_LENGTH),
    extra: f.extra(),
  };
}

function spoolFields(f: Fields): SpoolFields {
  const id = f.number('id', { min: 1, integer: true });
  if (id === null) throw new FieldProblem('id', 'is required: it recognises the spool when the export is imported again');
  return {
    spoolman_id: id,
    registered: f.time('registered'),
    filament: filamentFields(f.under('filament')),
    first_used: f.time('first_used'),
    last_used: f.time('last_used'),
    price: f.number('price', { min: 0 }),
    initial_weight: f.number('initial_weight', { min: 0, exclusive: true }),
    spool_weight: f.number('spool_weight', { min: 0 }),
    used_weight: f.number('used_weight', { min: 0 }) ?? 0,
    location: f.text('location', NAME_LENGTH),
    lot_nr: f.text('lot_nr', NAME_LENGTH),
    comment: f.text('comment', COMMENT_LENGTH),
    archived: f.boolean('archived') ?? false,
    extra: f.extra(),
  };
}

/** The id the row gives for itself, for the answer (even when another field fails). */
function spoolmanId(row: ExportRow): number | null {
  const id = Number(row.cells.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function mapRow(kind: ExportKind, row: ExportRow): MappedRow | RowFailure {
  if (row.problem !== null) return { row: row.row, spoolman_id: null, field: null, reason: `row ${row.row}: ${row.problem}` };
  const f = new Fields(row.cells, '');
  try {
    if (kind === 'vendors') return { kind, row: row.row, fields: vendorFields(f) };
    if (kind === 'filaments') return { kind, row: row.row, fields: filamentFields(f) };
    return { kind, row: row.row, fields: spoolFields(f) };
  } catch (err) {
    if (!(err instanceof FieldProblem)) throw err;
    return { row: row.row, spoolman_id: spoolmanId(row), field: err.field, reason: `row ${row.row}: ${err.field} ${err.message}` };
  }
}
