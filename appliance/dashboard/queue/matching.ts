/**
 * Whether a printer can take a job, decided on a snapshot of the printer (no I/O, no waiting):
 * first what the printer is (pinned printers, type, model, nozzle, the file format it prints),
 * then what it has loaded for each of the job's filaments:
 * - a Marlin printer: filament n must be on tool T(n−1) (the G-code's tool changes name the
 *   tools), from the spools the inventory has assigned to its tools;
 * - a Bambu printer: the AMS trays (and the external spool) as the printer reports them, mapped
 *   with the per-printer AMS mapping (ams-mapping.ts), computed for this printer every time.
 * The material must be the same (case-insensitive; `PLA` ≠ `PLA-CF`); a colour, when the job
 * names one, must be within COLOR_TOLERANCE of the loaded one (redmean distance).
 */
import type { PlannedFilament } from './print-dispatched.js';
import type { FilamentSlot } from '../printers/filament-slot.js';
import { colorDistance, computeAmsMapping, EXTERNAL_SPOOL, type LoadedTray } from '../printers/families/bambu-lan/ams-mapping.js';
import type { FilamentRequirement, PrintFormat, QueueJob } from './job.js';

/**
 * Largest redmean distance between the colour asked for and the one loaded (0 identical, about 765
 * black to white). 100 takes shades a camera or a vendor would call the same (`#000000` and
 * `#1A1A1A`: 78) and refuses the next colour (`#000000` and dark grey `#333333`: 153).
 */
export const COLOR_TOLERANCE = 100;

export interface LoadedFilament {
  slot: FilamentSlot;
  material: string;
  color_hex: string | null;
  spool_id: number | null;
}

export interface PrinterSnapshot {
  id: string;
  name: string;
  type: string;
  model: string | null;
  nozzle_diameter: number | null;
  format: PrintFormat | null;
  /** The profile a model is sliced with for this printer, when the job names none. */
  printer_profile: string | null;
  /** What is loaded; null when the printer has not said yet (a Bambu printer before its first AMS report). */
  loaded: LoadedFilament[] | null;
}

export interface FilamentMatch {
  /** Per required filament, the slot that feeds it. */
  filaments: Array<Omit<PlannedFilament, 'grams' | 'length_mm'>>;
  /** For Bambu printers: slicer filament → global tray id, -1 for the external spool; null when no filament is named. */
  ams_mapping: number[] | null;
}

const NAMED_COLOURS: ReadonlyArray<[string, string]> = [
  ['black', '#000000'],
  ['white', '#FFFFFF'],
  ['grey', '#808080'],
  ['red', '#E02020'],
  ['orange', '#FF8000'],
  ['yellow', '#FFE000'],
  ['green', '#20A020'],
  ['blue', '#2040C0'],
  ['purple', '#8020A0'],
  ['pink', '#FF80C0'],
  ['brown', '#804020'],
];

/** `PETG black (#000000)`, `PLA #0A2989`, or the material alone. */
export function describeFilament(f: Pick<FilamentRequirement, 'material' | 'color_hex'>): string {
  if (f.color_hex === null) return f.material;
  const [name, distance] = NAMED_COLOURS.map(([n, hex]) => [n, colorDistance(hex, f.color_hex)] as const).sort((a, b) => a[1] - b[1])[0];
  return distance <= COLOR_TOLERANCE ? `${f.material} ${name} (${f.color_hex})` : `${f.material} ${f.color_hex}`;
}

function sameMaterial(a: string, b: string): boolean {
  return a.trim().toUpperCase() === b.trim().toUpperCase();
}

function colourFits(wanted: string | null, loaded: string | null): boolean {
  return wanted === null || colorDistance(wanted, loaded) <= COLOR_TOLERANCE;
}

