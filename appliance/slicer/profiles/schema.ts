/**
 * The canonical settings of the engine: OrcaSlicer's key names, one table, typed.
 *
 * Every profile (bundled, user, imported) and every per-job override is parsed against this table,
 * so a bad key or value is rejected with a message that names it. `perExtruder` keys hold one value
 * per extruder (printer keys) or per filament (filament keys); everything else is a scalar.
 * Values that OrcaSlicer stores as strings ("15%", "1", ["0.4"]) are accepted and normalised.
 */
import { AppError, ErrorCode } from '../../common/errors.js';

export type SettingKind = 'printer' | 'filament' | 'process';
export type SettingType = 'float' | 'int' | 'bool' | 'string' | 'gcode' | 'enum' | 'percent' | 'floatOrPercent' | 'points' | 'strings';

/** An absolute value in mm (or the unit of the key) or a percentage of a base, e.g. "110%". */
export type FloatOrPercent = number | `${number}%`;
export type Point2 = [number, number];

export interface SettingDef {
  readonly kind: SettingKind;
  readonly type: SettingType;
  readonly default: unknown;
  readonly label: string;
  readonly unit?: string;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
  /** Accepted spellings of enum values from other slicers, mapped to ours. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly perExtruder?: boolean;
}

const gcode = (kind: SettingKind, label: string, dflt = '') => ({ kind, type: 'gcode' as const, default: dflt, label });

/* Shorthand builders keep the table readable; the table itself is the documentation. Each keeps its
   literal `type` (and enum values) so that PrintConfig below gets precise TypeScript types. */
function f(kind: SettingKind, label: string, dflt: number, min?: number, max?: number, unit = 'mm') {
  return { kind, type: 'float' as const, default: dflt, label, min, max, unit };
}
function i(kind: SettingKind, label: string, dflt: number, min?: number, max?: number) {
  return { kind, type: 'int' as const, default: dflt, label, min, max };
}
function b(kind: SettingKind, label: string, dflt: boolean) {
  return { kind, type: 'bool' as const, default: dflt, label };
}
function s(kind: SettingKind, label: string, dflt = '') {
  return { kind, type: 'string' as const, default: dflt, label };
}
function e<const V extends string>(
  kind: SettingKind,
  label: string,
  values: readonly V[],
  dflt: NoInfer<V>,
  aliases?: Readonly<Record<string, string>>,
) {
  return { kind, type: 'enum' as const, default: dflt, label, values, aliases };
}
function pct(kind: SettingKind, label: string, dflt: number, min = 0, max = 100) {
  return { kind, type: 'percent' as const, default: dflt, label, min, max, unit: '%' };
}
function fp(kind: SettingKind, label: string, dflt: FloatOrPercent, min = 0, max?: number) {
  return { kind, type: 'floatOrPercent' as const, default: dflt, label, min, max, unit: 'mm or %' };
}
function pts(kind: SettingKind, label: string, dflt: Point2[]) {
  return { kind, type: 'points' as const, default: dflt, label, unit: 'mm' };
}
function speed(label: string, dflt: number, min = 0) {
  return { kind: 'process' as const, type: 'float' as const, default: dflt, label, min, max: 1000, unit: 'mm/s' };
}
function accel(kind: SettingKind, label: string, dflt: number) {
  return { kind, type: 'float' as const, default: dflt, label, min: 0, max: 100000, unit: 'mm/s²' };
}
function ext<D extends SettingDef>(def: D): Omit<D, 'default'> & { perExtruder: true; default: D['default'][] } {
  return { ...def, perExtruder: true as const, default: [def.default] };
}

const INFILL_PATTERNS = ['zig-zag', 'line', 'grid', 'alignedrectilinear', 'triangles', 'gyroid'] as const;
const SURFACE_PATTERNS = ['monotonic', 'monotonicline', 'zig-zag', 'alignedrectilinear', 'concentric'] as const;
const INFILL_ALIASES = { rectilinear: 'zig-zag', rectilineargrid: 'grid', lines: 'line', aligned_rectilinear: 'alignedrectilinear' };
const SURFACE_ALIASES = { rectilinear: 'zig-zag', monotonic_line: 'monotonicline', aligned_rectilinear: 'alignedrectilinear' };

export const SETTINGS = {
  /* ---------------- printer ---------------- */
  printer_model: s('printer', 'Printer model'),
  printer_model_id: s('printer', 'Printer model id (Bambu slice_info)'),
  printer_variant: s('printer', 'Nozzle variant', '0.4'),
  printer_notes: s('printer', 'Printer notes'),
  printer_technology: e('printer', 'Technology', ['FFF'], 'FFF'),
  gcode_flavor: e('printer', 'G-code flavour', ['marlin2', 'marlin', 'klipper', 'bambu', 'reprapfirmware'], 'marlin2', {
    'marlin-legacy': 'marlin',
    marlinfirmware: 'marlin2',
    repetier: 'marlin',
    smoothie: 'marlin',
    reprap: 'reprapfirmware',
  }),
  printable_area: pts('printer', 'Printable area', [
    [0, 0],
    [220, 0],
    [220, 220],
    [0, 220],
  ]),
  printable_height: f('printer', 'Printable height', 250, 1, 2000),
  bed_exclude_area: pts('printer', 'Bed exclude area', []),
  curr_bed_type: e('printer', 'Bed type', ['Cool Plate', 'Engineering Plate', 'High Temp Plate', 'Textured PEI Plate'], 'Textured PEI Plate', {
    'Hot Plate': 'High Temp Plate',
    'Textured Plate': 'Textured PEI Plate',
    'Smooth PEI Plate': 'High Temp Plate',
  }),
  nozzle_diameter: ext(f('printer', 'Nozzle diameter', 0.4, 0.05, 3)),
  extruder_offset: pts('printer', 'Extruder offsets', [[0, 0]]),
  single_extruder_multi_material: b('printer', 'Single extruder multi-material (AMS)', false),
  max_filaments: i('printer', 'Filament slots (AMS or tool changer)', 1, 1, 16),
  z_offset: f('printer', 'Z offset', 0, -10, 10),
  use_relative_e_distances: b('printer', 'Relative extrusion (M83)', true),
  use_firmware_retraction: b('printer', 'Firmware retraction (G10/G11)', false),
  thumbnails: s('printer', 'Thumbnails (WxH/FORMAT, comma separated)', '48x48/PNG, 300x300/PNG'),
  machine_start_gcode: gcode('printer', 'Start G-code', 'G28 ; home\n'),
  machine_end_gcode: gcode('printer', 'End G-code', 'M104 S0\nM140 S0\nM84\n'),
  before_layer_change_gcode: gcode('printer', 'Before layer change G-code'),
  layer_change_gcode: gcode('printer', 'Layer change G-code'),
  change_filament_gcode: gcode('printer', 'Change filament G-code'),
  machine_pause_gcode: gcode('printer', 'Pause G-code', 'M601'),
  emit_machine_limits_to_gcode: b('printer', 'Emit machine limits to G-code', true),
  machine_max_acceleration_x: accel('printer', 'Max acceleration X', 1000),
  machine_max_acceleration_y: accel('printer', 'Max acceleration Y', 1000),
  machine_max_acceleration_z: accel('printer', 'Max acceleration Z', 200),
  machine_max_acceleration_e: accel('printer', 'Max acceleration E', 5000),
  machine_max_acceleration_extruding: accel('printer', 'Max acceleration when extruding', 1250),
  machine_max_acceleration_retracting: accel('printer', 'Max acceleration when retracting', 1250),
  machine_max_acceleration_travel: accel('printer', 'Max acceleration when travelling', 1500),
  machine_max_speed_x: f('printer', 'Max speed X', 200, 1, 5000, 'mm/s'),
  machine_max_speed_y: f('printer', 'Max speed Y', 200, 1, 5000, 'mm/s'),
  machine_max_speed_z: f('printer', 'Max speed Z', 12, 0.1, 1000, 'mm/s'),
  machine_max_speed_e: f('printer', 'Max speed E', 120, 1, 1000, 'mm/s'),
  machine_max_jerk_x: f('printer', 'Max jerk X', 8, 0, 1000, 'mm/s'),
  machine_max_jerk_y: f('printer', 'Max jerk Y', 8, 0, 1000, 'mm/s'),
  machine_max_jerk_z: f('printer', 'Max jerk Z', 0.4, 0, 100, 'mm/s'),
  machine_max_jerk_e: f('printer', 'Max jerk E', 2.5, 0, 100, 'mm/s'),
  machine_max_junction_deviation: f('printer', 'Junction deviation (0 = classic jerk)', 0, 0, 1),
  machine_min_extruding_rate: f('printer', 'Min extruding feed rate', 0, 0, 1000, 'mm/s'),
  machine_min_travel_rate: f('printer', 'Min travel feed rate', 0, 0, 1000, 'mm/s'),
  klipper_square_corner_velocity: f('printer', 'Klipper square_corner_velocity', 5, 0, 100, 'mm/s'),
  retraction_length: ext(f('printer', 'Retraction length', 0.8, 0, 20)),
  retraction_speed: ext(f('printer', 'Retraction speed', 30, 1, 200, 'mm/s')),
  deretraction_speed: ext(f('printer', 'Deretraction speed (0 = retraction speed)', 0, 0, 200, 'mm/s')),
  retract_restart_extra: ext(f('printer', 'Extra length on restart', 0, -5, 20)),
  retraction_minimum_travel: ext(f('printer', 'Minimum travel before retraction', 1, 0, 100)),
  retract_when_changing_layer: ext(b('printer', 'Retract on layer change', true)),
  retract_length_toolchange: ext(f('printer', 'Retraction length on tool change', 10, 0, 200)),
  wipe: ext(b('printer', 'Wipe while retracting', false)),
  wipe_distance: ext(f('printer', 'Wipe distance', 1, 0, 20)),
  z_hop: ext(f('printer', 'Z hop', 0, 0, 10)),
  z_hop_types: ext(
    e('printer', 'Z hop type (straight up; the others lift straight up too)', ['Normal Lift'], 'Normal Lift', {
      'Slope Lift': 'Normal Lift',
      'Spiral Lift': 'Normal Lift',
      'Auto Lift': 'Normal Lift',
    }),
  ),
  retract_lift_above: ext(f('printer', 'Z hop only above', 0, 0, 2000)),
  retract_lift_below: ext(f('printer', 'Z hop only below (0 = no limit)', 0, 0, 2000)),

  /* ---------------- filament ---------------- */
  filament_type: ext(
    e(
      'filament',
      'Filament type',
      ['PLA', 'PETG', 'ABS', 'ASA', 'TPU', 'PA', 'PA-CF', 'PC', 'PVA', 'HIPS', 'PET', 'PLA-CF', 'PETG-CF', 'PP', 'OTHER'],
      'PLA',
      {
        NYLON: 'PA',
        FLEX: 'TPU',
        PA6: 'PA',
        PA12: 'PA',
        PAHT: 'PA',
        'PA-GF': 'PA',
        'PAHT-CF': 'PA-CF',
        EDGE: 'PETG',
        NGEN: 'PETG',
        PCTG: 'PETG',
        PEBA: 'TPU',
        'TPU-AMS': 'TPU',
        PPS: 'OTHER',
        PEI: 'OTHER',
        PVB: 'OTHER',
        SBS: 'OTHER',
        CPE: 'PETG',
        'PLA+': 'PLA',
        PHA: 'OTHER',
        BVOH: 'PVA',
        'ASA-Aero': 'ASA',
        'PET-CF': 'PETG-CF',
        'ABS-GF': 'ABS',
        'PC-CF': 'PC',
        'PP-CF': 'PP',
        'PP-GF': 'PP',
        PE: 'OTHER',
        'PE-CF': 'OTHER',
        'PA11-CF': 'PA-CF',
        'PPA-CF': 'PA-CF',
        'PPA-GF': 'PA',
        'PCTG-CF': 'PETG-CF',
        'PLA-AERO': 'PLA',
        'ABS-CF': 'ABS',
        'ASA-CF': 'ASA',
        'PA6-CF': 'PA-CF',
        'PA6-GF': 'PA',
        'PETG-GF': 'PETG',
        'PHA-CF': 'OTHER',
        PEEK: 'OTHER',
        PEKK: 'OTHER',
        METAL: 'OTHER',
        WOOD: 'PLA',
        SILK: 'PLA',
        'PC/ABS': 'PC',
        'ABS/PC': 'PC',
        'FLEX-CF': 'TPU',
        PCL: 'OTHER',
      },
    ),
  ),
  filament_vendor: ext(s('filament', 'Filament vendor', 'Generic')),
  filament_id: ext(s('filament', 'Bambu filament id (AMS tray_info_idx, e.g. GFA00)')),
  filament_colour: ext(s('filament', 'Filament colour', '#F2F2F2')),
  filament_diameter: ext(f('filament', 'Filament diameter', 1.75, 0.5, 5)),
  filament_density: ext(f('filament', 'Filament density', 1.24, 0.1, 10, 'g/cm³')),
  filament_cost: ext(f('filament', 'Filament cost', 20, 0, 10000, 'money/kg')),
  filament_flow_ratio: ext(f('filament', 'Flow ratio', 0.98, 0.1, 2, '')),
  filament_max_volumetric_speed: ext(f('filament', 'Max volumetric speed', 12, 0, 200, 'mm³/s')),
  filament_soluble: ext(b('filament', 'Soluble', false)),
  filament_is_support: ext(b('filament', 'Support material', false)),
  filament_shrink: ext(pct('filament', 'Shrinkage (XY)', 100, 50, 150)),
  nozzle_temperature: ext(i('filament', 'Nozzle temperature', 220, 0, 500)),
  nozzle_temperature_initial_layer: ext(i('filament', 'Nozzle temperature, first layer', 220, 0, 500)),
  nozzle_temperature_range_low: ext(i('filament', 'Recommended nozzle temperature, low', 190, 0, 500)),
  nozzle_temperature_range_high: ext(i('filament', 'Recommended nozzle temperature, high', 240, 0, 500)),
  cool_plate_temp: ext(i('filament', 'Bed temperature, cool plate', 35, 0, 200)),
  cool_plate_temp_initial_layer: ext(i('filament', 'Bed temperature, cool plate, first layer', 35, 0, 200)),
  eng_plate_temp: ext(i('filament', 'Bed temperature, engineering plate', 45, 0, 200)),
  eng_plate_temp_initial_layer: ext(i('filament', 'Bed temperature, engineering plate, first layer', 45, 0, 200)),
  hot_plate_temp: ext(i('filament', 'Bed temperature, high-temp plate', 55, 0, 200)),
  hot_plate_temp_initial_layer: ext(i('filament', 'Bed temperature, high-temp plate, first layer', 55, 0, 200)),
  textured_plate_temp: ext(i('filament', 'Bed temperature, textured PEI plate', 55, 0, 200)),
  textured_plate_temp_initial_layer: ext(i('filament', 'Bed temperature, textured PEI plate, first layer', 55, 0, 200)),
  chamber_temperatures: ext(i('filament', 'Chamber temperature', 0, 0, 100)),
  fan_min_speed: ext(pct('filament', 'Fan minimum speed', 100)),
  fan_max_speed: ext(pct('filament', 'Fan maximum speed', 100)),
  fan_cooling_layer_time: ext(f('filament', 'Layer time below which the fan speeds up', 60, 0, 1000, 's')),
  slow_down_layer_time: ext(f('filament', 'Minimum layer time (slow down below)', 8, 0, 1000, 's')),
  slow_down_min_speed: ext(f('filament', 'Minimum print speed when slowing down', 10, 0, 1000, 'mm/s')),
  slow_down_for_layer_cooling: ext(b('filament', 'Slow down for layer cooling', true)),
  close_fan_the_first_x_layers: ext(i('filament', 'No cooling for the first layers', 1, 0, 1000)),
  full_fan_speed_layer: ext(i('filament', 'Full fan speed at layer', 0, 0, 1000)),
  overhang_fan_speed: ext(pct('filament', 'Fan speed for overhangs and bridges', 100)),
  reduce_fan_stop_start_freq: ext(b('filament', 'Keep fan always on', false)),
  additional_cooling_fan_speed: ext(pct('filament', 'Auxiliary fan speed', 0)),
  filament_retraction_length: ext(f('filament', 'Retraction length override (-1 = printer value)', -1, -1, 20)),
  filament_z_hop: ext(f('filament', 'Z hop override (-1 = printer value)', -1, -1, 10)),
  pressure_advance: ext(f('filament', 'Pressure advance', 0.02, 0, 2, '')),
  enable_pressure_advance: ext(b('filament', 'Set pressure advance', false)),
  filament_start_gcode: ext(gcode('filament', 'Filament start G-code')),
  filament_end_gcode: ext(gcode('filament', 'Filament end G-code')),

  /* ---------------- process ---------------- */
  layer_height: f('process', 'Layer height', 0.2, 0.01, 1),
  initial_layer_print_height: f('process', 'First layer height', 0.2, 0.01, 1),
  line_width: fp('process', 'Default line width (0 = automatic)', '110%', 0, 5),
  outer_wall_line_width: fp('process', 'Outer wall line width', '105%', 0, 5),
  inner_wall_line_width: fp('process', 'Inner wall line width', '112.5%', 0, 5),
  sparse_infill_line_width: fp('process', 'Sparse infill line width', '112.5%', 0, 5),
  internal_solid_infill_line_width: fp('process', 'Internal solid infill line width', '112.5%', 0, 5),
  top_surface_line_width: fp('process', 'Top surface line width', '100%', 0, 5),
  initial_layer_line_width: fp('process', 'First layer line width', '125%', 0, 5),
  support_line_width: fp('process', 'Support line width', '100%', 0, 5),
  wall_loops: i('process', 'Wall loops', 2, 0, 100),
  top_shell_layers: i('process', 'Top shell layers', 4, 0, 100),
  bottom_shell_layers: i('process', 'Bottom shell layers', 3, 0, 100),
  top_shell_thickness: f('process', 'Minimum top shell thickness', 0.6, 0, 20),
  bottom_shell_thickness: f('process', 'Minimum bottom shell thickness', 0, 0, 20),
  // Orca's modes; ours has two of its three non-empty ones (see engine/README.md, "Surfaces"). The
  // aliases read PrusaSlicer's and older Orca's spellings: on/enabled is PrusaSlicer 2.5's full mode.
  ensure_vertical_shell_thickness: e('process', 'Ensure vertical shell thickness', ['none', 'ensure_moderate', 'ensure_all'], 'ensure_moderate', {
    true: 'ensure_all',
    '1': 'ensure_all',
    enabled: 'ensure_all',
    false: 'none',
    '0': 'none',
    disabled: 'none',
    partial: 'ensure_moderate',
  }),
  sparse_infill_density: pct('process', 'Sparse infill density', 15),
  sparse_infill_pattern: e('process', 'Sparse infill pattern', INFILL_PATTERNS, 'grid', INFILL_ALIASES),
  top_surface_pattern: e('process', 'Top surface pattern', SURFACE_PATTERNS, 'monotonicline', SURFACE_ALIASES),
  bottom_surface_pattern: e('process', 'Bottom surface pattern', SURFACE_PATTERNS, 'monotonic', SURFACE_ALIASES),
  internal_solid_infill_pattern: e('process', 'Internal solid infill pattern', SURFACE_PATTERNS, 'zig-zag', SURFACE_ALIASES),
  infill_direction: f('process', 'Sparse infill direction', 45, -360, 360, '°'),
  solid_infill_direction: f('process', 'Solid infill direction', 45, -360, 360, '°'),
  infill_wall_overlap: pct('process', 'Infill/wall overlap', 15, 0, 100),
  top_bottom_infill_wall_overlap: pct('process', 'Top/bottom solid infill/wall overlap', 25, 0, 100),
  minimum_sparse_infill_area: f('process', 'Minimum sparse infill area (smaller becomes solid)', 15, 0, 10000, 'mm²'),
  wall_sequence: e('process', 'Wall order', ['inner wall/outer wall', 'outer wall/inner wall', 'inner-outer-inner wall'], 'inner wall/outer wall'),
  is_infill_first: b('process', 'Infill before walls', false),
  wall_generator: e('process', 'Wall generator', ['classic', 'arachne'], 'arachne'),
  detect_thin_wall: b('process', 'Detect thin walls', true),
  detect_overhang_wall: b('process', 'Detect overhang walls', true),
  seam_position: e('process', 'Seam position', ['aligned', 'nearest', 'back', 'random'], 'aligned', { rear: 'back' }),
  slice_closing_radius: f('process', 'Slice gap closing radius', 0.049, 0, 2),
  resolution: f('process', 'Resolution (polygon simplification)', 0.012, 0.0001, 1),
  xy_contour_compensation: f('process', 'X-Y contour compensation', 0, -5, 5),
  xy_hole_compensation: f('process', 'X-Y hole compensation', 0, -5, 5),
  elefant_foot_compensation: f('process', 'Elephant foot compensation', 0.15, 0, 2),
  // Speeds
  outer_wall_speed: speed('Outer wall speed', 60, 1),
  inner_wall_speed: speed('Inner wall speed', 80, 1),
  sparse_infill_speed: speed('Sparse infill speed', 100, 1),
  internal_solid_infill_speed: speed('Internal solid infill speed', 80, 1),
  top_surface_speed: speed('Top surface speed', 50, 1),
  gap_infill_speed: speed('Gap infill speed', 50, 1),
  bridge_speed: speed('Bridge speed', 25, 1),
  overhang_speed: speed('Overhanging wall speed', 15, 1),
  support_speed: speed('Support speed', 80, 1),
  support_interface_speed: speed('Support interface speed', 60, 1),
  skirt_speed: speed('Skirt/brim speed (0 = first layer speed)', 0),
  travel_speed: speed('Travel speed', 150, 1),
  travel_speed_z: speed('Z travel speed (0 = machine limit)', 0),
  initial_layer_speed: speed('First layer speed', 30, 1),
  initial_layer_infill_speed: speed('First layer infill speed', 60, 1),
  initial_layer_travel_speed: pct('process', 'First layer travel speed (% of travel speed)', 100, 1, 100),
  slow_down_layers: i('process', 'Layers to ramp up speed over', 0, 0, 1000),
  // Accelerations and jerk (0 = leave the firmware's value)
  default_acceleration: accel('process', 'Default acceleration', 0),
  outer_wall_acceleration: accel('process', 'Outer wall acceleration', 0),
  inner_wall_acceleration: accel('process', 'Inner wall acceleration', 0),
  top_surface_acceleration: accel('process', 'Top surface acceleration', 0),
  sparse_infill_acceleration: accel('process', 'Sparse infill acceleration', 0),
  bridge_acceleration: accel('process', 'Bridge acceleration', 0),
  initial_layer_acceleration: accel('process', 'First layer acceleration', 0),
  travel_acceleration: accel('process', 'Travel acceleration', 0),
  default_jerk: f('process', 'Default jerk (0 = leave the firmware value)', 0, 0, 1000, 'mm/s'),
  // Bridges
  bridge_flow: f('process', 'Bridge flow ratio', 1, 0.1, 2, ''),
  bridge_angle: f('process', 'Bridge direction (0 = automatic)', 0, 0, 360, '°'),
  thick_bridges: b('process', 'Thick bridges (round nozzle-sized section)', true),
  // Supports
  enable_support: b('process', 'Enable supports', false),
  support_type: e('process', 'Support type', ['normal(auto)', 'normal(manual)'], 'normal(auto)', {
    'tree(auto)': 'normal(auto)',
    'tree(manual)': 'normal(manual)',
  }),
  support_threshold_angle: i('process', 'Support threshold angle (from horizontal)', 30, 0, 90),
  support_on_build_plate_only: b('process', 'Supports on build plate only', false),
  support_top_z_distance: f('process', 'Support top Z distance', 0.2, 0, 5),
  support_bottom_z_distance: f('process', 'Support bottom Z distance', 0.2, 0, 5),
  support_object_xy_distance: f('process', 'Support/object XY distance', 0.35, 0, 10),
  support_base_pattern: e('process', 'Support pattern', ['rectilinear', 'rectilinear-grid'], 'rectilinear', { default: 'rectilinear' }),
  support_base_pattern_spacing: f('process', 'Support line spacing', 2.5, 0.1, 50),
  support_interface_top_layers: i('process', 'Top interface layers', 2, 0, 20),
  support_interface_bottom_layers: i('process', 'Bottom interface layers', 0, -1, 20),
  support_interface_spacing: f('process', 'Top interface spacing', 0.5, 0, 20),
  support_expansion: f('process', 'Support area expansion', 0, 0, 20),
  // Adhesion
  skirt_loops: i('process', 'Skirt loops', 1, 0, 100),
  skirt_distance: f('process', 'Skirt distance', 2, 0, 100),
  skirt_height: i('process', 'Skirt height (layers)', 1, 1, 1000),
  min_skirt_length: f('process', 'Minimum skirt extrusion length', 0, 0, 10000),
  brim_type: e('process', 'Brim type', ['no_brim', 'outer_only', 'inner_only', 'outer_and_inner', 'auto_brim'], 'auto_brim', {
    brim_ears: 'outer_only',
    painted: 'outer_only',
  }),
  brim_width: f('process', 'Brim width', 5, 0, 100),
  brim_object_gap: f('process', 'Brim/object gap', 0.1, 0, 10),
  // Ordering and output
  print_sequence: e('process', 'Print sequence', ['by layer'], 'by layer', { 'by object': 'by layer' }),
  reduce_crossing_wall: b('process', 'Avoid crossing walls', false),
  reduce_infill_retraction: b('process', 'Do not retract for travels inside infill', true),
  gcode_label_objects: b('process', 'Label objects (M486 / EXCLUDE_OBJECT)', true),
  exclude_object: b('process', 'Klipper EXCLUDE_OBJECT labels', true),
  gcode_comments: b('process', 'Verbose G-code comments', false),
  gcode_add_line_number: b('process', 'Add line numbers', false),
  spiral_mode: b('process', 'Spiral vase', false),
  enable_prime_tower: b('process', 'Prime tower', false),
  filename_format: s('process', 'File name format', '{input_filename_base}_{layer_height}mm_{filament_type[0]}_{printer_model}_{print_time}.gcode'),
} as const satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;

type BaseValue<D> = D extends { type: 'float' | 'int' | 'percent' }
  ? number
  : D extends { type: 'bool' }
    ? boolean
    : D extends { type: 'floatOrPercent' }
      ? FloatOrPercent
      : D extends { type: 'points' }
        ? Point2[]
        : D extends { type: 'strings' }
          ? string[]
          : D extends { type: 'enum'; values: readonly (infer V)[] }
            ? V
            : string;

export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K] extends { perExtruder: true }
  ? BaseValue<(typeof SETTINGS)[K]>[]
  : BaseValue<(typeof SETTINGS)[K]>;

