/**
 * The records as Spoolman's API answers them: its field names, `extra` as JSON-encoded strings,
 * remaining and used length from density and diameter, and — like Spoolman's
 * `response_model_exclude_none` — no field whose value is null.
 */
import { filamentOf, tareOf, vendorOf } from '../catalog.js';
import type { LocationNames } from '../locations/storage.js';
import { lengthOfGrams, type FilamentRecord, type InventoryData, type SpoolRecord, type VendorRecord } from '../records.js';

export type Json = Record<string, unknown>;

/** Spoolman leaves out what is null: clients tell "not set" by absence. */
export function withoutNulls(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/** Spoolman writes UTC times without milliseconds and with `Z`. */
export function spoolmanTime(iso: string | null): string | null {
  return iso === null ? null : `${iso.slice(0, 19)}Z`;
}

export function vendorJson(vendor: VendorRecord): Json {
  return withoutNulls({ ...vendor, registered: spoolmanTime(vendor.registered) });
}

export function filamentJson(data: Readonly<InventoryData>, filament: FilamentRecord): Json {
  const { vendor_id, registered, ...rest } = filament;
  const vendor = vendorOf(data as InventoryData, vendor_id);
  return withoutNulls({ ...rest, id: filament.id, registered: spoolmanTime(registered), vendor: vendor ? vendorJson(vendor) : null });
}

/**
 * Spoolman's `location` is text: a spool in one of the dashboard's storage locations shows that
 * location's name (so a rename shows at once); any other spool its own free text.
 */
export function locationText(spool: SpoolRecord, names: LocationNames | null): string | null {
  return (spool.location_id === null ? null : names?.nameOf(spool.location_id)) ?? spool.location;
}

export function spoolJson(data: Readonly<InventoryData>, spool: SpoolRecord, names: LocationNames | null = null): Json {
  const filament = filamentOf(data as InventoryData, spool.filament_id);
  const remaining = Math.max(spool.initial_weight - spool.used_weight, 0);
  return withoutNulls({
    id: spool.id,
    registered: spoolmanTime(spool.registered),
    first_used: spoolmanTime(spool.first_used),
    last_used: spoolmanTime(spool.last_used),
    filament: filamentJson(data, filament),
    price: spool.price,
    remaining_weight: remaining,
    initial_weight: spool.initial_weight,
    spool_weight: tareOf(data as InventoryData, spool),
    used_weight: spool.used_weight,
    remaining_length: lengthOfGrams(remaining, filament.diameter, filament.density),
    used_length: lengthOfGrams(spool.used_weight, filament.diameter, filament.density),
    location: locationText(spool, names),
    lot_nr: spool.lot_nr,
    comment: spool.comment,
    archived: spool.archived,
    extra: spool.extra,
  });
}
