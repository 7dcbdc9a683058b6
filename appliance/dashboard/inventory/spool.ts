/**
 * A spool as the rest of the dashboard sees it (the /api/filaments shape), and the two ways other
 * features reach the spools: the directory (read) and the ledger (take filament off). The inventory
 * feature implements both; history, the queue and the inventory tools depend only on these types.
 */
import type { FilamentSlot } from '../printers/filament-slot.js';

export interface SpoolView {
  id: number;
  /** Short, human-typable and unique: printed on the label, typed at the printer. */
  short_id: string;
  material: string;
  /** `#rrggbb`, or null when unknown. */
  color_hex: string | null;
  /** For multi-colour filament: every colour, the first equal to color_hex. Empty otherwise. */
  multi_color_hexes: string[];
  vendor: string | null;
  name: string | null;
  /** mm */
  diameter: number;
  /** g/cm³ */
  density: number;
  initial_weight_g: number;
  /** The empty spool's weight (tare), or null when unknown. */
  spool_weight_g: number | null;
  /** Never more than initial_weight_g. */
  used_weight_g: number;
  remaining_weight_g: number;
  /** Price of the whole spool in the configured currency, or null. */
  price: number | null;
  location_id: number | null;
  lot: string | null;
  /** ISO date (YYYY-MM-DD) or null. */
  expiry_date: string | null;
  opened_at: string | null;
  archived: boolean;
  comment: string | null;
  /** Where the spool is loaded, or null when it is on a shelf. */
  printer_id: string | null;
  slot: FilamentSlot | null;
  registered_at: string;
  updated_at: string;
}

export interface SpoolDirectory {
  get(id: number): SpoolView | null;
  list(): SpoolView[];
  /** The spools loaded on a printer, each with its slot. */
  loadedOn(printerId: string): SpoolView[];
}

export type FilamentUse = { grams: number } | { length_mm: number };

export interface SpoolLedger extends SpoolDirectory {
  /**
   * Takes filament off a spool. `key` makes it idempotent: a second call with the same key (after a
   * restart, say) changes nothing and answers the spool as it is. Used weight stops at the initial
   * weight. Null when the spool does not exist (deleted meanwhile).
   */
  use(spoolId: number, use: FilamentUse, key: string): Promise<SpoolView | null>;
}
