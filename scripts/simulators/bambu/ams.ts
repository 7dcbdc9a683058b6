/**
 * The AMS of a virtual printer: units of four trays, each tray a spool (or empty), and the external
 * spool holder (`vt_tray`, id 254). Tray ids in reports and `ams_mapping` are global:
 * `ams_id * 4 + slot`. `ams_mapping` gives, per slicer filament (tool), the global tray id, or -1
 * for the external spool.
 */
import { createHash } from 'node:crypto';

export const TRAYS_PER_UNIT = 4;
export const EXTERNAL_TRAY = 254;
export const NO_TRAY = 255;

export interface TraySpec {
  /** Filament type as the AMS shows it: PLA, PETG, ABS, TPU… */
  type: string;
  /** RRGGBB or RRGGBBAA. */
  color: string;
  /** Percent left, -1 when unknown (non-RFID spool). */
  remain?: number;
  /** Bambu filament preset id, e.g. GFA00 (Bambu PLA Basic). */
  infoIdx?: string;
}

export interface AmsOptions {
  /** Number of AMS units; 0 for a printer without AMS. */
  units?: number;
  /** Spools by global tray id; null for an empty slot. Missing entries get the default palette. */
  trays?: ReadonlyArray<TraySpec | null>;
}

export interface Tray extends Required<TraySpec> {
  id: number;
  uuid: string;
  nozzleTempMin: number;
  nozzleTempMax: number;
  bedTemp: number;
}

export interface AmsUnit {
  id: number;
  humidity: number;
  temp: number;
  /** Slot index → tray, null when the slot is empty. */
  trays: Array<Tray | null>;
}

const PALETTE: readonly TraySpec[] = [
  { type: 'PLA', color: 'FFFFFFFF', remain: 100, infoIdx: 'GFA00' },
  { type: 'PLA', color: '000000FF', remain: 85, infoIdx: 'GFA00' },
  { type: 'PETG', color: 'F72323FF', remain: 60, infoIdx: 'GFG00' },
  { type: 'PLA', color: '0A2989FF', remain: 40, infoIdx: 'GFA01' },
];

const TEMPERATURES: Readonly<Record<string, { min: number; max: number; bed: number }>> = {
  PLA: { min: 190, max: 230, bed: 55 },
  PETG: { min: 220, max: 260, bed: 70 },
  ABS: { min: 240, max: 270, bed: 90 },
  ASA: { min: 240, max: 270, bed: 90 },
  TPU: { min: 200, max: 250, bed: 35 },
};

function normaliseColor(color: string): string {
  const hex = color.replace(/^#/, '').toUpperCase();
  if (!/^[0-9A-F]{6}([0-9A-F]{2})?$/.test(hex)) throw new Error(`tray colour ${JSON.stringify(color)} is not RRGGBB or RRGGBBAA`);
  return hex.length === 6 ? `${hex}FF` : hex;
}

function makeTray(serial: string, id: number, spec: TraySpec): Tray {
  const type = spec.type.toUpperCase();
  const temps = TEMPERATURES[type] ?? TEMPERATURES.PLA;
  const remain = spec.remain ?? -1;
  if (!Number.isInteger(remain) || remain < -1 || remain > 100) throw new Error(`tray ${id}: remain must be an integer from -1 to 100`);
  return {
    id,
    type,
    color: normaliseColor(spec.color),
    remain,
    infoIdx: spec.infoIdx ?? '',
    uuid: createHash('md5').update(`${serial}/${id}`).digest('hex').toUpperCase(),
    nozzleTempMin: temps.min,
    nozzleTempMax: temps.max,
    bedTemp: temps.bed,
  };
}

export function buildAms(serial: string, options: AmsOptions = {}): AmsUnit[] {
  const units = options.units ?? 1;
  if (!Number.isInteger(units) || units < 0 || units > 4) throw new Error('ams units must be an integer from 0 to 4');
  const out: AmsUnit[] = [];
  for (let u = 0; u < units; u++) {
    const trays: Array<Tray | null> = [];
    for (let slot = 0; slot < TRAYS_PER_UNIT; slot++) {
      const id = u * TRAYS_PER_UNIT + slot;
      const spec = options.trays && id < options.trays.length ? options.trays[id] : PALETTE[id % PALETTE.length];
      trays.push(spec === null ? null : makeTray(serial, id, spec));
    }
    out.push({ id: u, humidity: 4, temp: 25.3, trays });
  }
  return out;
}

export function findTray(units: readonly AmsUnit[], id: number): Tray | null {
  const unit = units[Math.floor(id / TRAYS_PER_UNIT)];
  return unit?.trays[id % TRAYS_PER_UNIT] ?? null;
}

/**
 * Reads a `project_file` mapping: an array of global tray ids (the documented shape), or the
 * comma-joined string some clients send. Every id must name a loaded tray, or be -1 (external).
 * Throws with the reason the printer gives.
 */
export function parseAmsMapping(value: unknown, units: readonly AmsUnit[]): number[] {
  let ids: unknown[];
  if (value === undefined || value === '') return [];
  if (Array.isArray(value)) ids = value;
  else if (typeof value === 'string') ids = value.split(',').map((s) => Number(s.trim()));
  else throw new Error('ams_mapping must be an array of tray ids');
  return ids.map((id) => {
    if (typeof id !== 'number' || !Number.isInteger(id)) throw new Error('ams_mapping must hold integer tray ids');
    if (id === -1) return -1;
    if (!findTray(units, id)) throw new Error(`ams_mapping names tray ${id}, which is not loaded`);
    return id;
  });
}

/** Hex bit masks the way push_status spells them ("f" for four trays present). */
export function trayBits(units: readonly AmsUnit[], present: (tray: Tray) => boolean): string {
  let bits = 0n;
  for (const unit of units) {
    unit.trays.forEach((tray, slot) => {
      if (tray && present(tray)) bits |= 1n << BigInt(unit.id * TRAYS_PER_UNIT + slot);
    });
  }
  return bits.toString(16);
}
