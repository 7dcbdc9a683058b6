/**
 * CuraEngine 4.13 side of the peer mappings. CuraEngine reads only the `default_value`s of
 * fdmprinter.def.json and never evaluates the Python `value` expressions the Cura frontend
 * resolves, so every derived setting it uses is computed and passed here. Used by the dashboard's
 * desktop-slicer bridge and by the slicing benchmark (scripts/bench/README.md has the mapping).
 */
import type { PrintConfig } from '../profiles/schema.js';
import { configFacts, first, round, translate, type PeerMapping, type PeerSettings } from './config-facts.js';
import type { PeerGcode } from './peer-gcode.js';

const CURA_INFILL: Record<string, string> = {
  'zig-zag': 'zigzag',
  line: 'lines',
  grid: 'grid',
  alignedrectilinear: 'lines',
  triangles: 'triangles',
  gyroid: 'gyroid',
};
/** Cura spaces the lines of a pattern with several line directions per layer that much wider. */
const CURA_INFILL_FACTOR: Record<string, number> = { grid: 2, triangles: 3 };
const CURA_SURFACE: Record<string, string> = {
  monotonic: 'lines',
  monotonicline: 'lines',
  'zig-zag': 'lines',
  alignedrectilinear: 'lines',
  concentric: 'concentric',
};
const CURA_SEAM: Record<string, string> = { aligned: 'sharpest_corner', nearest: 'shortest', back: 'back', random: 'random' };
const CURA_FLAVOR: Record<string, string> = { reprapfirmware: 'RepRap (RepRap)' };
const CURA_SUPPORT: Record<string, string> = { rectilinear: 'lines', 'rectilinear-grid': 'grid' };

const angles = (...degrees: number[]): string => `[${degrees.map((d) => ((d % 360) + 360) % 360).join(',')}]`;

/**
 * Acceleration of one feature as the firmware will run it: our 0 means "leave the firmware's
 * value", i.e. the M204 limit for printing (or travel) moves that our G-code emits.
 */
function acceleration(value: number, config: PrintConfig, travel = false): number {
  if (value > 0) return value;
  if (config.default_acceleration > 0 && !travel) return config.default_acceleration;
  return travel ? config.machine_max_acceleration_travel : config.machine_max_acceleration_extruding;
}

/** CuraEngine prints one adhesion type: the brim when there is one, else the skirt. */
function adhesionType(wantsBrim: boolean, skirtLoops: number): 'brim' | 'skirt' | 'none' {
  if (wantsBrim) return 'brim';
  return skirtLoops > 0 ? 'skirt' : 'none';
}

