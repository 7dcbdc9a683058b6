/**
 * The variables custom G-code templates see (the placeholder contract in README.md): every
 * setting by its key, PrusaSlicer aliases, OrcaSlicer derived names and the job context. Built
 * once per job; per-layer and per-toolchange values go in a cheap overlay (`withLayer`).
 */
import { SETTINGS, type PrintConfig, type Point2, type SettingKey } from '../../profiles/schema.js';
import { crossSection, roleWidths } from '../regions/flow.js';
import { bedTemperatures } from './bed-temperature.js';
import type { TemplateValue, TemplateVars } from './template/index.js';

export interface TemplateJobContext {
  /** 0-based filament the print starts with. */
  initialExtruder: number;
  /** First filament that prints the model rather than support; defaults to `initialExtruder`. */
  initialNoSupportExtruder?: number;
  /** 0-based filaments the print uses. */
  usedExtruders: readonly number[];
  totalLayerCount: number;
  /** XY bounding box of the first layer's extrusions, mm. */
  firstLayerPrintMin: [number, number];
  firstLayerPrintMax: [number, number];
  totalToolchanges: number;
  /** Model file name without directory and extension. */
  inputFilenameBase: string;
  plateName?: string;
  /** When the job was sliced; `timestamp`, `year`... are given in the appliance's local time, as PrusaSlicer does. */
  date: Date;
  printSettingsId?: string;
  printerSettingsId?: string;
  /** Per filament. */
  filamentSettingsId?: string[];
}

/** What changes per layer; any extra name (e.g. `timelapse_type`, toolchange values) may ride along. */
export type LayerVars = { layer_num: number; layer_z: number; max_layer_z: number } & TemplateVars;

/** PrusaSlicer and OrcaSlicer keep machine limits as [normal, silent] vectors; templates index them. */
const MACHINE_LIMIT = /^machine_(max|min)_/;

const PRUSA_FEEDRATE_ALIASES = {
  machine_max_feedrate_x: 'machine_max_speed_x',
  machine_max_feedrate_y: 'machine_max_speed_y',
  machine_max_feedrate_z: 'machine_max_speed_z',
  machine_max_feedrate_e: 'machine_max_speed_e',
} as const satisfies Record<string, SettingKey>;

function settingValue(key: SettingKey, value: unknown): TemplateValue {
  if (SETTINGS[key].type === 'points') return (value as Point2[]).map(([x, y]) => `${x}x${y}`);
  if (MACHINE_LIMIT.test(key) && typeof value === 'number') return [value, value];
  return value as TemplateValue;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function bedBox(area: Point2[]): { min: [number, number]; max: [number, number] } {
  const xs = area.map((p) => p[0]);
  const ys = area.map((p) => p[1]);
  return { min: [Math.min(...xs), Math.min(...ys)], max: [Math.max(...xs), Math.max(...ys)] };
}

/**
 * OrcaSlicer's `outer_wall_volumetric_speed`: outer wall speed times the outer wall's cross-section
 * (rounded rectangle, h*(w - h*(1 - pi/4))) at the layer height, capped by the initial filament's
 * maximum volumetric speed. Bambu start G-code uses it for the purge line feed rate.
 */
function outerWallVolumetricSpeed(config: PrintConfig, extruder: number): number {
  const volumetric = config.outer_wall_speed * crossSection(roleWidths(config, extruder).outerWall, config.layer_height);
  const cap = config.filament_max_volumetric_speed[Math.min(extruder, config.filament_max_volumetric_speed.length - 1)];
  return cap > 0 ? Math.min(volumetric, cap) : volumetric;
}

export function buildTemplateVars(config: PrintConfig, job: TemplateJobContext): TemplateVars {
  const vars: TemplateVars = Object.create(null) as TemplateVars;
  for (const key of Object.keys(SETTINGS) as SettingKey[]) vars[key] = settingValue(key, config[key]);

  const temps = bedTemperatures(config);
  const initial = job.initialExtruder;
  const filamentCount = config.filament_type.length;
  const bed = bedBox(config.printable_area);

  Object.assign(vars, {
    // PrusaSlicer names
    first_layer_temperature: config.nozzle_temperature_initial_layer,
    temperature: config.nozzle_temperature,
    bed_temperature: temps.bed,
    first_layer_bed_temperature: temps.firstLayer,
    first_layer_height: config.initial_layer_print_height,
    max_print_height: config.printable_height,
    bed_shape: settingValue('printable_area', config.printable_area),
    perimeters: config.wall_loops,
    fill_density: config.sparse_infill_density,
    retract_length: config.retraction_length,
    retract_speed: config.retraction_speed,
    retract_lift: config.z_hop,
    extrusion_multiplier: config.filament_flow_ratio,
    max_volumetric_speed: config.filament_max_volumetric_speed,
    print_settings_id: job.printSettingsId ?? '',
    printer_settings_id: job.printerSettingsId ?? '',
    filament_settings_id: job.filamentSettingsId ?? config.filament_type.map(() => ''),
    // OrcaSlicer derived names
    bed_temperature_initial_layer: temps.firstLayer,
    bed_temperature_initial_layer_single: temps.firstLayer[Math.min(initial, temps.firstLayer.length - 1)],
    chamber_temperature: config.chamber_temperatures,
    outer_wall_volumetric_speed: outerWallVolumetricSpeed(config, initial),
    // job context
    initial_extruder: initial,
    initial_tool: initial,
    initial_no_support_extruder: job.initialNoSupportExtruder ?? initial,
    current_extruder: initial,
    next_extruder: initial,
    previous_extruder: -1,
    layer_num: 0,
    layer_z: config.initial_layer_print_height,
    max_layer_z: 0,
    total_layer_count: job.totalLayerCount,
    first_layer_print_min: job.firstLayerPrintMin,
    first_layer_print_max: job.firstLayerPrintMax,
    first_layer_print_size: [job.firstLayerPrintMax[0] - job.firstLayerPrintMin[0], job.firstLayerPrintMax[1] - job.firstLayerPrintMin[1]],
    print_bed_min: bed.min,
    print_bed_max: bed.max,
    print_bed_size: [bed.max[0] - bed.min[0], bed.max[1] - bed.min[1]],
    is_extruder_used: Array.from({ length: filamentCount }, (_, i) => job.usedExtruders.includes(i)),
    total_toolchanges: job.totalToolchanges,
    toolchange_z: 0,
    has_wipe_tower: config.enable_prime_tower && job.usedExtruders.length > 1,
    input_filename_base: job.inputFilenameBase,
    plate_name: job.plateName ?? '',
  } satisfies TemplateVars);

  for (const [alias, key] of Object.entries(PRUSA_FEEDRATE_ALIASES)) vars[alias] = vars[key];

  const d = job.date;
  const yearMonthDay = `${d.getFullYear()}${pad2(d.getMonth() + 1)}${pad2(d.getDate())}`;
  vars.timestamp = `${yearMonthDay}${pad2(d.getHours())}${pad2(d.getMinutes())}${pad2(d.getSeconds())}`;
  vars.year = d.getFullYear();
  vars.month = d.getMonth() + 1;
  vars.day = d.getDate();
  vars.hour = d.getHours();
  vars.minute = d.getMinutes();
  vars.second = d.getSeconds();
  return vars;
}

/** The job's variables with per-layer values on top; the job's object is shared, not copied. */
export function withLayer(vars: TemplateVars, layer: LayerVars): TemplateVars {
  return Object.assign(Object.create(vars) as TemplateVars, layer);
}
