/**
 * PrusaSlicer INI keys → our canonical (OrcaSlicer) keys. A rule is either the canonical key (same
 * meaning, value parsed as is) or a function for keys whose meaning or unit differs: percentages of
 * another value, one key feeding several, booleans that became enums.
 */
import { SETTINGS, type SettingDef, type SettingKey } from '../schema.js';
import { decodeIniString, splitIniList } from './ini-reader.js';

export interface MapContext {
  /** The section's raw values after inheritance, as written in the INI. */
  raw: ReadonlyMap<string, string>;
  warn: (message: string) => void;
}

export type MappedValues = Array<[SettingKey, unknown]>;
type RuleFn = (value: string, ctx: MapContext) => MappedValues;
export type Rule = SettingKey | RuleFn;

/** Keys the importer itself reads (identity, inheritance, compatibility), so not "dropped". */
export const CONSUMED_KEYS: ReadonlySet<string> = new Set([
  'inherits',
  'renamed_from',
  'compatible_printers',
  'compatible_prints',
  'notes',
  'filament_notes',
  'print_settings_id',
  'filament_settings_id',
  'printer_settings_id',
  'thumbnails_format',
  'default_print_profile',
  'default_filament_profile',
  'printer_technology',
]);

function percentOf(value: string): number | undefined {
  return value.trim().endsWith('%') ? Number(value.trim().slice(0, -1)) : undefined;
}

function layerHeight(ctx: MapContext): number {
  const raw = Number(ctx.raw.get('layer_height'));
  return Number.isFinite(raw) && raw > 0 ? raw : SETTINGS.layer_height.default;
}

function firstLayerHeight(ctx: MapContext): number {
  const raw = ctx.raw.get('first_layer_height');
  if (raw === undefined) return layerHeight(ctx);
  const pct = percentOf(raw);
  return pct === undefined ? Number(raw) : (layerHeight(ctx) * pct) / 100;
}

/* PrusaSlicer speeds given in % are relative to another speed. */
const SPEED_BASE: Readonly<Record<string, string>> = {
  external_perimeter_speed: 'perimeter_speed',
  solid_infill_speed: 'infill_speed',
  top_solid_infill_speed: 'solid_infill_speed',
  support_material_interface_speed: 'support_material_speed',
  first_layer_speed: 'perimeter_speed',
  first_layer_infill_speed: 'infill_speed',
};

function speedOf(key: string, ctx: MapContext, depth = 0): number | undefined {
  const raw = ctx.raw.get(key);
  if (raw === undefined) return undefined;
  const pct = percentOf(raw);
  if (pct === undefined) return Number(raw);
  const base = SPEED_BASE[key];
  const baseSpeed = base === undefined || depth > 4 ? undefined : speedOf(base, ctx, depth + 1);
  return baseSpeed === undefined ? undefined : (baseSpeed * pct) / 100;
}

/* Widths in % are of the layer height in PrusaSlicer but of the nozzle in ours: store millimetres. */
function width(to: SettingKey, ofFirstLayer = false): RuleFn {
  return (value, ctx) => {
    const pct = percentOf(value);
    if (pct === undefined) return [[to, value]];
    const base = ofFirstLayer ? firstLayerHeight(ctx) : layerHeight(ctx);
    return [[to, Number(((base * pct) / 100).toFixed(4))]];
  };
}

function both(...keys: SettingKey[]): RuleFn {
  return (value) => keys.map((key): [SettingKey, unknown] => [key, value]);
}

const ON = (value: string): boolean => value.trim() === '1';

function plateTemps(suffix: '' | '_initial_layer'): RuleFn {
  return (value) =>
    (['cool_plate_temp', 'eng_plate_temp', 'hot_plate_temp', 'textured_plate_temp'] as const).map((plate): [SettingKey, unknown] => [
      `${plate}${suffix}` as SettingKey,
      value,
    ]);
}

/** A speed rule resolves percentages through the chain of base speeds first. */
function speedRule(from: string, to: SettingKey): RuleFn {
  return (value, ctx) => [[to, speedOf(from, ctx) ?? value]];
}

function thumbnails(value: string, ctx: MapContext): MappedValues {
  const format = (ctx.raw.get('thumbnails_format') ?? 'PNG').trim().toUpperCase() || 'PNG';
  const sizes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [['thumbnails', sizes.map((s) => (s.includes('/') ? s : `${s}/${format}`)).join(', ')]];
}

