/**
 * The plan slice-and-send announces with a print (`print.starting`): per slicer filament, the slot
 * the printer feeds it from, the spool loaded there and the slicer's grams and length, so that
 * history books a user's print as it books a queue job's. The slots come from the driver's own
 * start plan where it has one (Bambu: the AMS mapping it starts with); otherwise filament n is fed
 * from the printer's default place (Marlin: tool T(n−1); Bambu without a mapping: tray n−1), for
 * each filament the slicer says the print uses.
 */
import { loadedSpoolsOf } from '../inventory/loaded-spools.js';
import type { SpoolDirectory, SpoolView } from '../inventory/spool.js';
import type { PlannedFeed } from '../printers/driver.js';
import { sameSlot, type FilamentSlot } from '../printers/filament-slot.js';
import type { PlannedFilament } from '../queue/print-dispatched.js';

/** What the slicer said of a sliced file: per filament (index = filament − 1) grams and millimetres, and its time. */
export interface SlicedFigures {
  estimate_s: number | null;
  grams: readonly number[];
  length_mm: readonly number[];
}

const TRAYS_PER_UNIT = 4;

function defaultSlot(printerType: string, filament: number): FilamentSlot {
  if (printerType !== 'bambu-lan') return { kind: 'tool', tool: filament - 1 };
  return { kind: 'ams', unit: Math.floor((filament - 1) / TRAYS_PER_UNIT), tray: (filament - 1) % TRAYS_PER_UNIT };
}

function defaultFeeds(printerType: string, sliced: SlicedFigures | null): PlannedFeed[] {
  if (sliced === null) return [];
  const count = Math.max(sliced.grams.length, sliced.length_mm.length);
  const feeds: PlannedFeed[] = [];
  for (let filament = 1; filament <= count; filament++) {
    if ((sliced.grams[filament - 1] ?? 0) > 0 || (sliced.length_mm[filament - 1] ?? 0) > 0) {
      feeds.push({ filament, slot: defaultSlot(printerType, filament), material: null, color_hex: null });
    }
  }
  return feeds;
}

function figure(values: readonly number[] | undefined, filament: number): number | null {
  const value = values?.[filament - 1];
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The spools on the printer that are in use; none when the inventory is not running: the print goes out all the same. */
function loadedSpools(spools: SpoolDirectory | null, printerId: string): SpoolView[] {
  return loadedSpoolsOf(spools, printerId).filter((s) => !s.archived);
}

export function plannedFilaments(
  printer: { id: string; type: string },
  feeds: readonly PlannedFeed[] | null,
  sliced: SlicedFigures | null,
  spools: SpoolDirectory | null,
): PlannedFilament[] {
  const loaded = loadedSpools(spools, printer.id);
  const chosen = feeds !== null && feeds.length > 0 ? feeds : defaultFeeds(printer.type, sliced);
  return chosen.map((feed) => {
    const spool = loaded.find((s) => s.slot !== null && sameSlot(s.slot, feed.slot)) ?? null;
    return {
      filament: feed.filament,
      slot: feed.slot,
      spool_id: spool?.id ?? null,
      material: feed.material ?? spool?.material ?? '',
      color_hex: feed.color_hex ?? spool?.color_hex ?? null,
      grams: figure(sliced?.grams, feed.filament),
      length_mm: figure(sliced?.length_mm, feed.filament),
    };
  });
}
