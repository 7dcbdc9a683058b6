/**
 * The printers as a dispatch round sees them: each one's identity for the job's requirements,
 * what it has loaded, whether it takes a job now (slice-and-send's readiness rule, so the queue
 * and a manual send agree) and whether its plate is confirmed clear.
 * - Loaded filament: Bambu printers from their last AMS report (`ams.update`, kept by the driver),
 *   with the inventory's spool in each tray when it knows one; Marlin printers from the spools the
 *   inventory assigned to their tools (SpoolDirectory).
 * - Nozzle: what the printer reports (Bambu `nozzle_diameter`), else the printer profile's name
 *   when it ends in the diameter (`generic-marlin-0.4`), else unknown (a nozzle requirement then
 *   does not match).
 */
import { isAppError } from '../../common/errors.js';
import { loadedSpoolsOf } from '../inventory/loaded-spools.js';
import type { SpoolDirectory } from '../inventory/spool.js';
import type { Printers } from '../printers/feature.js';
import type { PrinterView } from '../printers/printer.js';
import type { AmsUpdate } from '../printers/status.js';
import { printFormatOf, readyPrinter } from '../slicing/send-to-printer.js';
import { normaliseHex } from './job.js';
import type { FilamentRequirement } from './job.js';
import type { FilamentMatch, LoadedFilament, PrinterSnapshot } from './matching.js';
import type { Plates } from './plates.js';

export interface RoundPrinter {
  snapshot: PrinterSnapshot;
  view: PrinterView;
  /** Why it takes no job now (offline, busy…); null when it does. */
  notReady: string | null;
  plateClear: boolean;
  /** The round's filament matches on this printer by requirement list (pick-printer.ts fills it). */
  matches: Map<string, FilamentMatch | { missing: FilamentRequirement[] }>;
}

function nozzleOf(view: PrinterView, details: Record<string, unknown>): number | null {
  const reported = (details.nozzle as { diameter?: unknown } | undefined)?.diameter;
  if (typeof reported === 'number' && reported > 0) return reported;
  const fromProfile = /-(\d+(?:\.\d+)?)$/.exec(view.printer_profile ?? '');
  return fromProfile ? Number(fromProfile[1]) : null;
}

function amsLoaded(ams: AmsUpdate, spools: readonly { id: number; slot: LoadedFilament['slot'] | null }[]): LoadedFilament[] {
  const spoolAt = (unit: number | null, tray: number | null): number | null =>
    spools.find((s) => (unit === null ? s.slot?.kind === 'external' : s.slot?.kind === 'ams' && s.slot.unit === unit && s.slot.tray === tray))?.id ??
    null;
  const loaded: LoadedFilament[] = [];
  for (const unit of ams.units) {
    for (const tray of unit.trays) {
      if (!tray.present || !tray.material) continue;
      loaded.push({
        slot: { kind: 'ams', unit: unit.id, tray: tray.slot },
        material: tray.material.toUpperCase(),
        color_hex: normaliseHex(tray.color),
        spool_id: spoolAt(unit.id, tray.slot),
      });
    }
  }
  if (ams.external?.present && ams.external.material) {
    loaded.push({
      slot: { kind: 'external' },
      material: ams.external.material.toUpperCase(),
      color_hex: normaliseHex(ams.external.color),
      spool_id: spoolAt(null, null),
    });
  }
  return loaded;
}

function loadedOn(printers: Printers, spools: SpoolDirectory | null, view: PrinterView): LoadedFilament[] | null {
  const assigned = loadedSpoolsOf(spools, view.id);
  if (view.type === 'bambu-lan') {
    const ams = printers.manager.driver(view.id)?.state?.().ams ?? null;
    return ams ? amsLoaded(ams, assigned) : null;
  }
  return assigned
    .filter((s) => s.slot !== null && !s.archived)
    .map((s) => ({
      slot: s.slot as LoadedFilament['slot'],
      material: s.material.toUpperCase(),
      color_hex: normaliseHex(s.color_hex),
      spool_id: s.id,
    }));
}

export function snapshotPrinters(printers: Printers, spools: SpoolDirectory | null, plates: Plates): RoundPrinter[] {
  return printers.fleet
    .list()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((view) => {
      let notReady: string | null = null;
      try {
        readyPrinter(printers, view.id);
      } catch (err) {
        notReady = isAppError(err) ? err.message : String(err);
      }
      const details = printers.manager.driver(view.id)?.state?.().details ?? {};
      return {
        view,
        notReady,
        plateClear: plates.isClear(view.id),
        matches: new Map(),
        snapshot: {
          id: view.id,
          name: view.name,
          type: view.type,
          model: view.model ?? view.identity?.model ?? null,
          nozzle_diameter: nozzleOf(view, details),
          format: printFormatOf(view),
          printer_profile: view.printer_profile,
          loaded: loadedOn(printers, spools, view),
        },
      };
    });
}