/** A fully resolved configuration: every key present, typed. The engine reads only this. */
export type PrintConfig = { -readonly [K in SettingKey]: SettingValue<K> };

/** A partial configuration: what a profile or an override holds. */
export type ConfigPatch = Partial<PrintConfig>;

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

export function settingDef(key: SettingKey): SettingDef {
  return SETTINGS[key];
}

export function defaultConfig(): PrintConfig {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(SETTINGS)) out[key] = structuredClone(def.default);
  return out as PrintConfig;
}

function invalid(key: string, message: string): AppError {
  return new AppError(ErrorCode.invalidSetting, 400, `invalid value for setting "${key}": ${message}`, { key });
}

function parseNumber(key: string, raw: unknown, def: SettingDef): number {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && raw.trim() !== '') n = Number(raw.trim().replace(/%$/, ''));
  else throw invalid(key, `expected a number, got ${JSON.stringify(raw)}`);
  if (!Number.isFinite(n)) throw invalid(key, `expected a number, got ${JSON.stringify(raw)}`);
  if (def.type === 'int') {
    if (!Number.isInteger(n)) throw invalid(key, `expected an integer, got ${n}`);
  }
  if (def.min !== undefined && n < def.min) throw invalid(key, `${n} is below the minimum ${def.min}`);
  if (def.max !== undefined && n > def.max) throw invalid(key, `${n} is above the maximum ${def.max}`);
  return n;
}