const PRINTER_RULES: Record<string, Rule> = {
  bed_shape: 'printable_area',
  max_print_height: 'printable_height',
  nozzle_diameter: (value) => [
    ['nozzle_diameter', value],
    ['max_filaments', Math.min(16, value.split(',').length)],
  ],
  gcode_flavor: 'gcode_flavor',
  printer_model: 'printer_model',
  printer_variant: 'printer_variant',
  printer_notes: 'printer_notes',
  extruder_offset: 'extruder_offset',
  single_extruder_multi_material: 'single_extruder_multi_material',
  z_offset: 'z_offset',
  use_relative_e_distances: 'use_relative_e_distances',
  use_firmware_retraction: 'use_firmware_retraction',
  thumbnails,
  start_gcode: 'machine_start_gcode',
  end_gcode: 'machine_end_gcode',
  before_layer_gcode: 'before_layer_change_gcode',
  layer_gcode: 'layer_change_gcode',
  toolchange_gcode: 'change_filament_gcode',
  pause_print_gcode: 'machine_pause_gcode',
  machine_limits_usage: (value) => [['emit_machine_limits_to_gcode', value.trim() === 'emit_to_gcode']],
  machine_max_acceleration_x: 'machine_max_acceleration_x',
  machine_max_acceleration_y: 'machine_max_acceleration_y',
  machine_max_acceleration_z: 'machine_max_acceleration_z',
  machine_max_acceleration_e: 'machine_max_acceleration_e',
  machine_max_acceleration_extruding: 'machine_max_acceleration_extruding',
  machine_max_acceleration_retracting: 'machine_max_acceleration_retracting',
  machine_max_acceleration_travel: 'machine_max_acceleration_travel',
  machine_max_feedrate_x: 'machine_max_speed_x',
  machine_max_feedrate_y: 'machine_max_speed_y',
  machine_max_feedrate_z: 'machine_max_speed_z',
  machine_max_feedrate_e: 'machine_max_speed_e',
  machine_max_jerk_x: 'machine_max_jerk_x',
  machine_max_jerk_y: 'machine_max_jerk_y',
  machine_max_jerk_z: 'machine_max_jerk_z',
  machine_max_jerk_e: 'machine_max_jerk_e',
  machine_min_extruding_rate: 'machine_min_extruding_rate',
  machine_min_travel_rate: 'machine_min_travel_rate',
  retract_length: 'retraction_length',
  retract_speed: 'retraction_speed',
  deretract_speed: 'deretraction_speed',
  retract_restart_extra: 'retract_restart_extra',
  retract_before_travel: 'retraction_minimum_travel',
  retract_layer_change: 'retract_when_changing_layer',
  retract_length_toolchange: 'retract_length_toolchange',
  wipe: 'wipe',
  retract_lift: 'z_hop',
  retract_lift_above: 'retract_lift_above',
  retract_lift_below: 'retract_lift_below',
};

const FILAMENT_RULES: Record<string, Rule> = {
  filament_type: 'filament_type',
  filament_vendor: 'filament_vendor',
  filament_colour: 'filament_colour',
  filament_diameter: 'filament_diameter',
  // PrusaSlicer writes 0 for "unknown"; our default is a better guess than a clamp to the minimum.
  filament_density: (value) => (Number(value) > 0 ? [['filament_density', value]] : []),
  filament_cost: 'filament_cost',
  extrusion_multiplier: 'filament_flow_ratio',
  filament_max_volumetric_speed: 'filament_max_volumetric_speed',
  filament_soluble: 'filament_soluble',
  filament_shrink: 'filament_shrink',
  temperature: 'nozzle_temperature',
  first_layer_temperature: 'nozzle_temperature_initial_layer',
  bed_temperature: plateTemps(''),
  first_layer_bed_temperature: plateTemps('_initial_layer'),
  chamber_temperature: 'chamber_temperatures',
  min_fan_speed: 'fan_min_speed',
  max_fan_speed: 'fan_max_speed',
  bridge_fan_speed: 'overhang_fan_speed',
  disable_fan_first_layers: 'close_fan_the_first_x_layers',
  full_fan_speed_layer: 'full_fan_speed_layer',
  fan_below_layer_time: 'fan_cooling_layer_time',
  slowdown_below_layer_time: 'slow_down_layer_time',
  min_print_speed: 'slow_down_min_speed',
  fan_always_on: 'reduce_fan_stop_start_freq',
  cooling: 'slow_down_for_layer_cooling',
  filament_retract_length: (value) => (value.trim() === 'nil' ? [] : [['filament_retraction_length', value]]),
  filament_retract_lift: (value) => (value.trim() === 'nil' ? [] : [['filament_z_hop', value]]),
  start_filament_gcode: 'filament_start_gcode',
  end_filament_gcode: 'filament_end_gcode',
};