/** Why the printer is not one the job may go to, whatever it has loaded; null when it is. */
export function unfitReason(printer: PrinterSnapshot, job: Pick<QueueJob, 'requirements' | 'file' | 'slice'>): string | null {
  const { requirements } = job;
  const format = job.file.format;
  if (requirements.printer_ids.length > 0 && !requirements.printer_ids.includes(printer.id)) return 'not one of the printers the job names';
  if (requirements.printer_type !== null && printer.type !== requirements.printer_type) return `not a ${requirements.printer_type} printer`;
  if (requirements.printer_model !== null && (printer.model ?? '').toLowerCase() !== requirements.printer_model.toLowerCase()) {
    return `not a ${requirements.printer_model}`;
  }
  if (requirements.nozzle_diameter !== null && printer.nozzle_diameter !== requirements.nozzle_diameter) {
    return `no ${requirements.nozzle_diameter} mm nozzle`;
  }
  if (format !== null && printer.format !== null && printer.format !== format) {
    return format === 'gcode.3mf' ? 'does not print .gcode.3mf projects' : 'does not print plain G-code';
  }
  if (job.slice !== null && job.slice.printer_profile_id === null && printer.printer_profile === null) return 'has no printer profile to slice with';
  return null;
}

/** The slots that feed the job's filaments on this printer, or the filaments it lacks. */
export function matchFilaments(
  printer: PrinterSnapshot,
  filaments: readonly FilamentRequirement[],
): FilamentMatch | { missing: FilamentRequirement[] } {
  if (filaments.length === 0) return { filaments: [], ams_mapping: null };
  const loaded = printer.loaded ?? [];
  if (printer.type === 'bambu-lan') return matchAms(loaded, filaments);
  const matched: FilamentMatch['filaments'] = [];
  const missing: FilamentRequirement[] = [];
  for (const f of filaments) {
    const spool = loaded.find(
      (l) => l.slot.kind === 'tool' && l.slot.tool === f.filament - 1 && sameMaterial(l.material, f.material) && colourFits(f.color_hex, l.color_hex),
    );
    if (spool)
      matched.push({ filament: f.filament, slot: spool.slot, spool_id: spool.spool_id, material: spool.material, color_hex: spool.color_hex });
    else missing.push(f);
  }
  return missing.length > 0 ? { missing } : { filaments: matched, ams_mapping: null };
}

function matchAms(loaded: readonly LoadedFilament[], filaments: readonly FilamentRequirement[]): FilamentMatch | { missing: FilamentRequirement[] } {
  const byTray = new Map<number, LoadedFilament>();
  for (const l of loaded) if (l.slot.kind === 'ams') byTray.set(l.slot.unit * 4 + l.slot.tray, l);
  const trays: LoadedTray[] = [...byTray].map(([id, l]) => ({ id, material: l.material.toUpperCase(), color: l.color_hex }));
  const external = loaded.find((l) => l.slot.kind === 'external') ?? null;
  const { mapping } = computeAmsMapping(
    filaments.map((f) => ({ id: f.filament, type: f.material.toUpperCase(), color: f.color_hex })),
    trays,
    external ? { slot: 0, present: true, material: external.material, color: external.color_hex, remaining_percent: null } : null,
  );
  const matched: FilamentMatch['filaments'] = [];
  const missing: FilamentRequirement[] = [];
  for (const f of filaments) {
    const tray = mapping[f.filament - 1];
    const source = tray === EXTERNAL_SPOOL ? external : (byTray.get(tray) ?? null);
    if (source && sameMaterial(source.material, f.material) && colourFits(f.color_hex, source.color_hex)) {
      matched.push({ filament: f.filament, slot: source.slot, spool_id: source.spool_id, material: source.material, color_hex: source.color_hex });
    } else missing.push(f);
  }
  return missing.length > 0 ? { missing } : { filaments: matched, ams_mapping: mapping };
}

/**
 * For a job that names no filament: where the printer feeds filaments 1…count from by default
 * (Marlin: tool T(n−1); Bambu without a mapping: global tray n−1), where something is loaded, so
 * that `print.dispatched` can still say which spool the print draws on.
 */
export function defaultFeeds(printer: PrinterSnapshot, count: number): FilamentMatch['filaments'] {
  const feeds: FilamentMatch['filaments'] = [];
  for (let n = 1; n <= count; n++) {
    const loaded = printer.loaded?.find((l) =>
      printer.type === 'bambu-lan'
        ? l.slot.kind === 'ams' && l.slot.unit * 4 + l.slot.tray === n - 1
        : l.slot.kind === 'tool' && l.slot.tool === n - 1,
    );
    if (loaded) feeds.push({ filament: n, slot: loaded.slot, spool_id: loaded.spool_id, material: loaded.material, color_hex: loaded.color_hex });
  }
  return feeds;
}
