/**
 * The filament a print took, per slot, and taking it off the spools. Two sources, as the printers
 * can tell: a Marlin host print reports the length pushed per tool (exact, from the E moves sent);
 * for a Bambu Lab print only the slicer's plan is known (the queue's announcement), taken in full
 * when the print finished and scaled by the progress when it stopped early.
 */
import { type FilamentSlot, sameSlot, slotLabel } from '../printers/filament-slot.js';
import type { PlannedFilament } from '../queue/print-dispatched.js';
import type { SpoolLedger, SpoolView } from '../inventory/spool.js';
import type { EndState, FilamentUsed } from './record.js';

/** Used for grams from a length when no spool says otherwise: 1.75 mm PLA. */
export const DEFAULT_DIAMETER_MM = 1.75;
export const DEFAULT_DENSITY = 1.24;

/** Grams of `lengthMm` of filament of a diameter (mm) and density (g/cm³). */
export function gramsOf(lengthMm: number, diameterMm: number, density: number): number {
  const areaMm2 = Math.PI * (diameterMm / 2) ** 2;
  return (lengthMm * areaMm2 * density) / 1000;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function costOf(grams: number | null, spool: SpoolView | null): number | null {
  if (grams === null || spool === null || spool.price === null || !(spool.initial_weight_g > 0)) return null;
  return round((grams * spool.price) / spool.initial_weight_g, 4);
}

export interface UsageInput {
  /** Millimetres per tool from the driver (Marlin host prints), or null when it does not count. */
  extrudedMm: readonly number[] | null;
  /** The slicer's plan, from the queue's announcement; empty when nobody announced the print. */
  planned: readonly PlannedFilament[];
  state: EndState;
  /** 0–100 at the end. */
  progress: number;
  /** Spools by slot: the announcement's, else the one loaded there now. */
  spoolFor(slot: FilamentSlot, planned: PlannedFilament | null): SpoolView | null;
}

/** The filament used, one entry per slot that took some (or was planned to). */
export function filamentUsed(input: UsageInput): FilamentUsed[] {
  const planFor = (slot: FilamentSlot) => input.planned.find((p) => sameSlot(p.slot, slot)) ?? null;
  const entry = (slot: FilamentSlot, planned: PlannedFilament | null, grams: number | null, lengthMm: number | null): FilamentUsed => {
    const spool = input.spoolFor(slot, planned);
    return {
      slot,
      spool_id: spool?.id ?? null,
      material: spool?.material ?? planned?.material ?? null,
      color_hex: spool?.color_hex ?? planned?.color_hex ?? null,
      grams: grams === null ? null : round(grams, 3),
      length_mm: lengthMm === null ? null : round(lengthMm, 1),
      cost: costOf(grams, spool),
    };
  };
  if (input.extrudedMm !== null) {
    const out: FilamentUsed[] = [];
    input.extrudedMm.forEach((mm, tool) => {
      if (!(mm > 0)) return;
      const slot: FilamentSlot = { kind: 'tool', tool };
      const planned = planFor(slot);
      const spool = input.spoolFor(slot, planned);
      out.push(entry(slot, planned, gramsOf(mm, spool?.diameter ?? DEFAULT_DIAMETER_MM, spool?.density ?? DEFAULT_DENSITY), mm));
    });
    return out;
  }
  const share = input.state === 'finished' ? 1 : Math.min(100, Math.max(0, input.progress)) / 100;
  return input.planned.map((p) => entry(p.slot, p, p.grams === null ? null : p.grams * share, p.length_mm === null ? null : p.length_mm * share));
}

/** The idempotency key of one slot's use: a restart that books again changes nothing. */
export function ledgerKey(recordId: string, slot: FilamentSlot): string {
  return `history:${recordId}:${slotLabel(slot)}`;
}

/**
 * Takes each slot's filament off its spool: by length for a tool (a Marlin tool's length is
 * measured; the ledger turns it into grams with the spool's density and diameter), else by
 * weight (the slicer's grams for an AMS tray or the external spool). Resolves once every slot with
 * a spool is booked (a spool deleted meanwhile counts as done); rejects when the ledger fails.
 */
export async function bookFilament(ledger: SpoolLedger, recordId: string, filament: readonly FilamentUsed[]): Promise<void> {
  for (const f of filament) {
    if (f.spool_id === null) continue;
    const key = ledgerKey(recordId, f.slot);
    if (f.slot.kind === 'tool' && f.length_mm !== null) await ledger.use(f.spool_id, { length_mm: f.length_mm }, key);
    else if (f.grams !== null) await ledger.use(f.spool_id, { grams: f.grams }, key);
  }
}