function parseScalar(key: string, raw: unknown, def: SettingDef): unknown {
  switch (def.type) {
    case 'float':
    case 'int':
    case 'percent':
      return parseNumber(key, raw, def);
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      if (raw === 1 || raw === '1' || raw === 'true') return true;
      if (raw === 0 || raw === '0' || raw === 'false') return false;
      throw invalid(key, `expected true/false or 1/0, got ${JSON.stringify(raw)}`);
    }
    case 'string':
    case 'gcode':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number') return String(raw);
      throw invalid(key, `expected a string, got ${JSON.stringify(raw)}`);
    case 'enum': {
      // A setting that was a switch before it had modes keeps reading its old JSON true/false.
      const values = def.values;
      if (!values) throw new AppError(ErrorCode.internal, 500, `setting "${key}" is an enum without values`);
      const text = typeof raw === 'boolean' ? String(raw) : raw;
      if (typeof text !== 'string') throw invalid(key, `expected one of ${values.join(', ')}`);
      const value = def.aliases?.[text] ?? text;
      if (!values.includes(value)) throw invalid(key, `"${text}" is not one of ${values.join(', ')}`);
      return value;
    }
    case 'floatOrPercent': {
      if (typeof raw === 'string' && raw.trim().endsWith('%')) {
        const n = Number(raw.trim().slice(0, -1));
        if (!Number.isFinite(n) || n < 0) throw invalid(key, `bad percentage ${JSON.stringify(raw)}`);
        return `${n}%`;
      }
      return parseNumber(key, raw, def);
    }
    case 'points': {
      const items =
        typeof raw === 'string'
          ? raw
              .split(/[,;]/)
              .map((p) => p.trim())
              .filter(Boolean)
          : raw;
      if (!Array.isArray(items)) throw invalid(key, 'expected a list of points "XxY"');
      return items.map((item) => {
        if (Array.isArray(item) && item.length === 2)
          return [
            parseNumber(key, item[0], { ...def, min: undefined, max: undefined }),
            parseNumber(key, item[1], { ...def, min: undefined, max: undefined }),
          ];
        const m = typeof item === 'string' ? /^\s*(-?[\d.]+(?:e-?\d+)?)\s*x\s*(-?[\d.]+(?:e-?\d+)?)\s*$/i.exec(item) : null;
        if (!m) throw invalid(key, `bad point ${JSON.stringify(item)} (expected "XxY")`);
        return [Number(m[1]), Number(m[2])];
      });
    }
    case 'strings':
      if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw;
      if (typeof raw === 'string') return raw.split(';');
      throw invalid(key, 'expected a list of strings');
  }
}