/** CuraEngine 4.13 settings (its own key names) for a resolved config and its rendered G-code (peer-gcode.ts). */
export function curaSettings(config: PrintConfig, gcode: PeerGcode): PeerMapping {
  const facts = configFacts(config);
  const { width, retraction, temps } = facts;
  const caveats: string[] = [];
  const cura = (table: Record<string, string>, key: keyof PrintConfig): string => translate(table, key, config[key], 'CuraEngine 4.13');
  const fanFirstLayers = first(config.close_fan_the_first_x_layers);
  const flow = round(first(config.filament_flow_ratio) * 100, 3);
  const wallsWidth = width.outer + Math.max(config.wall_loops - 1, 0) * width.inner;
  const infillPattern = cura(CURA_INFILL, 'sparse_infill_pattern');
  const density = config.sparse_infill_density;
  const lineDistance = density > 0 ? ((width.sparse * 100) / density) * (CURA_INFILL_FACTOR[infillPattern] ?? 1) : 0;
  const wantsBrim = config.brim_type !== 'auto_brim' && config.brim_type !== 'no_brim' && config.brim_width > 0;
  const adhesion = adhesionType(wantsBrim, config.skirt_loops);
  const firstLayerFactor = round((width.first / width.default) * 100, 2);
  // Cura's roofing is the topmost of the top layers: Orca's and PrusaSlicer's "top surface".
  const roofLayers = Math.min(facts.topLayers, 1);
  if (config.sparse_infill_pattern === 'alignedrectilinear') caveats.push('sparse_infill_pattern alignedrectilinear: CuraEngine prints lines');
  if (wantsBrim && config.skirt_loops > 0) caveats.push('brim and skirt: CuraEngine prints one adhesion type, the brim');
  if (config.brim_type === 'auto_brim') caveats.push('brim_type auto_brim: CuraEngine has no automatic brim, none is printed');
  if (config.skirt_height > 1) caveats.push(`skirt_height ${config.skirt_height}: CuraEngine prints the skirt on the first layer only`);
  if (config.initial_layer_infill_speed !== config.initial_layer_speed) {
    caveats.push(
      `initial_layer_infill_speed ${config.initial_layer_infill_speed} mm/s: ` +
        `CuraEngine prints the whole first layer at speed_print_layer_0 ${config.initial_layer_speed} mm/s`,
    );
  }
  const accel = {
    print: acceleration(0, config),
    outer: acceleration(config.outer_wall_acceleration, config),
    inner: acceleration(config.inner_wall_acceleration, config),
    infill: acceleration(config.sparse_infill_acceleration, config),
    top: acceleration(config.top_surface_acceleration, config),
    firstLayer: acceleration(config.initial_layer_acceleration, config),
    travel: acceleration(config.travel_acceleration, config, true),
  };
  const settings: PeerSettings = {
    machine_width: facts.bed.width,
    machine_depth: facts.bed.depth,
    machine_height: facts.bed.height,
    gantry_height: facts.bed.height,
    machine_shape: 'rectangular',
    machine_center_is_zero: false,
    center_object: true,
    machine_heated_bed: temps.bed > 0 || temps.bedFirst > 0,
    machine_extruder_count: 1,
    extruders_enabled_count: 1,
    machine_nozzle_size: facts.nozzle,
    material_diameter: facts.filamentDiameter,
    machine_gcode_flavor: CURA_FLAVOR[config.gcode_flavor] ?? 'RepRap (Marlin/Sprinter)',
    relative_extrusion: config.use_relative_e_distances,
    machine_firmware_retract: config.use_firmware_retraction,
    machine_start_gcode: gcode.start,
    machine_end_gcode: gcode.end,
    machine_max_feedrate_x: config.machine_max_speed_x,
    machine_max_feedrate_y: config.machine_max_speed_y,
    machine_max_feedrate_z: config.machine_max_speed_z,
    machine_max_feedrate_e: config.machine_max_speed_e,
    machine_max_acceleration_x: config.machine_max_acceleration_x,
    machine_max_acceleration_y: config.machine_max_acceleration_y,
    machine_max_acceleration_z: config.machine_max_acceleration_z,
    machine_max_acceleration_e: config.machine_max_acceleration_e,
    machine_acceleration: accel.print,
    machine_max_jerk_xy: Math.min(config.machine_max_jerk_x, config.machine_max_jerk_y),
    machine_max_jerk_z: config.machine_max_jerk_z,
    machine_max_jerk_e: config.machine_max_jerk_e,
    machine_minimum_feedrate: config.machine_min_extruding_rate,

    material_print_temperature: temps.nozzle,
    material_print_temperature_layer_0: temps.nozzleFirst,
    material_initial_print_temperature: temps.nozzle,
    material_final_print_temperature: temps.nozzle,
    default_material_print_temperature: temps.nozzle,
    material_bed_temperature: temps.bed,
    material_bed_temperature_layer_0: temps.bedFirst,
    default_material_bed_temperature: temps.bed,
    // The start G-code already heats and waits (see peer-gcode.ts).
    material_print_temp_prepend: false,
    material_bed_temp_prepend: false,
    material_flow: flow,
    material_flow_layer_0: flow,
    wall_material_flow: flow,
    wall_0_material_flow: flow,
    wall_x_material_flow: flow,
    skin_material_flow: flow,
    roofing_material_flow: flow,
    infill_material_flow: flow,
    skirt_brim_material_flow: flow,
    support_material_flow: flow,
    support_interface_material_flow: flow,
    support_roof_material_flow: flow,
    support_bottom_material_flow: flow,
    prime_tower_flow: flow,

    layer_height: facts.layerHeight,
    layer_height_0: facts.firstLayerHeight,
    infill_sparse_thickness: facts.layerHeight,
    support_infill_sparse_thickness: facts.layerHeight,
    line_width: width.default,
    wall_line_width: width.inner,
    wall_line_width_0: width.outer,
    wall_line_width_x: width.inner,
    skin_line_width: width.solid,
    roofing_line_width: width.top,
    infill_line_width: width.sparse,
    skirt_brim_line_width: width.default,
    support_line_width: width.support,
    support_interface_line_width: width.support,
    support_roof_line_width: width.support,
    support_bottom_line_width: width.support,
    prime_tower_line_width: width.default,
    initial_layer_line_width_factor: firstLayerFactor,

    wall_line_count: config.wall_loops,
    wall_thickness: round(wallsWidth),
    outer_inset_first: config.wall_sequence === 'outer wall/inner wall',
    wall_0_wipe_dist: 0,
    wall_0_inset: 0,
    optimize_wall_printing_order: false,
    fill_outline_gaps: config.detect_thin_wall,
    fill_perimeter_gaps: 'everywhere',
    z_seam_type: cura(CURA_SEAM, 'seam_position'),
    z_seam_corner: 'z_seam_corner_weighted',
    z_seam_relative: false,
    z_seam_x: round(facts.bed.width / 2),
    z_seam_y: facts.bed.depth,
    xy_offset: config.xy_contour_compensation,
    xy_offset_layer_0: round(config.xy_contour_compensation - config.elefant_foot_compensation),
    hole_xy_offset: config.xy_hole_compensation,

    top_layers: facts.topLayers,
    bottom_layers: facts.bottomLayers,
    initial_bottom_layers: facts.bottomLayers,
    top_thickness: round(facts.topLayers * facts.layerHeight),
    bottom_thickness: round(facts.bottomLayers * facts.layerHeight),
    top_bottom_thickness: round(facts.topLayers * facts.layerHeight),
    roofing_layer_count: roofLayers,
    roofing_pattern: cura(CURA_SURFACE, 'top_surface_pattern'),
    roofing_monotonic: config.top_surface_pattern.startsWith('monotonic'),
    roofing_angles: angles(config.solid_infill_direction, config.solid_infill_direction + 90),
    top_bottom_pattern: cura(CURA_SURFACE, 'bottom_surface_pattern'),
    top_bottom_pattern_0: cura(CURA_SURFACE, 'bottom_surface_pattern'),
    skin_monotonic: config.bottom_surface_pattern.startsWith('monotonic'),
    skin_angles: angles(config.solid_infill_direction, config.solid_infill_direction + 90),
    skin_outline_count: 0,
    skin_overlap: config.top_bottom_infill_wall_overlap,
    skin_overlap_mm: round((0.5 * (width.solid + (config.wall_loops > 1 ? width.inner : width.outer)) * config.top_bottom_infill_wall_overlap) / 100),
    skin_preshrink: round(wallsWidth),
    top_skin_preshrink: round(wallsWidth),
    bottom_skin_preshrink: round(wallsWidth),
    expand_skins_expand_distance: round(wallsWidth),
    // Extra infill lines under skin edges: a Cura feature its frontend turns off (value 0).
    skin_edge_support_thickness: 0,
    skin_edge_support_layers: 0,
    top_skin_expand_distance: round(wallsWidth),
    bottom_skin_expand_distance: round(wallsWidth),

    infill_pattern: infillPattern,
    infill_sparse_density: density,
    infill_line_distance: round(lineDistance),
    infill_angles: angles(config.infill_direction, config.infill_direction + 90),
    infill_overlap: config.infill_wall_overlap,
    infill_overlap_mm: round((0.5 * (width.sparse + (config.wall_loops > 1 ? width.inner : width.outer)) * config.infill_wall_overlap) / 100),
    infill_wipe_dist: 0,
    infill_before_walls: config.is_infill_first,
    min_infill_area: config.minimum_sparse_infill_area,
    infill_wall_line_count: 0,
    infill_multiplier: 1,
    gradual_infill_steps: 0,
    zig_zaggify_infill: false,
    connect_infill_polygons: false,

    speed_print: config.sparse_infill_speed,
    speed_infill: config.sparse_infill_speed,
    speed_wall: config.inner_wall_speed,
    speed_wall_0: config.outer_wall_speed,
    speed_wall_x: config.inner_wall_speed,
    speed_roofing: config.top_surface_speed,
    speed_topbottom: config.internal_solid_infill_speed,
    speed_support: config.support_speed,
    speed_support_infill: config.support_speed,
    speed_support_interface: config.support_interface_speed,
    speed_support_roof: config.support_interface_speed,
    speed_support_bottom: config.support_interface_speed,
    speed_prime_tower: config.support_speed,
    speed_travel: config.travel_speed,
    speed_layer_0: config.initial_layer_speed,
    speed_print_layer_0: config.initial_layer_speed,
    speed_travel_layer_0: round((config.travel_speed * config.initial_layer_travel_speed) / 100),
    skirt_brim_speed: config.skirt_speed > 0 ? config.skirt_speed : config.initial_layer_speed,
    speed_slowdown_layers: Math.max(config.slow_down_layers, 1),
    speed_z_hop: config.travel_speed_z > 0 ? config.travel_speed_z : config.machine_max_speed_z,
    speed_equalize_flow_enabled: false,
    meshfix_maximum_travel_resolution: round(Math.min((0.5 * config.travel_speed) / config.sparse_infill_speed, 2 * width.default)),
    acceleration_enabled: true,
    acceleration_print: accel.print,
    acceleration_infill: accel.infill,
    acceleration_wall: accel.inner,
    acceleration_wall_0: accel.outer,
    acceleration_wall_x: accel.inner,
    acceleration_roofing: accel.top,
    acceleration_topbottom: accel.print,
    acceleration_support: accel.print,
    acceleration_support_infill: accel.print,
    acceleration_support_interface: accel.print,
    acceleration_support_roof: accel.print,
    acceleration_support_bottom: accel.print,
    acceleration_prime_tower: accel.print,
    acceleration_travel: accel.travel,
    acceleration_layer_0: accel.firstLayer,
    acceleration_print_layer_0: accel.firstLayer,
    acceleration_travel_layer_0: accel.travel,
    acceleration_skirt_brim: accel.firstLayer,
    jerk_enabled: false,

    retraction_enable: retraction.length > 0,
    retraction_amount: retraction.length,
    retraction_speed: retraction.speed,
    retraction_retract_speed: retraction.speed,
    retraction_prime_speed: retraction.deretractSpeed,
    retraction_extra_prime_amount: round(retraction.restartExtra * facts.filamentArea),
    retraction_min_travel: retraction.minTravel,
    retraction_extrusion_window: retraction.length,
    retraction_count_max: 100,
    retract_at_layer_change: retraction.onLayerChange,
    retraction_hop_enabled: retraction.zHop > 0,
    retraction_hop: retraction.zHop,
    retraction_hop_only_when_collides: false,
    retraction_combing: config.reduce_infill_retraction ? 'infill' : 'off',
    travel_avoid_other_parts: config.reduce_crossing_wall,
    travel_retract_before_outer_wall: false,

    cool_fan_enabled: first(config.fan_max_speed) > 0,
    cool_fan_speed: first(config.fan_min_speed),
    cool_fan_speed_min: first(config.fan_min_speed),
    cool_fan_speed_max: first(config.fan_max_speed),
    cool_fan_speed_0: 0,
    cool_fan_full_layer: Math.max(fanFirstLayers + 1, first(config.full_fan_speed_layer)),
    cool_min_layer_time_fan_speed_max: first(config.fan_cooling_layer_time),
    cool_min_layer_time: first(config.slow_down_for_layer_cooling) ? first(config.slow_down_layer_time) : 0,
    cool_min_speed: first(config.slow_down_min_speed),
    cool_lift_head: false,

    bridge_settings_enabled: true,
    bridge_wall_speed: config.bridge_speed,
    bridge_skin_speed: config.bridge_speed,
    bridge_wall_material_flow: round(config.bridge_flow * flow, 3),
    bridge_skin_material_flow: round(config.bridge_flow * flow, 3),
    bridge_skin_density: 100,
    bridge_fan_speed: first(config.overhang_fan_speed),
    bridge_enable_more_layers: false,

    adhesion_type: adhesion,
    skirt_line_count: config.skirt_loops,
    skirt_gap: config.skirt_distance,
    skirt_brim_minimal_length: config.min_skirt_length,
    brim_width: config.brim_width,
    brim_line_count: Math.ceil(config.brim_width / ((width.default * firstLayerFactor) / 100)),
    brim_gap: config.brim_object_gap,
    brim_outside_only: config.brim_type === 'outer_only',

    support_enable: config.enable_support,
    support_type: config.support_on_build_plate_only ? 'buildplate' : 'everywhere',
    support_angle: 90 - config.support_threshold_angle,
    support_pattern: cura(CURA_SUPPORT, 'support_base_pattern'),
    support_wall_count: config.support_base_pattern === 'rectilinear-grid' ? 1 : 0,
    support_line_distance: config.support_base_pattern_spacing,
    support_initial_layer_line_distance: config.support_base_pattern_spacing,
    support_z_distance: config.support_top_z_distance,
    support_top_distance: config.support_top_z_distance,
    support_bottom_distance: config.support_bottom_z_distance,
    support_xy_distance: config.support_object_xy_distance,
    support_offset: config.support_expansion,
    support_interface_enable: config.support_interface_top_layers > 0,
    support_roof_enable: config.support_interface_top_layers > 0,
    support_bottom_enable: config.support_interface_bottom_layers > 0,
    support_roof_height: round(config.support_interface_top_layers * facts.layerHeight),
    support_bottom_height: round(Math.max(config.support_interface_bottom_layers, 0) * facts.layerHeight),
    support_roof_line_distance: round(config.support_interface_spacing + width.support),
    support_bottom_line_distance: round(config.support_interface_spacing + width.support),

    print_sequence: 'all_at_once',
    magic_spiralize: config.spiral_mode,
    prime_tower_enable: config.enable_prime_tower,
    prime_blob_enable: false,
    ironing_enabled: false,
    ooze_shield_enabled: false,
    draft_shield_enabled: false,
  };
  return { settings, caveats };
}

/** `key=value` strings for CuraEngine's `-s` flags. */
export function curaSettingArgs(settings: PeerSettings): string[] {
  return Object.entries(settings).flatMap(([key, value]) => ['-s', `${key}=${String(value)}`]);
}

/**
 * The CuraEngine command line: settings go to the global stack and again to extruder 0, because
 * CuraEngine looks a setting up mesh → extruder → global and fdmextruder.def.json's own defaults
 * (2.85 mm filament, nozzle size...) sit on the extruder level and would shadow global values.
 */
export function curaCommandArgs({
  definition,
  settings,
  model,
  output,
}: {
  definition: string;
  settings: PeerSettings;
  model: string;
  output: string;
}): string[] {
  const values = curaSettingArgs(settings);
  return ['slice', '-v', '-j', definition, ...values, '-e0', ...values, '-l', model, '-o', output];
}
