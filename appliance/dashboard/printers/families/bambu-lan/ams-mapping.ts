/**
 * The `ams_mapping` of a `project_file` start, computed for the printer that will print: which
 * loaded tray feeds each filament the plate uses. A mapping is never carried over from another
 * printer (whose trays differ: the top AMS bug class in Bambu farm tools).
 *
 * Rules:
 * - The array is indexed by slicer filament slot (filament id − 1); the value is the global tray
 *   id `unit * 4 + slot`, or -1: an unused slot, or the external spool.
 * - A tray is a candidate for a filament only when its material is the same (case-insensitive,
 *   `PLA` ≠ `PLA-CF`). Among candidates the nearest colour wins (the "redmean" weighted RGB
 *   distance, a cheap approximation of how different two colours look).
 * - Different filaments go to different trays while there are trays of that material left: the
 *   closest filament–tray pairs are taken first, so two reds on a plate do not end up in one tray.
 *   Only when a material has more filaments than trays do filaments share a tray.
 * - A filament no loaded tray has the material of gets -1 (the external spool) and is reported as
 *   unmatched, so the caller can say so; when the external spool has that material it counts as
 *   matched.
 */
import type { AmsTray, AmsUpdate } from '../../status.js';
import type { ProjectFilament } from './project-filaments.js';

export interface LoadedTray {
  /** Global tray id (`unit * 4 + slot`). */
  id: number;
  material: string;
  /** `#RRGGBB…`; null when unknown. */
  color: string | null;
}

export interface AmsMapping {
  mapping: number[];
  /** Filament ids for which no tray and no external spool has the material. */
  unmatched: number[];
}

export const EXTERNAL_SPOOL = -1;
const TRAYS_PER_UNIT = 4;

function rgb(color: string | null): [number, number, number] | null {
  const hex = /^#?([0-9A-Fa-f]{6})/.exec(color ?? '');
  if (!hex) return null;
  const n = parseInt(hex[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Redmean colour distance; unknown colours are as far as can be but still candidates. */
export function colorDistance(a: string | null, b: string | null): number {
  const x = rgb(a);
  const y = rgb(b);
  if (!x || !y) return 1000;
  const meanRed = (x[0] + y[0]) / 2;
  const [dr, dg, db] = [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  return Math.sqrt((2 + meanRed / 256) * dr * dr + 4 * dg * dg + (2 + (255 - meanRed) / 256) * db * db);
}

/** The trays holding a spool of known material, from the printer's AMS state. */
export function loadedTrays(ams: AmsUpdate | null): LoadedTray[] {
  const trays: LoadedTray[] = [];
  for (const unit of ams?.units ?? []) {
    for (const tray of unit.trays) {
      if (tray.present && tray.material)
        trays.push({ id: unit.id * TRAYS_PER_UNIT + tray.slot, material: tray.material.toUpperCase(), color: tray.color });
    }
  }
  return trays;
}

export function computeAmsMapping(filaments: readonly ProjectFilament[], trays: readonly LoadedTray[], external: AmsTray | null): AmsMapping {
  const size = Math.max(0, ...filaments.map((f) => f.id));
  const mapping: number[] = new Array(size).fill(EXTERNAL_SPOOL);
  const pairs: Array<{ filament: number; tray: number; distance: number }> = [];
  for (const f of filaments) {
    for (const t of trays) if (t.material === f.type) pairs.push({ filament: f.id, tray: t.id, distance: colorDistance(f.color, t.color) });
  }
  pairs.sort((a, b) => a.distance - b.distance || a.tray - b.tray || a.filament - b.filament);
  const assigned = new Set<number>();
  const usedTrays = new Set<number>();
  for (const pair of pairs) {
    if (assigned.has(pair.filament) || usedTrays.has(pair.tray)) continue;
    mapping[pair.filament - 1] = pair.tray;
    assigned.add(pair.filament);
    usedTrays.add(pair.tray);
  }
  for (const pair of pairs) {
    if (assigned.has(pair.filament)) continue;
    mapping[pair.filament - 1] = pair.tray;
    assigned.add(pair.filament);
  }
  const externalMaterial = external?.present && external.material ? external.material.toUpperCase() : null;
  const unmatched = filaments.filter((f) => !assigned.has(f.id) && f.type !== externalMaterial).map((f) => f.id);
  return { mapping, unmatched };
}
