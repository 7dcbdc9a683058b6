/**
 * What the inventory stores (`inventory.json`): vendors → filaments → spools, shaped as Spoolman
 * 0.x has them, so that both the flat `/api/filaments` view and the Spoolman-compatible `/api/v1`
 * are computed from the same records. Colours are kept as Spoolman keeps them (6 or 8 upper-case
 * hex digits, no `#`); `extra` values are JSON-encoded strings, as Spoolman's are.
 */
import type { FilamentSlot } from '../printers/filament-slot.js';

export interface VendorRecord {
  id: number;
  registered: string;
  name: string;
  comment: string | null;
  empty_spool_weight: number | null;
  external_id: string | null;
  extra: Record<string, string>;
}

export type MultiColorDirection = 'coaxial' | 'longitudinal';

export interface FilamentRecord {
  id: number;
  registered: string;
  name: string | null;
  vendor_id: number | null;
  material: string | null;
  price: number | null;
  /** g/cm³ */
  density: number;
  /** mm */
  diameter: number;
  /** Net weight of a full spool, g. */
  weight: number | null;
  spool_weight: number | null;
  article_number: string | null;
  comment: string | null;
  settings_extruder_temp: number | null;
  settings_bed_temp: number | null;
  /** `RRGGBB` or `RRGGBBAA`. */
  color_hex: string | null;
  /** Comma-separated `RRGGBB` values, as Spoolman stores them. */
  multi_color_hexes: string | null;
  multi_color_direction: MultiColorDirection | null;
  external_id: string | null;
  extra: Record<string, string>;
}

export interface SpoolRecord {
  id: number;
  short_id: string;
  filament_id: number;
  registered: string;
  updated: string;
  first_used: string | null;
  last_used: string | null;
  price: number | null;
  /** Net filament weight when full, g; always known, so the used weight can be capped at it. */
  initial_weight: number;
  spool_weight: number | null;
  /** Never above initial_weight. */
  used_weight: number;
  /** Spoolman's free-text location. */
  location: string | null;
  /** A storage location of the dashboard (inventory/locations). */
  location_id: number | null;
  lot_nr: string | null;
  expiry_date: string | null;
  opened_at: string | null;
  comment: string | null;
  archived: boolean;
  printer_id: string | null;
  slot: FilamentSlot | null;
  extra: Record<string, string>;
  /** The last use-log record applied to this spool (see use-log.ts): what a restart replays after. */
  last_use_seq: number;
  /** Where an imported spool came from (`spoolman:<registered>#<id>`), so a second import skips it. */
  import_ref: string | null;
}

export interface InventoryData {
  next_vendor_id: number;
  next_filament_id: number;
  next_spool_id: number;
  vendors: VendorRecord[];
  filaments: FilamentRecord[];
  spools: SpoolRecord[];
  /** Every short id ever handed out, deleted spools' included: none is reused. */
  issued_short_ids: string[];
}

export const EMPTY_INVENTORY: InventoryData = {
  next_vendor_id: 1,
  next_filament_id: 1,
  next_spool_id: 1,
  vendors: [],
  filaments: [],
  spools: [],
  issued_short_ids: [],
};

/** The store's shape check: enough to refuse a file that is not an inventory. */
export function inventoryShapeProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return 'not an object';
  const d = data as Record<string, unknown>;
  for (const key of ['vendors', 'filaments', 'spools', 'issued_short_ids']) {
    if (!Array.isArray(d[key])) return `${key} is not a list`;
  }
  for (const key of ['next_vendor_id', 'next_filament_id', 'next_spool_id']) {
    if (!Number.isInteger(d[key])) return `${key} is not an integer`;
  }
  return null;
}

/** Grams of filament in `lengthMm` of it (Spoolman's formula: volume × density). */
export function gramsOfLength(lengthMm: number, diameterMm: number, density: number): number {
  return (lengthMm * Math.PI * (diameterMm / 2) ** 2 * density) / 1000;
}

export function lengthOfGrams(grams: number, diameterMm: number, density: number): number {
  return (grams * 1000) / (density * Math.PI * (diameterMm / 2) ** 2);
}

/** Used weight as stored: never negative, never above the initial weight. */
export function capUsed(used: number, initial: number): number {
  return Math.min(Math.max(used, 0), initial);
}
