/**
 * The flat spool API's rules (`/api/filaments`): create from flat fields (finding or making the
 * vendor and filament behind them), change (a changed material, colour, vendor… moves the spool to
 * the filament record with those fields, never edits one other spools share), delete, and the
 * list's filters and order.
 */
import { validationError } from '../http/validate.js';
import type { FilamentSlot } from '../printers/filament-slot.js';
import {
  completeIdentity,
  blankSpool,
  createSpoolRecord,
  findOrCreateFilament,
  identityOf,
  loadSpool,
  spoolOf,
  toSpoolView,
  type FilamentIdentity,
} from './catalog.js';
import type { Edit, Inventory } from './inventory.js';
import { capUsed, type InventoryData, type SpoolRecord } from './records.js';
import type { SpoolView } from './spool.js';

export interface FlatSpoolInput extends Partial<FilamentIdentity> {
  initial_weight_g?: number;
  spool_weight_g?: number | null;
  used_weight_g?: number;
  remaining_weight_g?: number;
  price?: number | null;
  location_id?: number | null;
  lot?: string | null;
  expiry_date?: string | null;
  opened_at?: string | null;
  archived?: boolean;
  comment?: string | null;
  printer_id?: string | null;
  slot?: FilamentSlot | null;
}

const IDENTITY_KEYS = ['material', 'color_hex', 'multi_color_hexes', 'vendor', 'name', 'diameter', 'density'] as const;

function checkInput(input: FlatSpoolInput, current: SpoolRecord | null): void {
  if (input.used_weight_g !== undefined && input.remaining_weight_g !== undefined) {
    throw validationError([{ path: 'body/remaining_weight_g', message: 'cannot be given with used_weight_g' }]);
  }
  const printer = input.printer_id === undefined ? current?.printer_id : input.printer_id;
  const slot = input.slot === undefined ? current?.slot : input.slot;
  if (input.printer_id !== undefined || input.slot !== undefined) {
    if ((printer ?? null) !== null && (slot ?? null) === null) throw validationError([{ path: 'body/slot', message: 'is required with printer_id' }]);
    if ((printer ?? null) === null && input.slot != null) throw validationError([{ path: 'body/printer_id', message: 'is required with slot' }]);
  }
}

/** Weights and the rest of the spool's own fields, applied over `spool`. */
function applySpoolFields(draft: InventoryData, spool: SpoolRecord, input: FlatSpoolInput, now: string): SpoolRecord[] {
  if (input.initial_weight_g !== undefined) spool.initial_weight = input.initial_weight_g;
  if (input.spool_weight_g !== undefined) spool.spool_weight = input.spool_weight_g;
  if (input.used_weight_g !== undefined) spool.used_weight = input.used_weight_g;
  if (input.remaining_weight_g !== undefined) spool.used_weight = spool.initial_weight - input.remaining_weight_g;
  spool.used_weight = capUsed(spool.used_weight, spool.initial_weight);
  if (input.price !== undefined) spool.price = input.price;
  if (input.location_id !== undefined) spool.location_id = input.location_id;
  if (input.lot !== undefined) spool.lot_nr = input.lot;
  if (input.expiry_date !== undefined) spool.expiry_date = input.expiry_date;
  if (input.opened_at !== undefined) spool.opened_at = input.opened_at;
  if (input.comment !== undefined) spool.comment = input.comment;
  if (input.archived !== undefined) spool.archived = input.archived;
  spool.updated = now;
  // An archived spool is off the printers: it is empty or retired.
  if (spool.archived) return loadSpool(draft, spool, null, null, now);
  if (input.printer_id !== undefined || input.slot !== undefined) {
    const printer = input.printer_id === undefined ? spool.printer_id : input.printer_id;
    return loadSpool(draft, spool, printer, input.slot === undefined ? spool.slot : input.slot, now);
  }
  return [];
}

function spoolEdit(draft: InventoryData, spool: SpoolRecord, type: 'added' | 'updated', moved: SpoolRecord[]): Edit<SpoolView> {
  return {
    result: toSpoolView(draft, spool),
    changes: [{ resource: 'spool', type, id: spool.id }, ...moved.map((s) => ({ resource: 'spool' as const, type: 'updated' as const, id: s.id }))],
  };
}

export function createFlatSpool(inventory: Inventory, input: FlatSpoolInput & { material: string }): Promise<SpoolView> {
  checkInput(input, null);
  return inventory.edit((draft, now) => {
    const filament = findOrCreateFilament(draft, completeIdentity(input), now);
    const spool = createSpoolRecord(draft, blankSpool(filament, input.initial_weight_g), now);
    const moved = applySpoolFields(draft, spool, input, now);
    return spoolEdit(draft, spool, 'added', moved);
  });
}

export function updateFlatSpool(inventory: Inventory, id: number, input: FlatSpoolInput): Promise<SpoolView> {
  checkInput(input, spoolOf(inventory.data as InventoryData, id));
  return inventory.edit((draft, now) => {
    const spool = spoolOf(draft, id);
    if (IDENTITY_KEYS.some((key) => input[key] !== undefined)) {
      const current = identityOf(toSpoolView(draft, spool));
      const wanted = { ...current, ...Object.fromEntries(IDENTITY_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) };
      // A new colour replaces the multi-colour list unless one is given too.
      if (input.color_hex !== undefined && input.multi_color_hexes === undefined) wanted.multi_color_hexes = [];
      spool.filament_id = findOrCreateFilament(draft, wanted as FilamentIdentity, now).id;
    }
    const moved = applySpoolFields(draft, spool, input, now);
    return spoolEdit(draft, spool, 'updated', moved);
  });
}

export function deleteSpool(inventory: Inventory, id: number): Promise<void> {
  return inventory.edit((draft) => {
    const spool = spoolOf(draft, id);
    draft.spools = draft.spools.filter((s) => s.id !== id);
    return { result: undefined, changes: [{ resource: 'spool', type: 'deleted', id, removed: spool }] };
  });
}

export interface SpoolFilter {
  material?: string;
  vendor?: string;
  location_id?: number;
  printer_id?: string;
  archived?: boolean;
  text?: string;
}

export const SPOOL_SORTS = ['id', 'short_id', 'material', 'vendor', 'remaining_weight_g', 'registered_at', 'updated_at', 'expiry_date'] as const;
export type SpoolSort = (typeof SPOOL_SORTS)[number];

const eq = (a: string | null, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

export function filterSpools(spools: SpoolView[], filter: SpoolFilter): SpoolView[] {
  const needle = filter.text?.toLowerCase();
  return spools.filter(
    (s) =>
      s.archived === (filter.archived ?? false) &&
      (filter.material === undefined || eq(s.material, filter.material)) &&
      (filter.vendor === undefined || eq(s.vendor, filter.vendor)) &&
      (filter.location_id === undefined || s.location_id === filter.location_id) &&
      (filter.printer_id === undefined || s.printer_id === filter.printer_id) &&
      (needle === undefined ||
        [s.short_id, s.material, s.vendor, s.name, s.comment, s.lot, s.color_hex].some((f) => (f ?? '').toLowerCase().includes(needle))),
  );
}

/** Sorted by `sort` (nulls last), ties by id; `-` in front for descending. */
export function sortSpools(spools: SpoolView[], sort: SpoolSort, descending: boolean): SpoolView[] {
  const sign = descending ? -1 : 1;
  return [...spools].sort((a, b) => {
    const x = a[sort];
    const y = b[sort];
    if (x === y) return a.id - b.id;
    if (x === null) return 1;
    if (y === null) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
  });
}