const PRINT_RULES: Record<string, Rule> = {
  layer_height: 'layer_height',
  first_layer_height: (_value, ctx) => [['initial_layer_print_height', Number(firstLayerHeight(ctx).toFixed(4))]],
  perimeters: 'wall_loops',
  top_solid_layers: 'top_shell_layers',
  bottom_solid_layers: 'bottom_shell_layers',
  top_solid_min_thickness: 'top_shell_thickness',
  bottom_solid_min_thickness: 'bottom_shell_thickness',
  ensure_vertical_shell_thickness: 'ensure_vertical_shell_thickness',
  fill_density: 'sparse_infill_density',
  fill_pattern: 'sparse_infill_pattern',
  top_fill_pattern: 'top_surface_pattern',
  bottom_fill_pattern: 'bottom_surface_pattern',
  external_fill_pattern: (value, ctx) => [
    ...(ctx.raw.has('top_fill_pattern') ? [] : [['top_surface_pattern', value] as [SettingKey, unknown]]),
    ...(ctx.raw.has('bottom_fill_pattern') ? [] : [['bottom_surface_pattern', value] as [SettingKey, unknown]]),
  ],
  solid_fill_pattern: 'internal_solid_infill_pattern',
  fill_angle: both('infill_direction', 'solid_infill_direction'),
  infill_overlap: (value, ctx) => {
    if (percentOf(value) !== undefined) return [['infill_wall_overlap', value]];
    ctx.warn(`"infill_overlap" = ${value} mm: only a percentage of the wall width can be honoured; setting dropped`);
    return [];
  },
  solid_infill_below_area: 'minimum_sparse_infill_area',
  extrusion_width: width('line_width'),
  perimeter_extrusion_width: width('inner_wall_line_width'),
  external_perimeter_extrusion_width: width('outer_wall_line_width'),
  infill_extrusion_width: width('sparse_infill_line_width'),
  solid_infill_extrusion_width: width('internal_solid_infill_line_width'),
  top_infill_extrusion_width: width('top_surface_line_width'),
  first_layer_extrusion_width: width('initial_layer_line_width', true),
  support_material_extrusion_width: width('support_line_width'),
  perimeter_speed: speedRule('perimeter_speed', 'inner_wall_speed'),
  external_perimeter_speed: speedRule('external_perimeter_speed', 'outer_wall_speed'),
  infill_speed: speedRule('infill_speed', 'sparse_infill_speed'),
  solid_infill_speed: speedRule('solid_infill_speed', 'internal_solid_infill_speed'),
  top_solid_infill_speed: speedRule('top_solid_infill_speed', 'top_surface_speed'),
  gap_fill_speed: 'gap_infill_speed',
  bridge_speed: 'bridge_speed',
  support_material_speed: 'support_speed',
  support_material_interface_speed: speedRule('support_material_interface_speed', 'support_interface_speed'),
  travel_speed: 'travel_speed',
  travel_speed_z: 'travel_speed_z',
  first_layer_speed: speedRule('first_layer_speed', 'initial_layer_speed'),
  first_layer_infill_speed: speedRule('first_layer_infill_speed', 'initial_layer_infill_speed'),
  default_acceleration: 'default_acceleration',
  perimeter_acceleration: (value, ctx) => [
    ['inner_wall_acceleration', value],
    ...(ctx.raw.has('external_perimeter_acceleration') ? [] : [['outer_wall_acceleration', value] as [SettingKey, unknown]]),
  ],
  external_perimeter_acceleration: 'outer_wall_acceleration',
  top_solid_infill_acceleration: 'top_surface_acceleration',
  infill_acceleration: 'sparse_infill_acceleration',
  bridge_acceleration: 'bridge_acceleration',
  first_layer_acceleration: 'initial_layer_acceleration',
  travel_acceleration: 'travel_acceleration',
  bridge_flow_ratio: 'bridge_flow',
  bridge_angle: 'bridge_angle',
  thick_bridges: 'thick_bridges',
  support_material: 'enable_support',
  support_material_auto: (value) => [['support_type', ON(value) ? 'normal(auto)' : 'normal(manual)']],
  support_material_threshold: 'support_threshold_angle',
  support_material_buildplate_only: 'support_on_build_plate_only',
  support_material_contact_distance: 'support_top_z_distance',
  support_material_bottom_contact_distance: (value, ctx) => [
    ['support_bottom_z_distance', Number(value) === 0 ? (ctx.raw.get('support_material_contact_distance') ?? value) : value],
  ],
  support_material_xy_spacing: (value, ctx) => {
    const pct = percentOf(value);
    if (pct === undefined) return [['support_object_xy_distance', value]];
    const outer = ctx.raw.get('external_perimeter_extrusion_width') ?? '';
    const outerMm = percentOf(outer) === undefined ? Number(outer) : undefined;
    if (outerMm === undefined || !(outerMm > 0)) {
      ctx.warn(`"support_material_xy_spacing" = ${value} of an automatic wall width cannot be converted; setting dropped`);
      return [];
    }
    return [['support_object_xy_distance', Number(((outerMm * pct) / 100).toFixed(4))]];
  },
  support_material_pattern: 'support_base_pattern',
  support_material_spacing: 'support_base_pattern_spacing',
  support_material_interface_layers: 'support_interface_top_layers',
  support_material_bottom_interface_layers: 'support_interface_bottom_layers',
  support_material_interface_spacing: 'support_interface_spacing',
  skirts: 'skirt_loops',
  skirt_distance: 'skirt_distance',
  skirt_height: 'skirt_height',
  min_skirt_length: 'min_skirt_length',
  // A brim width of 0 is how PrusaSlicer says "no brim"; without brim_type it means an outer brim.
  brim_width: (value, ctx) => [
    ['brim_width', value],
    ...(ctx.raw.has('brim_type') ? [] : [['brim_type', Number(value) > 0 ? 'outer_only' : 'no_brim'] as [SettingKey, unknown]]),
  ],
  brim_type: 'brim_type',
  brim_separation: 'brim_object_gap',
  seam_position: 'seam_position',
  external_perimeters_first: (value) => [['wall_sequence', ON(value) ? 'outer wall/inner wall' : 'inner wall/outer wall']],
  infill_first: 'is_infill_first',
  avoid_crossing_perimeters: 'reduce_crossing_wall',
  thin_walls: 'detect_thin_wall',
  overhangs: 'detect_overhang_wall',
  perimeter_generator: 'wall_generator',
  slice_closing_radius: 'slice_closing_radius',
  resolution: 'resolution',
  xy_size_compensation: (value) => [
    ['xy_contour_compensation', value],
    ['xy_hole_compensation', -Number(value)],
  ],
  elefant_foot_compensation: 'elefant_foot_compensation',
  complete_objects: (value, ctx) => {
    if (ON(value)) ctx.warn('"complete_objects": printing object by object is not supported; printing layer by layer');
    return [['print_sequence', 'by layer']];
  },
  gcode_label_objects: (value) => [['gcode_label_objects', !['0', 'disabled'].includes(value.trim())]],
  gcode_comments: 'gcode_comments',
  spiral_vase: 'spiral_mode',
  wipe_tower: 'enable_prime_tower',
  output_filename_format: 'filename_format',
};

export const PRUSASLICER_RULES = { printer: PRINTER_RULES, filament: FILAMENT_RULES, print: PRINT_RULES } as const;
export type PrusaSectionType = keyof typeof PRUSASLICER_RULES;

/**
 * The text of a value as our parser expects it: strings and G-code unquoted and unescaped, lists
 * of quoted strings split; numbers, booleans and points go to the schema parser as they are.
 */
export function iniValueFor(key: SettingKey, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const def: SettingDef = SETTINGS[key];
  // Some bundles annotate numbers with a trailing "# comment", which PrusaSlicer's own files never do.
  if (def.type !== 'gcode' && def.type !== 'string' && def.type !== 'enum') return value.replace(/\s+#.*$/, '');
  if (def.perExtruder && value.startsWith('"') && value.includes('";"')) return splitIniList(value);
  return decodeIniString(value);
}
