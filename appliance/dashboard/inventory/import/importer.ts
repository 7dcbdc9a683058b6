/**
 * Imports a Spoolman export into the inventory: every row is read first (mapping.ts), then all the
 * good ones are applied in one edit, so one write to inventory.json lands them together. Vendors
 * and filaments are found or made exactly as a flat spool's are (catalog.ts); a spool imported
 * before (its `import_ref`) is skipped, so importing the same export twice adds nothing.
 */
import { blankSpool, createSpoolRecord, findOrCreateFilament, findOrCreateVendor } from '../catalog.js';
import type { Edit, Inventory, InventoryChange } from '../inventory.js';
import { DEFAULT_DIAMETER_MM, defaultDensity } from '../materials.js';
import type { FilamentRecord, InventoryData, VendorRecord } from '../records.js';
import { exportKind, mapRow, type FilamentFields, type MappedRow, type RowFailure, type SpoolFields, type VendorFields } from './mapping.js';
import { malformed, type ExportTable } from './table.js';

/** A record the import made: the row that asked for it, Spoolman's id there, the inventory's id now. */
export interface ImportCreated {
  row: number;
  spoolman_id: number | null;
  id: number;
}

export interface ImportSkipped {
  row: number;
  spoolman_id: number | null;
  reason: string;
}

export interface ImportResult {
  kind: 'spools' | 'filaments' | 'vendors' | null;
  created: { vendors: ImportCreated[]; filaments: ImportCreated[]; spools: ImportCreated[] };
  skipped: ImportSkipped[];
  failed: RowFailure[];
}

/** What recognises a spool of Spoolman's on a second import: its id, and when it was registered (ids of two servers collide). */
export function importRef(spool: SpoolFields): string {
  return `spoolman:${spool.registered ?? ''}#${spool.spoolman_id}`;
}

/** One import applied to the draft: what it made, what it announces. */
class Run {
  readonly result: ImportResult;
  readonly changes: InventoryChange[] = [];
  /** Spools of this file by reference, to name the first row when one appears twice. */
  private readonly rowOfRef = new Map<string, number>();

  constructor(
    private readonly draft: InventoryData,
    private readonly now: string,
    kind: ImportResult['kind'],
    failed: RowFailure[],
  ) {
    this.result = { kind, created: { vendors: [], filaments: [], spools: [] }, skipped: [], failed };
  }

  vendor(fields: VendorFields, row: number): { vendor: VendorRecord; created: boolean } {
    const next = this.draft.next_vendor_id;
    const vendor = findOrCreateVendor(this.draft, fields.name, this.now);
    if (vendor.id < next) return { vendor, created: false };
    vendor.registered = fields.registered ?? this.now;
    vendor.comment = fields.comment;
    vendor.empty_spool_weight = fields.empty_spool_weight;
    vendor.external_id = fields.external_id;
    vendor.extra = fields.extra;
    this.result.created.vendors.push({ row, spoolman_id: fields.spoolman_id, id: vendor.id });
    this.changes.push({ resource: 'vendor', type: 'added', id: vendor.id });
    return { vendor, created: true };
  }

  filament(fields: FilamentFields, row: number): { filament: FilamentRecord; created: boolean } {
    if (fields.vendor !== null) this.vendor(fields.vendor, row);
    const next = this.draft.next_filament_id;
    const material = fields.material ?? '';
    const filament = findOrCreateFilament(
      this.draft,
      {
        material,
        color_hex: fields.color_hex,
        multi_color_hexes: fields.multi_color_hexes,
        vendor: fields.vendor?.name ?? null,
        name: fields.name,
        diameter: fields.diameter ?? DEFAULT_DIAMETER_MM,
        density: fields.density ?? defaultDensity(fields.material),
      },
      this.now,
    );
    if (filament.id < next) return { filament, created: false };
    Object.assign(filament, {
      registered: fields.registered ?? this.now,
      material: fields.material,
      price: fields.price,
      weight: fields.weight,
      spool_weight: fields.spool_weight,
      article_number: fields.article_number,
      comment: fields.comment,
      settings_extruder_temp: fields.settings_extruder_temp,
      settings_bed_temp: fields.settings_bed_temp,
      multi_color_direction: filament.multi_color_hexes === null ? null : (fields.multi_color_direction ?? 'coaxial'),
      external_id: fields.external_id,
      extra: fields.extra,
    });
    this.result.created.filaments.push({ row, spoolman_id: fields.spoolman_id, id: filament.id });
    this.changes.push({ resource: 'filament', type: 'added', id: filament.id });
    return { filament, created: true };
  }

