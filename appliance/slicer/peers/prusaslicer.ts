/**
 * PrusaSlicer 2.5 side of the peer mappings: a resolved Printyard config as a PrusaSlicer INI for
 * `prusa-slicer --load`. PrusaSlicer's percentages are relative to the layer height where ours are
 * relative to the nozzle, so every width is passed in mm. Used by the dashboard's desktop-slicer
 * bridge and by the slicing benchmark (scripts/bench/README.md has the mapping table).
 */
import type { PrintConfig } from '../profiles/schema.js';
import { configFacts, first, translate, type PeerMapping, type PeerSettings } from './config-facts.js';
import type { PeerGcode } from './peer-gcode.js';

const PRUSA_INFILL: Record<string, string> = {
  'zig-zag': 'rectilinear',
  line: 'line',
  grid: 'grid',
  alignedrectilinear: 'alignedrectilinear',
  triangles: 'triangles',
  gyroid: 'gyroid',
};
const PRUSA_SURFACE: Record<string, string> = {
  monotonic: 'monotonic',
  monotonicline: 'monotonic',
  'zig-zag': 'rectilinear',
  alignedrectilinear: 'alignedrectilinear',
  concentric: 'concentric',
};
const PRUSA_SEAM: Record<string, string> = { aligned: 'aligned', nearest: 'nearest', back: 'rear', random: 'random' };
const PRUSA_FLAVOR: Record<string, string> = {
  marlin2: 'marlin2',
  marlin: 'marlin',
  klipper: 'marlin2',
  bambu: 'marlin2',
  reprapfirmware: 'reprapfirmware',
};

const bool = (value: boolean): number => (value ? 1 : 0);

/** A machine limit as PrusaSlicer's normal,stealth pair: the same value for both modes. */
const pair = (value: number): string => `${value},${value}`;

/**
 * PrusaSlicer refuses relative E without a `G92 E0` in the layer G-code (float accuracy of long
 * prints); the reset moves nothing, so adding it keeps the toolpaths identical.
 */
function withExtruderReset(layerGcode: string, relativeE: boolean): string {
  if (!relativeE || /^\s*G92\s+E0\b/im.test(layerGcode)) return layerGcode;
  return layerGcode === '' || layerGcode.endsWith('\n') ? `${layerGcode}G92 E0` : `${layerGcode}\nG92 E0`;
}

