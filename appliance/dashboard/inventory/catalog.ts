/**
 * The inventory's rules, as plain functions over the stored data (records.ts): finding or making
 * the vendor and filament behind a flat spool, creating spools with a fresh short id, changing a
 * spool (cap, slot moves), and the views. The service (inventory.ts) runs them on a copy of the
 * data and writes the copy; nothing here does I/O.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { sameSlot, type FilamentSlot } from '../printers/filament-slot.js';
import { DEFAULT_DIAMETER_MM, DEFAULT_INITIAL_WEIGHT_G, defaultDensity, storedColor, viewColor } from './materials.js';
import type { FilamentRecord, InventoryData, SpoolRecord, VendorRecord } from './records.js';
import { capUsed } from './records.js';
import { newShortId } from './short-id.js';
import type { SpoolView } from './spool.js';

export function notFound(what: string, id: number): AppError {
  return new AppError(ErrorCode.notFound, 404, `no ${what} with id ${id}`);
}

export function vendorOf(data: InventoryData, id: number | null): VendorRecord | null {
  return id === null ? null : (data.vendors.find((v) => v.id === id) ?? null);
}

export function filamentOf(data: InventoryData, id: number): FilamentRecord {
  const filament = data.filaments.find((f) => f.id === id);
  if (!filament) throw new AppError(ErrorCode.internal, 500, `spool refers to the missing filament ${id}`);
  return filament;
}

export function spoolOf(data: InventoryData, id: number): SpoolRecord {
  const spool = data.spools.find((s) => s.id === id);
  if (!spool) throw notFound('spool', id);
  return spool;
}

/** The empty spool's weight: the spool's own, else its filament's, else its vendor's usual one. */
export function tareOf(data: InventoryData, spool: SpoolRecord): number | null {
  const filament = filamentOf(data, spool.filament_id);
  return spool.spool_weight ?? filament.spool_weight ?? vendorOf(data, filament.vendor_id)?.empty_spool_weight ?? null;
}

export function toSpoolView(data: InventoryData, spool: SpoolRecord): SpoolView {
  const filament = filamentOf(data, spool.filament_id);
  const vendor = vendorOf(data, filament.vendor_id);
  const multi = filament.multi_color_hexes === null ? [] : filament.multi_color_hexes.split(',').map((c) => viewColor(c) as string);
  const used = capUsed(spool.used_weight, spool.initial_weight);
  return {
    id: spool.id,
    short_id: spool.short_id,
    material: filament.material ?? '',
    color_hex: multi[0] ?? viewColor(filament.color_hex),
    multi_color_hexes: multi,
    vendor: vendor?.name ?? null,
    name: filament.name,
    diameter: filament.diameter,
    density: filament.density,
    initial_weight_g: spool.initial_weight,
    spool_weight_g: tareOf(data, spool),
    used_weight_g: used,
    remaining_weight_g: spool.initial_weight - used,
    price: spool.price ?? filament.price,
    location_id: spool.location_id,
    lot: spool.lot_nr,
    expiry_date: spool.expiry_date,
    opened_at: spool.opened_at,
    archived: spool.archived,
    comment: spool.comment,
    printer_id: spool.printer_id,
    slot: spool.slot,
    registered_at: spool.registered,
    updated_at: spool.updated,
  };
}

/** What makes a filament in the flat view: the fields that pick (or make) its filament record. */
export interface FilamentIdentity {
  material: string;
  color_hex: string | null;
  multi_color_hexes: string[];
  vendor: string | null;
  name: string | null;
  diameter: number;
  density: number;
}

export function identityOf(view: SpoolView): FilamentIdentity {
  const { material, color_hex, multi_color_hexes, vendor, name, diameter, density } = view;
  return { material, color_hex, multi_color_hexes, vendor, name, diameter, density };
}

/** The identity of a new flat spool: what was given, with the material's defaults for the rest. */
export function completeIdentity(input: Partial<FilamentIdentity> & { material: string }): FilamentIdentity {
  return {
    material: input.material,
    color_hex: input.color_hex ?? null,
    multi_color_hexes: input.multi_color_hexes ?? [],
    vendor: input.vendor ?? null,
    name: input.name ?? null,
    diameter: input.diameter ?? DEFAULT_DIAMETER_MM,
    density: input.density ?? defaultDensity(input.material),
  };
}

const sameText = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

export function findOrCreateVendor(data: InventoryData, name: string, now: string): VendorRecord {
  const found = data.vendors.find((v) => sameText(v.name, name));
  if (found) return found;
  const vendor: VendorRecord = {
    id: data.next_vendor_id++,
    registered: now,
    name: name.trim(),
    comment: null,
    empty_spool_weight: null,
    external_id: null,
    extra: {},
  };
  data.vendors.push(vendor);
  return vendor;
}