  /** Why a spool of the file is not added: it came earlier in the file, or in an earlier import. */
  private seenBefore(ref: string): string | null {
    const earlierRow = this.rowOfRef.get(ref);
    if (earlierRow !== undefined) return `the same spool as row ${earlierRow}`;
    const existing = this.draft.spools.find((s) => s.import_ref === ref);
    return existing ? `imported before: spool ${existing.id} (${existing.short_id})` : null;
  }

  spool(fields: SpoolFields, row: number): void {
    const ref = importRef(fields);
    const seen = this.seenBefore(ref);
    if (seen !== null) {
      this.result.skipped.push({ row, spoolman_id: fields.spoolman_id, reason: seen });
      return;
    }
    const { filament } = this.filament(fields.filament, row);
    const spool = createSpoolRecord(
      this.draft,
      {
        ...blankSpool(filament, fields.initial_weight),
        first_used: fields.first_used,
        last_used: fields.last_used,
        price: fields.price,
        spool_weight: fields.spool_weight,
        used_weight: fields.used_weight,
        location: fields.location,
        lot_nr: fields.lot_nr,
        comment: fields.comment,
        archived: fields.archived,
        extra: fields.extra,
        import_ref: ref,
      },
      this.now,
    );
    spool.registered = fields.registered ?? this.now;
    this.rowOfRef.set(ref, row);
    this.result.created.spools.push({ row, spoolman_id: fields.spoolman_id, id: spool.id });
    this.changes.push({ resource: 'spool', type: 'added', id: spool.id });
  }

  apply(mapped: MappedRow): void {
    if (mapped.kind === 'spools') {
      this.spool(mapped.fields, mapped.row);
      return;
    }
    let reason: string | null = null;
    if (mapped.kind === 'filaments') {
      const { filament, created } = this.filament(mapped.fields, mapped.row);
      if (!created) reason = `the same filament is filament ${filament.id}`;
    } else {
      const { vendor, created } = this.vendor(mapped.fields, mapped.row);
      if (!created) reason = `a vendor of that name is vendor ${vendor.id}`;
    }
    if (reason !== null) this.result.skipped.push({ row: mapped.row, spoolman_id: mapped.fields.spoolman_id, reason });
  }
}

export async function importExport(inventory: Inventory, table: ExportTable): Promise<ImportResult> {
  const kind = exportKind(table.keys);
  if (kind === null && table.rows.length > 0) {
    throw malformed('is not a Spoolman export of spools, filaments or vendors (no filament, density or name columns)');
  }
  const mapped: MappedRow[] = [];
  const failed: RowFailure[] = [];
  for (const row of table.rows) {
    const result = mapRow(kind ?? 'vendors', row);
    if ('kind' in result) mapped.push(result);
    else failed.push(result);
  }
  // Nothing to add: no write.
  if (mapped.length === 0) return { kind, created: { vendors: [], filaments: [], spools: [] }, skipped: [], failed };
  return inventory.edit((draft, now): Edit<ImportResult> => {
    const run = new Run(draft, now, kind, failed);
    for (const row of mapped) run.apply(row);
    run.result.skipped.sort((a, b) => a.row - b.row);
    return { result: run.result, changes: run.changes };
  });
}
