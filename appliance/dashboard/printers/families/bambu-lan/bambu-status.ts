/**
 * Reads the merged `print` state of a Bambu printer (report-state.ts) as the dashboard's live
 * state: `PrinterStatus`, `PrintProgress`, `AmsUpdate`, and the facts `/state` shows besides.
 *
 * - `gcode_state`: IDLE → idle; PREPARE and SLICING → preparing; RUNNING → printing; PAUSE →
 *   paused; FINISH → finished; FAILED → error, with the reason from `print_error` (a cancelled
 *   print is FAILED with 0300-400C "printing was cancelled", as the firmware reports it).
 * - `mc_remaining_time` is in minutes; `mc_percent` percent; fans are gears 0–15 as strings.
 * - Developer Mode: an X1/H2 says so in bit 0x20000000 of `fun` (set = off); any model raises
 *   HMS 0500-0500-0001-0007 "MQTT command verification failed" when it drops a control command.
 */
import type { AmsTray, AmsUnit, AmsUpdate, PrintJobStatus, PrinterState, PrinterStatus } from '../../status.js';
import type { Json } from './report-state.js';

export const ACTIVE_STATES: ReadonlySet<string> = new Set(['PREPARE', 'SLICING', 'RUNNING', 'PAUSE']);
const STATE_MAP: Readonly<Record<string, PrinterState>> = {
  IDLE: 'idle',
  PREPARE: 'preparing',
  SLICING: 'preparing',
  RUNNING: 'printing',
  PAUSE: 'paused',
  FINISH: 'finished',
  FAILED: 'error',
};

export const PRINT_ERROR_TEXT: Readonly<Record<number, string>> = {
  0x0300400c: 'printing was cancelled',
  0x05004004: 'the device is busy',
  0x05004003: 'unable to parse the file',
  0x07008012: 'failed to get the AMS mapping table',
};

/** HMS "MQTT command verification failed": the printer drops control commands (Developer Mode off). */
export const HMS_COMMAND_VERIFICATION = '0500050000010007';
const FUN_DEVELOPER_MODE_OFF = 0x20000000n;
const TRAYS_PER_UNIT = 4;
export const EXTERNAL_TRAY = 254;
export const NO_TRAY = 255;
const FAN_GEARS = 15;

export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
}

export function gcodeState(print: Json): string {
  return str(print.gcode_state);
}

/** `0500-4003`, as the printer's screen and Bambu's wiki write error codes. */
export function formatErrorCode(code: number): string {
  const hex = (code >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

export function describePrintError(code: number): string {
  return `${PRINT_ERROR_TEXT[code] ?? 'print error'} (${formatErrorCode(code)})`;
}

export function printError(print: Json): number {
  return num(print.print_error) ?? 0;
}

/** HMS entries as 16 hex digits, `attr` then `code` (the key Bambu's HMS catalogue uses). */
export function hmsCodes(print: Json): string[] {
  return list(print.hms).map((entry) => {
    const part = (v: unknown) => ((num(v) ?? 0) >>> 0).toString(16).toUpperCase().padStart(8, '0');
    return part(entry.attr) + part(entry.code);
  });
}

/** What the `fun` capability word says (X1/H2); null for models that do not send it. */
export function funDeveloperMode(print: Json): boolean | null {
  const fun = str(print.fun);
  return /^[0-9A-Fa-f]+$/.test(fun) ? (BigInt(`0x${fun}`) & FUN_DEVELOPER_MODE_OFF) === 0n : null;
}

export function commandsRefused(print: Json): boolean {
  return hmsCodes(print).includes(HMS_COMMAND_VERIFICATION);
}

/** True or false when the printer tells; null when it has not (P1/A1 before a refused command). */
export function developerMode(print: Json): boolean | null {
  return commandsRefused(print) ? false : funDeveloperMode(print);
}

function fanPercent(gear: unknown): number | null {
  const g = num(gear);
  return g === null ? null : Math.round((Math.min(Math.max(g, 0), FAN_GEARS) / FAN_GEARS) * 100);
}

function temperatures(print: Json): PrinterStatus['temperatures'] {
  const out: PrinterStatus['temperatures'] = {};
  const heater = (name: string, actual: unknown, target: unknown) => {
    const a = num(actual);
    if (a !== null) out[name] = { actual: a, target: num(target) ?? 0 };
  };
  heater('tool0', print.nozzle_temper, print.nozzle_target_temper);
  heater('bed', print.bed_temper, print.bed_target_temper);
  heater('chamber', print.chamber_temper, print.chamber_target_temper);
  return out;
}

function fans(print: Json): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, key] of [
    ['part', 'cooling_fan_speed'],
    ['aux', 'big_fan1_speed'],
    ['chamber', 'big_fan2_speed'],
    ['heatbreak', 'heatbreak_fan_speed'],
  ]) {
    const percent = fanPercent(print[key]);
    if (percent !== null) out[name] = percent;
  }
  return out;
}

