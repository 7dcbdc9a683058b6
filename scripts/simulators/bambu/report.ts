/**
 * The `print.push_status` report: the printer's whole state in the shape Bambu firmware sends
 * (strings where the firmware sends strings), and the delta a P1-series printer sends instead:
 * only what changed since its last report, with `ams[]` and `tray[]` entries reduced to their
 * changed fields plus `id`.
 */
import { isDeepStrictEqual } from 'node:util';
import { trayBits, type AmsUnit, type Tray } from './ams.js';
import { AMS_STATUS_FILAMENT_CHANGE } from './filament-change.js';
import type { ModelProfile } from './models.js';
import type { PrinterState } from './printer-state.js';

export type Report = Record<string, unknown>;

/* X1 capability word; bit 0x20000000 set means Developer Mode is off (Bambuddy's detection). */
const FUN_BASE = 0x3ec18fff9cffn;
const FUN_NO_DEVELOPER_MODE = 0x20000000n;
/* home_flag bit 8: SD card present (ha-bambulab); bits 0–2: X, Y, Z homed. */
const HOME_SD_CARD = 0x100;
const HOME_XYZ = 0x7;

/** Fan speed 0..255 as the firmware reports it: a gear 0..15, as a string. */
function fanGear(speed: number): string {
  return String(Math.round((speed / 255) * 15));
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function trayReport(tray: Tray, slot: number): Report {
  return {
    id: String(slot),
    tray_id_name: '',
    tray_info_idx: tray.infoIdx,
    tray_type: tray.type,
    tray_sub_brands: '',
    tray_color: tray.color,
    tray_weight: '1000',
    tray_diameter: '1.75',
    tray_temp: '55',
    tray_time: '8',
    bed_temp_type: '1',
    bed_temp: String(tray.bedTemp),
    nozzle_temp_max: String(tray.nozzleTempMax),
    nozzle_temp_min: String(tray.nozzleTempMin),
    xcam_info: '000000000000000000000000',
    tray_uuid: tray.uuid,
    remain: tray.remain,
    k: 0.02,
    n: 1,
    cols: [tray.color],
    tag_uid: tray.remain >= 0 ? tray.uuid.slice(0, 16) : '0000000000000000',
    state: 11,
  };
}

function amsReport(units: readonly AmsUnit[], state: PrinterState): Report {
  const exist = trayBits(units, () => true);
  return {
    ams: units.map((unit) => ({
      id: String(unit.id),
      humidity: String(unit.humidity),
      temp: unit.temp.toFixed(1),
      tray: unit.trays.map((tray, slot) => (tray ? trayReport(tray, slot) : { id: String(slot) })),
    })),
    ams_exist_bits: ((1 << units.length) - 1).toString(16),
    tray_exist_bits: exist,
    tray_is_bbl_bits: trayBits(units, (t) => t.remain >= 0),
    tray_read_done_bits: exist,
    tray_reading_bits: '0',
    tray_now: String(state.trayNow),
    tray_pre: String(state.trayPrevious),
    tray_tar: String(state.trayTarget),
    insert_flag: true,
    power_on_flag: false,
    version: 4,
  };
}

const EXTERNAL_SPOOL: Report = {
  id: '254',
  tray_id_name: '',
  tray_info_idx: 'GFL99',
  tray_type: 'PLA',
  tray_sub_brands: '',
  tray_color: 'FFFFFFFF',
  tray_weight: '0',
  tray_diameter: '1.75',
  nozzle_temp_max: '230',
  nozzle_temp_min: '190',
  remain: -1,
  k: 0.02,
  n: 1,
  tag_uid: '0000000000000000',
  tray_uuid: '00000000000000000000000000000000',
};

export interface ReportInput {
  model: ModelProfile;
  state: PrinterState;
  developerMode: boolean;
  wifiDbm: number;
}

/** `gcode_file_prepare_percent`: 0 without a job, 100 once its preparation is over. */
function preparePercent(state: PrinterState): number {
  const job = state.job;
  if (!job) return 0;
  if (state.gcodeState === 'PREPARE' && job.prepareTotal > 0) return Math.floor((1 - Math.max(0, job.prepareLeft) / job.prepareTotal) * 100);
  return 100;
}

/** The body of a full push_status (without command, msg and sequence_id). */
export function fullReport({ model, state, developerMode, wifiDbm }: ReportInput): Report {
  const job = state.job;
  const printing = state.active;
  const prepare = preparePercent(state);
  const report: Report = {
    gcode_state: state.gcodeState,
    gcode_file: job?.file ?? '',
    gcode_file_prepare_percent: String(prepare),
    gcode_start_time: job ? String(Math.floor(job.startedAt / 1000)) : '0',
    subtask_name: job?.name ?? '',
    subtask_id: job?.ids.subtaskId ?? '',
    task_id: job?.ids.taskId ?? '',
    project_id: job?.ids.projectId ?? '',
    profile_id: job?.ids.profileId ?? '',
    print_type: job ? 'local' : '',
    mc_percent: job?.percent ?? 0,
    mc_remaining_time: state.reportedRemaining(),
    mc_print_stage: printing ? '2' : '1',
    mc_print_sub_stage: 0,
    mc_print_error_code: '0',
    print_error: state.printError,
    fail_reason: '0',
    layer_num: job?.layer ?? 0,
    total_layer_num: job?.plan?.totalLayers ?? 0,
    stg: [],
    stg_cur: state.stage,
    nozzle_temper: round1(state.nozzle.temp),
    nozzle_target_temper: round1(state.nozzle.target),
    bed_temper: round1(state.bed.temp),
    bed_target_temper: round1(state.bed.target),
    chamber_temper: round1(state.chamber),
    cooling_fan_speed: fanGear(state.partFan),
    big_fan1_speed: fanGear(state.auxFan),
    big_fan2_speed: fanGear(state.chamberFan),
    heatbreak_fan_speed: state.nozzle.temp > 50 ? '15' : '0',
    spd_lvl: state.speedLevel,
    spd_mag: Math.round(state.speedFactor * 100),
    wifi_signal: `${wifiDbm}dBm`,
    sdcard: true,
    home_flag: HOME_SD_CARD | (state.homed ? HOME_XYZ : 0),
    hw_switch_state: 1,
    lifecycle: 'product',
    lights_report: [...state.lights].map(([node, mode]) => ({ node, mode })),
    hms: state.hms.map((h) => ({ attr: h.attr, code: h.code })),
    nozzle_diameter: '0.4',
    nozzle_type: model.nozzleType,
    ams: amsReport(state.ams, state),
    vt_tray: EXTERNAL_SPOOL,
    ams_status: state.filamentChange ? AMS_STATUS_FILAMENT_CHANGE : 0,
    ams_rfid_status: 6,
    ipcam: { ipcam_dev: '1', ipcam_record: 'enable', timelapse: 'disable', resolution: '1080p' },
    xcam: { first_layer_inspector: true, spaghetti_detector: true, print_halt: true, halt_print_sensitivity: 'medium' },
    online: { ahb: false, rfid: false, version: 1 },
  };
  if (model.sendsFun) report.fun = (developerMode ? FUN_BASE : FUN_BASE | FUN_NO_DEVELOPER_MODE).toString(16).toUpperCase();
  return report;
}

function isObject(value: unknown): value is Report {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdList(value: unknown): value is Report[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => isObject(v) && 'id' in v);
}

/**
 * What changed from `prev` to `next`, or undefined when nothing did. Objects are compared key by
 * key; lists of entries with an `id` (AMS units, trays) by id, each changed entry sent as its
 * changed fields plus `id`; anything else is sent whole when it differs.
 */
export function diffReport(prev: unknown, next: unknown): unknown {
  if (isObject(prev) && isObject(next)) {
    const out: Report = {};
    for (const [key, value] of Object.entries(next)) {
      const d = diffReport(prev[key], value);
      if (d !== undefined) out[key] = d;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (isIdList(prev) && isIdList(next)) {
    const before = new Map(prev.map((entry) => [entry.id, entry]));
    if (next.length !== prev.length || next.some((entry) => !before.has(entry.id))) return next;
    const changed: Report[] = [];
    for (const entry of next) {
      const d = diffReport(before.get(entry.id), entry);
      if (d !== undefined) changed.push({ id: entry.id, ...(d as Report) });
    }
    return changed.length > 0 ? changed : undefined;
  }
  return isDeepStrictEqual(prev, next) ? undefined : next;
}
