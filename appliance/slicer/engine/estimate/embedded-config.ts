/**
 * The printer settings a slicer wrote into its own G-code, as `; key = value` comment lines:
 * PrusaSlicer's footer (`; prusaslicer_config = begin` … `end`) and OrcaSlicer/BambuStudio's
 * `; CONFIG_BLOCK_START` … `; CONFIG_BLOCK_END`, which may sit at either end of the file. Only the
 * head and the tail of the file are read, so a 100 MB file costs a couple of megabytes.
 */
import { readFileEnds } from '../../../common/file-ends.js';
import { defaultConfig, isSettingKey, parseSetting, settingDef, type PrintConfig, type SettingKey } from '../../profiles/schema.js';
import { firmwareRetractionFromConfig, limitsFromConfig, type FirmwareRetraction, type MachineLimits } from './limits.js';

const HEAD_BYTES = 512 * 1024;
const TAIL_BYTES = 1024 * 1024;
const SETTING_LINE = /^;[ \t]*([a-z][a-z0-9_]*)[ \t]*=[ \t]?(.*?)[ \t\r]*$/gm;

/** PrusaSlicer's names for the settings we read, where they differ from ours (OrcaSlicer's). */
const PRUSA_NAMES: Readonly<Record<string, SettingKey>> = {
  machine_max_feedrate_x: 'machine_max_speed_x',
  machine_max_feedrate_y: 'machine_max_speed_y',
  machine_max_feedrate_z: 'machine_max_speed_z',
  machine_max_feedrate_e: 'machine_max_speed_e',
  retract_length: 'retraction_length',
  retract_speed: 'retraction_speed',
  deretract_speed: 'deretraction_speed',
};

/** The settings the estimator takes from a file: machine limits, flavour, firmware retraction. */
const WANTED = new Set<SettingKey>([
  'gcode_flavor',
  'machine_max_speed_x',
  'machine_max_speed_y',
  'machine_max_speed_z',
  'machine_max_speed_e',
  'machine_max_acceleration_x',
  'machine_max_acceleration_y',
  'machine_max_acceleration_z',
  'machine_max_acceleration_e',
  'machine_max_acceleration_extruding',
  'machine_max_acceleration_retracting',
  'machine_max_acceleration_travel',
  'machine_max_jerk_x',
  'machine_max_jerk_y',
  'machine_max_jerk_z',
  'machine_max_jerk_e',
  'machine_max_junction_deviation',
  'machine_min_extruding_rate',
  'machine_min_travel_rate',
  'klipper_square_corner_velocity',
  'retraction_length',
  'retraction_speed',
  'deretraction_speed',
  'retract_restart_extra',
]);

export interface EmbeddedMachine {
  limits: MachineLimits;
  firmwareRetraction: FirmwareRetraction[];
  /** How many settings were read; 0 means the file said nothing and these are defaults. */
  settingsRead: number;
}

/** Every `; key = value` line of a text, last one winning. */
export function parseSettingLines(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const m of text.matchAll(SETTING_LINE)) settings.set(m[1], m[2]);
  return settings;
}

/**
 * The machine the settings describe, over our defaults. Unknown or unreadable values are skipped:
 * an uploaded file is estimated as well as it can be, never rejected for its comments. Machine
 * limits are ignored when PrusaSlicer was told to ignore them (`machine_limits_usage = ignore`).
 */
export function machineFromSettings(settings: ReadonlyMap<string, string>): EmbeddedMachine {
  const config: PrintConfig = defaultConfig();
  const ignoreLimits = settings.get('machine_limits_usage') === 'ignore';
  const target = config as Record<SettingKey, unknown>;
  let settingsRead = 0;
  for (const [name, raw] of settings) {
    const key = PRUSA_NAMES[name] ?? name;
    if (!isSettingKey(key) || !WANTED.has(key)) continue;
    if (ignoreLimits && key.startsWith('machine_')) continue;
    // Machine limits come as "normal,silent" pairs; the first is the normal mode.
    const value = settingDef(key).perExtruder ? raw : raw.split(',')[0];
    try {
      target[key] = parseSetting(key, value);
      settingsRead++;
    } catch {
      // An unreadable value keeps our default.
    }
  }
  return { limits: limitsFromConfig(config), firmwareRetraction: firmwareRetractionFromConfig(config), settingsRead };
}

/** Reads the settings embedded at the head and the tail of a G-code file. */
export async function readEmbeddedMachine(path: string): Promise<EmbeddedMachine> {
  const { text } = await readFileEnds(path, HEAD_BYTES, TAIL_BYTES);
  return machineFromSettings(parseSettingLines(text));
}