/** The job the printer reports, or null when it has none (idle, or nothing named). */
export function printJob(print: Json, now: Date): PrintJobStatus | null {
  const state = gcodeState(print);
  const file = str(print.subtask_name) || str(print.gcode_file);
  if (state === '' || state === 'IDLE' || file === '') return null;
  const layer = num(print.layer_num);
  const total = num(print.total_layer_num);
  const remainingMin = num(print.mc_remaining_time);
  const started = num(print.gcode_start_time);
  const active = ACTIVE_STATES.has(state);
  return {
    file,
    progress: Math.min(100, Math.max(0, num(print.mc_percent) ?? 0)),
    layer: layer !== null && layer >= 0 ? layer : null,
    total_layers: total !== null && total > 0 ? total : null,
    elapsed_s: active && started !== null && started > 0 ? Math.max(0, Math.round(now.getTime() / 1000 - started)) : null,
    remaining_s: active && remainingMin !== null && remainingMin >= 0 ? remainingMin * 60 : null,
  };
}

export interface StatusOverride {
  /** A problem the driver found itself (a start that did not happen): state `error` with this reason. */
  error: string | null;
}

export function printerStatus(printerId: string, print: Json, updatedAt: Date, override: StatusOverride): PrinterStatus {
  const raw = gcodeState(print);
  let state: PrinterState = STATE_MAP[raw] ?? 'idle';
  let error: string | null = null;
  if (state === 'error') {
    const code = printError(print);
    error = code === 0 ? 'the print failed' : `print failed: ${describePrintError(code)}`;
  }
  if (override.error !== null) {
    state = 'error';
    error = override.error;
  }
  return {
    printer_id: printerId,
    state,
    online: true,
    temperatures: temperatures(print),
    job: printJob(print, updatedAt),
    fans: fans(print),
    error,
    updated_at: updatedAt.toISOString(),
  };
}

function trayColor(value: unknown): string | null {
  const hex = str(value).replace(/^#/, '').toUpperCase();
  if (/^[0-9A-F]{8}$/.test(hex)) return `#${hex}`;
  if (/^[0-9A-F]{6}$/.test(hex)) return `#${hex}FF`;
  return null;
}

function amsTray(entry: Json, slot: number, present: boolean): AmsTray {
  const material = str(entry.tray_type).trim();
  const loaded = present && material !== '';
  const remain = num(entry.remain);
  const uuid = str(entry.tray_uuid);
  const k = num(entry.k);
  return {
    slot,
    present: loaded,
    material: loaded ? material : null,
    color: loaded ? trayColor(entry.tray_color) : null,
    remaining_percent: loaded && remain !== null && remain >= 0 ? remain : null,
    ...(loaded && k !== null ? { k } : {}),
    ...(loaded && /[1-9A-Fa-f]/.test(uuid) ? { spool_uuid: uuid } : {}),
  };
}

function bitSet(hex: unknown, bit: number): boolean | null {
  const text = str(hex);
  if (!/^[0-9A-Fa-f]+$/.test(text)) return null;
  return ((BigInt(`0x${text}`) >> BigInt(bit)) & 1n) === 1n;
}

/** `tray_now` as the status shows it: NO_TRAY is none, EXTERNAL_TRAY the spool outside the AMS. */
function activeTray(trayNow: number | null): AmsUpdate['active_tray'] {
  if (trayNow === null || trayNow === NO_TRAY) return null;
  return trayNow === EXTERNAL_TRAY ? 'external' : trayNow;
}

export function amsUpdate(printerId: string, print: Json, updatedAt: Date): AmsUpdate {
  const ams = obj(print.ams);
  const units: AmsUnit[] = list(ams.ams)
    .map((unit) => {
      const id = num(unit.id) ?? 0;
      const trays = list(unit.tray);
      const slots: AmsTray[] = [];
      for (let slot = 0; slot < TRAYS_PER_UNIT; slot++) {
        const entry = trays.find((t) => num(t.id) === slot) ?? {};
        // tray_exist_bits is the printer's word on which slots hold a spool; stale tray fields are not.
        const present = bitSet(ams.tray_exist_bits, id * TRAYS_PER_UNIT + slot) ?? true;
        slots.push(amsTray(entry, slot, present));
      }
      return { id, humidity: num(unit.humidity), temperature: num(unit.temp), trays: slots };
    })
    .filter((unit) => bitSet(ams.ams_exist_bits, unit.id) !== false)
    .sort((a, b) => a.id - b.id);
  const vt = obj(print.vt_tray);
  const now = num(ams.tray_now);
  return {
    printer_id: printerId,
    units,
    external: Object.keys(vt).length > 0 ? amsTray(vt, 0, true) : null,
    active_tray: activeTray(now),
    updated_at: updatedAt.toISOString(),
  };
}

/** What `/state` shows besides status and AMS: the protocol's own words. */
export function stateDetails(print: Json): Record<string, unknown> {
  const code = printError(print);
  const lights: Record<string, string> = {};
  for (const light of list(print.lights_report)) lights[str(light.node)] = str(light.mode);
  return {
    gcode_state: gcodeState(print) || null,
    stage: num(print.stg_cur),
    speed_level: num(print.spd_lvl),
    speed_percent: num(print.spd_mag),
    lights,
    print_error: code === 0 ? null : { code: formatErrorCode(code), text: PRINT_ERROR_TEXT[code] ?? null },
    hms: hmsCodes(print),
    developer_mode: developerMode(print),
    nozzle: { diameter: num(print.nozzle_diameter), type: str(print.nozzle_type) || null },
    wifi_signal: str(print.wifi_signal) || null,
    subtask_id: str(print.subtask_id) || null,
  };
}

/** The light nodes the printer reports (`chamber_light`, `work_light`). */
export function lightNodes(print: Json): string[] {
  return list(print.lights_report).map((light) => str(light.node));
}
