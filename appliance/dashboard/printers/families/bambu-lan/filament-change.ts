/**
 * Filament load and unload on Bambu Lab printers: `print.ams_change_filament`, the request Bambu
 * Studio's Load/Unload buttons send (OrcaSlicer/BambuStudio `DeviceManager.cpp`
 * `command_ams_change_filament`, `StatusPanel::on_ams_load_curr`):
 * - load: `target` = the global tray id (`ams_id * 4 + slot`, 254 for the external spool),
 *   `ams_id` and `slot_id` (newer firmware reads these; the external spool is `ams_id` 255,
 *   `slot_id` 0), `curr_temp` = the temperature for the filament now in the nozzle, `tar_temp` =
 *   the one for the new filament: the middle of the tray's `nozzle_temp_min`–`nozzle_temp_max`,
 *   else a default for its material;
 * - unload: `target` 255, `slot_id` 255, both temperatures those of the loaded filament.
 * Settled by the reply, or by `ams.tray_now` turning to the target (255 after an unload).
 *
 * Offered on every Bambu printer, since every one has the external spool holder; which trays
 * exist is decided per request from the printer's last report. Refused: 409 while a print is
 * active or a filament change is under way, or when unloading with nothing loaded; 422 for a tray
 * that does not exist or is empty, and for a tool other than 0 (one nozzle); 400 for a load that
 * names no tray.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { unsupportedAction, type PrinterActionParams } from '../../actions.js';
import type { BambuRequest } from './bambu-request.js';
import { ACTIVE_STATES, amsUpdate, EXTERNAL_TRAY, gcodeState, list, NO_TRAY, num, obj, str } from './bambu-status.js';
import type { Json } from './report-state.js';

const TRAYS_PER_UNIT = 4;
/** `ams_id` of the external spool in the request (Bambu Studio maps 254 to 255 there). */
const EXTERNAL_AMS_ID = 255;
/** `ams_status` high byte 1: the AMS is changing filament. */
const AMS_MAIN_FILAMENT_CHANGE = 1;
/** Nozzle temperatures for a load when the tray gives no range (mid-range of common presets). */
const DEFAULT_NOZZLE_TEMP: Readonly<Record<string, number>> = {
  PLA: 220,
  'PLA-CF': 230,
  PETG: 255,
  'PETG-CF': 260,
  ABS: 260,
  ASA: 260,
  TPU: 230,
  PVA: 220,
  HIPS: 240,
  PA: 280,
  'PA-CF': 290,
  PC: 270,
};
const FALLBACK_NOZZLE_TEMP = 220;

/** The tray entry of the report for a global tray id (254 = `vt_tray`), or null. */
function trayEntry(print: Json, tray: number): Json | null {
  if (tray === EXTERNAL_TRAY) return Object.keys(obj(print.vt_tray)).length > 0 ? obj(print.vt_tray) : null;
  const unit = list(obj(print.ams).ams).find((u) => num(u.id) === Math.floor(tray / TRAYS_PER_UNIT));
  return list(unit?.tray).find((t) => num(t.id) === tray % TRAYS_PER_UNIT) ?? null;
}

/** The nozzle temperature for the filament of a tray: mid-range, else per material; null when unknown. */
export function trayNozzleTemp(print: Json, tray: number): number | null {
  const entry = trayEntry(print, tray);
  if (!entry) return null;
  const min = num(entry.nozzle_temp_min);
  const max = num(entry.nozzle_temp_max);
  if (min !== null && max !== null && min > 0 && max >= min) return Math.round((min + max) / 2);
  const material = str(entry.tray_type).trim().toUpperCase();
  return material === '' ? null : (DEFAULT_NOZZLE_TEMP[material] ?? FALLBACK_NOZZLE_TEMP);
}

function trayNow(print: Json): number | null {
  return num(obj(print.ams).tray_now);
}

function changing(print: Json): boolean {
  const status = num(print.ams_status);
  return status !== null && status >> 8 === AMS_MAIN_FILAMENT_CHANGE;
}

function conflict(message: string): AppError {
  return new AppError(ErrorCode.conflict, 409, message);
}

/** The global tray id a load names; refuses trays this printer does not have or that hold no spool. */
function loadTarget(params: PrinterActionParams['load_filament'], print: Json): number {
  if (params.tray === undefined) {
    throw new AppError(ErrorCode.validation, 400, 'body/tray is required on Bambu Lab printers: an AMS tray (0–15) or "external"', [
      { path: 'body/tray', message: 'is required on Bambu Lab printers' },
    ]);
  }
  if (params.tray === 'external') return EXTERNAL_TRAY;
  const ams = amsUpdate('', print, new Date(0));
  const unit = ams.units.find((u) => u.id === Math.floor((params.tray as number) / TRAYS_PER_UNIT));
  if (!unit) {
    const units =
      ams.units.length === 0
        ? 'it has no AMS'
        : `its AMS trays are ${ams.units.map((u) => `${u.id * TRAYS_PER_UNIT}–${u.id * TRAYS_PER_UNIT + 3}`).join(', ')}`;
    throw unsupportedAction(`this printer has no tray ${params.tray} (${units}; or "external")`);
  }
  if (!unit.trays[params.tray % TRAYS_PER_UNIT].present) throw unsupportedAction(`tray ${params.tray} is empty: put a spool in it first`);
  return params.tray;
}

export function filamentRequest(
  action: 'load_filament' | 'unload_filament',
  params: PrinterActionParams['load_filament'],
  print: Json,
): BambuRequest {
  const verb = action === 'load_filament' ? 'load filament' : 'unload filament';
  if (params.tool !== undefined && params.tool !== 0)
    throw unsupportedAction(`Bambu Lab printers on this driver have one nozzle (tool 0); there is no tool ${params.tool}`);
  const state = gcodeState(print);
  if (ACTIVE_STATES.has(state)) throw conflict(`cannot ${verb} while the printer is ${state}`);
  const loaded = trayNow(print);
  const nozzleNow = Math.round(num(print.nozzle_temper) ?? 0);
  const loadedTemp = loaded === null || loaded === NO_TRAY ? null : trayNozzleTemp(print, loaded);
  if (action === 'unload_filament') {
    if (changing(print)) throw conflict(`cannot ${verb}: a filament change is under way`);
    if (loaded === NO_TRAY) throw conflict('nothing to unload: the printer reports no filament loaded');
    const temp = loadedTemp ?? Math.max(nozzleNow, FALLBACK_NOZZLE_TEMP);
    const amsId = loaded === null || loaded === EXTERNAL_TRAY ? EXTERNAL_AMS_ID : Math.floor(loaded / TRAYS_PER_UNIT);
    return {
      kind: 'print',
      command: 'ams_change_filament',
      params: { target: NO_TRAY, ams_id: amsId, slot_id: NO_TRAY, curr_temp: temp, tar_temp: temp },
      confirm: (p) => trayNow(p) === NO_TRAY && !changing(p),
    };
  }
  const target = loadTarget(params, print);
  if (changing(print)) throw conflict(`cannot ${verb}: a filament change is under way`);
  const external = target === EXTERNAL_TRAY;
  return {
    kind: 'print',
    command: 'ams_change_filament',
    params: {
      target,
      ams_id: external ? EXTERNAL_AMS_ID : Math.floor(target / TRAYS_PER_UNIT),
      slot_id: external ? 0 : target % TRAYS_PER_UNIT,
      curr_temp: loadedTemp ?? nozzleNow,
      tar_temp: trayNozzleTemp(print, target) ?? FALLBACK_NOZZLE_TEMP,
    },
    confirm: (p) => trayNow(p) === target && !changing(p),
  };
}