export function newFilament(
  data: InventoryData,
  fields: Partial<FilamentRecord> & Pick<FilamentRecord, 'density' | 'diameter'>,
  now: string,
): FilamentRecord {
  const filament: FilamentRecord = {
    name: null,
    vendor_id: null,
    material: null,
    price: null,
    weight: null,
    spool_weight: null,
    article_number: null,
    comment: null,
    settings_extruder_temp: null,
    settings_bed_temp: null,
    color_hex: null,
    multi_color_hexes: null,
    multi_color_direction: null,
    external_id: null,
    extra: {},
    ...fields,
    id: data.next_filament_id++,
    registered: now,
  };
  data.filaments.push(filament);
  return filament;
}

/** The filament record that has this identity, made (with its vendor) when there is none. */
export function findOrCreateFilament(data: InventoryData, identity: FilamentIdentity, now: string): FilamentRecord {
  const vendorId = identity.vendor === null || identity.vendor.trim() === '' ? null : findOrCreateVendor(data, identity.vendor, now).id;
  const colors = identity.multi_color_hexes.map((c) => storedColor(c) as string);
  // One colour given as a list counts as the colour; two or more make a multi-colour filament.
  let color = identity.color_hex === null ? (colors[0] ?? null) : storedColor(identity.color_hex);
  if (colors.length > 1) color = null;
  const multi = colors.length > 1 ? colors.join(',') : null;
  const found = data.filaments.find(
    (f) =>
      f.vendor_id === vendorId &&
      sameText(f.material, identity.material) &&
      sameText(f.name, identity.name) &&
      (f.color_hex ?? '').slice(0, 6) === (color ?? '').slice(0, 6) &&
      (f.multi_color_hexes ?? '') === (multi ?? '') &&
      f.diameter === identity.diameter &&
      f.density === identity.density,
  );
  if (found) return found;
  return newFilament(
    data,
    {
      vendor_id: vendorId,
      material: identity.material.trim(),
      name: identity.name,
      color_hex: color,
      multi_color_hexes: multi,
      multi_color_direction: multi === null ? null : 'coaxial',
      diameter: identity.diameter,
      density: identity.density,
    },
    now,
  );
}

export type NewSpool = Omit<SpoolRecord, 'id' | 'short_id' | 'registered' | 'updated' | 'last_use_seq'>;

/**
 * A new spool of `filament` with nothing known about it yet: unused, on no shelf or printer. Without
 * an initial weight it takes the filament's, else 1000 g, so that the cap on used weight always holds.
 */
export function blankSpool(filament: FilamentRecord, initialWeight: number | null | undefined): NewSpool {
  return {
    filament_id: filament.id,
    first_used: null,
    last_used: null,
    price: null,
    initial_weight: initialWeight ?? filament.weight ?? DEFAULT_INITIAL_WEIGHT_G,
    spool_weight: null,
    used_weight: 0,
    location: null,
    location_id: null,
    lot_nr: null,
    expiry_date: null,
    opened_at: null,
    comment: null,
    archived: false,
    printer_id: null,
    slot: null,
    extra: {},
    import_ref: null,
  };
}

export function createSpoolRecord(data: InventoryData, fields: NewSpool, now: string): SpoolRecord {
  filamentOf(data, fields.filament_id);
  const issued = new Set(data.issued_short_ids);
  const short_id = newShortId(issued);
  data.issued_short_ids.push(short_id);
  const spool: SpoolRecord = {
    ...fields,
    used_weight: capUsed(fields.used_weight, fields.initial_weight),
    id: data.next_spool_id++,
    short_id,
    registered: now,
    updated: now,
    last_use_seq: 0,
  };
  data.spools.push(spool);
  return spool;
}

/**
 * Puts a spool in a printer's slot (or on the shelf with null): a slot holds one spool, so the one
 * that was there goes back to its shelf. Returns the spools that changed besides this one.
 */
export function loadSpool(data: InventoryData, spool: SpoolRecord, printerId: string | null, slot: FilamentSlot | null, now: string): SpoolRecord[] {
  spool.printer_id = printerId;
  spool.slot = printerId === null ? null : slot;
  if (printerId === null || slot === null) return [];
  const displaced = data.spools.filter((s) => s.id !== spool.id && s.printer_id === printerId && s.slot !== null && sameSlot(s.slot, slot));
  for (const other of displaced) {
    other.printer_id = null;
    other.slot = null;
    other.updated = now;
  }
  return displaced;
}

/** Marks a use on a spool: the used weight (capped) and Spoolman's first/last used times. */
export function applyUse(spool: SpoolRecord, grams: number, at: string): number {
  const before = spool.used_weight;
  spool.used_weight = capUsed(before + grams, spool.initial_weight);
  spool.first_used ??= at;
  spool.last_used = at;
  spool.updated = at;
  return spool.used_weight - before;
}