/** PrusaSlicer 2.5 settings (its own key names) for a resolved config and its rendered G-code (peer-gcode.ts). */
export function prusaSettings(config: PrintConfig, gcode: PeerGcode): PeerMapping {
  const facts = configFacts(config);
  const { width, retraction, temps } = facts;
  const caveats: string[] = [];
  if (config.gcode_flavor === 'klipper' || config.gcode_flavor === 'bambu') {
    caveats.push(`gcode_flavor ${config.gcode_flavor}: PrusaSlicer 2.5 has no such flavour, marlin2 is used`);
  }
  if (config.brim_type === 'auto_brim') caveats.push('brim_type auto_brim: PrusaSlicer has no automatic brim, none is printed');
  if (config.wall_sequence === 'inner-outer-inner wall') caveats.push('wall_sequence inner-outer-inner: PrusaSlicer prints inner walls first');
  if (config.ensure_vertical_shell_thickness === 'ensure_moderate') {
    caveats.push('ensure_vertical_shell_thickness ensure_moderate: PrusaSlicer 2.5 has only its full mode (ensure_all), which is used');
  }
  if (config.initial_layer_infill_speed !== config.initial_layer_speed) {
    caveats.push(
      `initial_layer_infill_speed ${config.initial_layer_infill_speed} mm/s: ` +
        `PrusaSlicer prints the whole first layer at first_layer_speed ${config.initial_layer_speed} mm/s`,
    );
  }
  const brim = config.brim_type === 'auto_brim' || config.brim_type === 'no_brim' ? 'no_brim' : config.brim_type;
  const prusa = (table: Record<string, string>, key: keyof PrintConfig): string => translate(table, key, config[key], 'PrusaSlicer 2.5');
  const settings: PeerSettings = {
    printer_technology: 'FFF',
    bed_shape: facts.bed.points.map(([x, y]) => `${x}x${y}`).join(','),
    max_print_height: facts.bed.height,
    nozzle_diameter: facts.nozzle,
    gcode_flavor: prusa(PRUSA_FLAVOR, 'gcode_flavor'),
    use_relative_e_distances: bool(config.use_relative_e_distances),
    use_firmware_retraction: bool(config.use_firmware_retraction),
    z_offset: config.z_offset,
    start_gcode: gcode.start,
    end_gcode: gcode.end,
    before_layer_gcode: gcode.beforeLayer,
    layer_gcode: withExtruderReset(gcode.layer, config.use_relative_e_distances),
    start_filament_gcode: gcode.filamentStart,
    end_filament_gcode: gcode.filamentEnd,
    // The CLI cannot render thumbnails without an OpenGL context.
    thumbnails: '',
    machine_limits_usage: config.emit_machine_limits_to_gcode ? 'emit_to_gcode' : 'time_estimate_only',
    machine_max_acceleration_x: pair(config.machine_max_acceleration_x),
    machine_max_acceleration_y: pair(config.machine_max_acceleration_y),
    machine_max_acceleration_z: pair(config.machine_max_acceleration_z),
    machine_max_acceleration_e: pair(config.machine_max_acceleration_e),
    machine_max_acceleration_extruding: pair(config.machine_max_acceleration_extruding),
    machine_max_acceleration_retracting: pair(config.machine_max_acceleration_retracting),
    machine_max_acceleration_travel: pair(config.machine_max_acceleration_travel),
    machine_max_feedrate_x: pair(config.machine_max_speed_x),
    machine_max_feedrate_y: pair(config.machine_max_speed_y),
    machine_max_feedrate_z: pair(config.machine_max_speed_z),
    machine_max_feedrate_e: pair(config.machine_max_speed_e),
    machine_max_jerk_x: pair(config.machine_max_jerk_x),
    machine_max_jerk_y: pair(config.machine_max_jerk_y),
    machine_max_jerk_z: pair(config.machine_max_jerk_z),
    machine_max_jerk_e: pair(config.machine_max_jerk_e),
    machine_min_extruding_rate: pair(config.machine_min_extruding_rate),
    machine_min_travel_rate: pair(config.machine_min_travel_rate),
    retract_length: retraction.length,
    retract_speed: retraction.speed,
    deretract_speed: retraction.deretractSpeed,
    retract_restart_extra: retraction.restartExtra,
    retract_before_travel: retraction.minTravel,
    retract_layer_change: bool(retraction.onLayerChange),
    retract_length_toolchange: retraction.toolchangeLength,
    wipe: bool(retraction.wipe),
    retract_lift: retraction.zHop,
    retract_lift_above: retraction.liftAbove,
    retract_lift_below: retraction.liftBelow,

    filament_type: first(config.filament_type),
    filament_diameter: facts.filamentDiameter,
    filament_density: first(config.filament_density),
    filament_cost: first(config.filament_cost),
    filament_soluble: bool(first(config.filament_soluble)),
    extrusion_multiplier: first(config.filament_flow_ratio),
    filament_max_volumetric_speed: first(config.filament_max_volumetric_speed),
    temperature: temps.nozzle,
    first_layer_temperature: temps.nozzleFirst,
    bed_temperature: temps.bed,
    first_layer_bed_temperature: temps.bedFirst,
    cooling: bool(first(config.slow_down_for_layer_cooling)),
    fan_always_on: bool(first(config.reduce_fan_stop_start_freq)),
    min_fan_speed: first(config.fan_min_speed),
    max_fan_speed: first(config.fan_max_speed),
    bridge_fan_speed: first(config.overhang_fan_speed),
    fan_below_layer_time: first(config.fan_cooling_layer_time),
    slowdown_below_layer_time: first(config.slow_down_layer_time),
    min_print_speed: first(config.slow_down_min_speed),
    disable_fan_first_layers: first(config.close_fan_the_first_x_layers),
    full_fan_speed_layer: first(config.full_fan_speed_layer),

    layer_height: facts.layerHeight,
    first_layer_height: facts.firstLayerHeight,
    extrusion_width: width.default,
    external_perimeter_extrusion_width: width.outer,
    perimeter_extrusion_width: width.inner,
    infill_extrusion_width: width.sparse,
    solid_infill_extrusion_width: width.solid,
    top_infill_extrusion_width: width.top,
    first_layer_extrusion_width: width.first,
    support_material_extrusion_width: width.support,
    perimeter_generator: config.wall_generator,
    perimeters: config.wall_loops,
    top_solid_layers: config.top_shell_layers,
    bottom_solid_layers: config.bottom_shell_layers,
    top_solid_min_thickness: config.top_shell_thickness,
    bottom_solid_min_thickness: config.bottom_shell_thickness,
    ensure_vertical_shell_thickness: bool(config.ensure_vertical_shell_thickness !== 'none'),
    fill_density: `${config.sparse_infill_density}%`,
    fill_pattern: prusa(PRUSA_INFILL, 'sparse_infill_pattern'),
    top_fill_pattern: prusa(PRUSA_SURFACE, 'top_surface_pattern'),
    bottom_fill_pattern: prusa(PRUSA_SURFACE, 'bottom_surface_pattern'),
    fill_angle: config.infill_direction,
    infill_overlap: `${config.infill_wall_overlap}%`,
    solid_infill_below_area: config.minimum_sparse_infill_area,
    infill_every_layers: 1,
    external_perimeters_first: bool(config.wall_sequence === 'outer wall/inner wall'),
    infill_first: bool(config.is_infill_first),
    thin_walls: bool(config.detect_thin_wall),
    gap_fill_enabled: 1,
    overhangs: bool(config.detect_overhang_wall),
    seam_position: prusa(PRUSA_SEAM, 'seam_position'),
    slice_closing_radius: config.slice_closing_radius,
    resolution: config.resolution,
    xy_size_compensation: config.xy_contour_compensation,
    elefant_foot_compensation: config.elefant_foot_compensation,

    external_perimeter_speed: config.outer_wall_speed,
    perimeter_speed: config.inner_wall_speed,
    small_perimeter_speed: config.outer_wall_speed,
    infill_speed: config.sparse_infill_speed,
    solid_infill_speed: config.internal_solid_infill_speed,
    top_solid_infill_speed: config.top_surface_speed,
    gap_fill_speed: config.gap_infill_speed,
    bridge_speed: config.bridge_speed,
    support_material_speed: config.support_speed,
    support_material_interface_speed: config.support_interface_speed,
    travel_speed: config.travel_speed,
    travel_speed_z: config.travel_speed_z,
    first_layer_speed: config.initial_layer_speed,
    default_acceleration: config.default_acceleration,
    perimeter_acceleration: config.inner_wall_acceleration,
    infill_acceleration: config.sparse_infill_acceleration,
    bridge_acceleration: config.bridge_acceleration,
    first_layer_acceleration: config.initial_layer_acceleration,

    bridge_flow_ratio: config.bridge_flow,
    bridge_angle: config.bridge_angle,
    thick_bridges: bool(config.thick_bridges),
    support_material: bool(config.enable_support),
    support_material_auto: bool(config.support_type === 'normal(auto)'),
    support_material_threshold: config.support_threshold_angle,
    support_material_buildplate_only: bool(config.support_on_build_plate_only),
    support_material_contact_distance: config.support_top_z_distance,
    support_material_bottom_contact_distance: config.support_bottom_z_distance,
    support_material_xy_spacing: config.support_object_xy_distance,
    support_material_pattern: config.support_base_pattern,
    support_material_spacing: config.support_base_pattern_spacing,
    support_material_interface_layers: config.support_interface_top_layers,
    support_material_bottom_interface_layers: config.support_interface_bottom_layers,
    support_material_interface_spacing: config.support_interface_spacing,
    support_material_style: 'grid',
    raft_layers: 0,
    skirts: config.skirt_loops,
    skirt_distance: config.skirt_distance,
    skirt_height: config.skirt_height,
    min_skirt_length: config.min_skirt_length,
    brim_type: brim,
    brim_width: brim === 'no_brim' ? 0 : config.brim_width,
    brim_separation: config.brim_object_gap,
    complete_objects: 0,
    avoid_crossing_perimeters: bool(config.reduce_crossing_wall),
    only_retract_when_crossing_perimeters: bool(config.reduce_infill_retraction),
    gcode_label_objects: bool(config.gcode_label_objects),
    gcode_comments: bool(config.gcode_comments),
    spiral_vase: bool(config.spiral_mode),
    wipe_tower: bool(config.enable_prime_tower),
    ironing: 0,
  };
  return { settings, caveats };
}

/** PrusaSlicer's per-filament string lists: written quoted, as PrusaSlicer writes them. */
const STRING_VECTORS = new Set(['start_filament_gcode', 'end_filament_gcode']);

/** INI text for `prusa-slicer --load`; multi-line G-code is escaped as PrusaSlicer writes it. */
export function formatPrusaIni(settings: PeerSettings): string {
  const lines = ['# generated by Printyard from a resolved Printyard config'];
  for (const [key, value] of Object.entries(settings)) {
    const escaped = String(value).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    lines.push(`${key} = ${STRING_VECTORS.has(key) ? `"${escaped.replace(/"/g, '\\"')}"` : escaped}`);
  }
  return `${lines.join('\n')}\n`;
}