/**
 * Parses one value for a key: native JSON values or OrcaSlicer/PrusaSlicer strings. Throws
 * ERR_UNKNOWN_SETTING for a key we do not know and ERR_INVALID_SETTING for a bad value.
 */
export function parseSetting(key: string, raw: unknown): unknown {
  if (!isSettingKey(key)) {
    throw new AppError(ErrorCode.unknownSetting, 400, `unknown setting "${key}"`, { key });
  }
  const def: SettingDef = SETTINGS[key];
  if (!def.perExtruder) {
    if (Array.isArray(raw) && def.type !== 'points' && def.type !== 'strings') {
      if (raw.length !== 1) throw invalid(key, 'expected a single value');
      return parseScalar(key, raw[0], def);
    }
    return parseScalar(key, raw, def);
  }
  let items: unknown[];
  if (Array.isArray(raw)) items = raw;
  else if (typeof raw === 'string' && def.type !== 'gcode' && def.type !== 'string') items = raw.split(',');
  else items = [raw];
  if (items.length === 0) throw invalid(key, 'expected at least one value');
  return items.map((item) => parseScalar(key, item, def));
}

/** Parses a whole patch; every key and value is checked. */
export function parsePatch(raw: Record<string, unknown>): ConfigPatch {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) out[key] = parseSetting(key, value);
  return out as ConfigPatch;
}

/** Formats a value as OrcaSlicer/PrusaSlicer write it in a config block (`key = value`). */
export function formatSetting(key: SettingKey, value: unknown): string {
  const def: SettingDef = SETTINGS[key];
  const one = (v: unknown): string => {
    if (typeof v === 'boolean') return v ? '1' : '0';
    if (def.type === 'percent') return `${v}%`;
    if (def.type === 'points') return (v as Point2[]).map(([x, y]) => `${x}x${y}`).join(',');
    if (def.type === 'gcode' || def.type === 'string') return String(v).replace(/\n/g, '\\n');
    return String(v);
  };
  if (def.perExtruder && Array.isArray(value)) return value.map(one).join(',');
  return one(value);
}

/** Resolves a FloatOrPercent against its base (e.g. a line width against the nozzle diameter). */
export function absOrPct(value: FloatOrPercent, base: number): number {
  return typeof value === 'string' ? (Number(value.slice(0, -1)) / 100) * base : value;
}
