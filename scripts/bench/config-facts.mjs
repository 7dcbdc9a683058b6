// Turns a resolved Printyard config (canonical OrcaSlicer keys, see
// appliance/slicer/profiles/schema.ts) into the absolute values both peer mappings need: line
// widths in mm, the bed rectangle, the bed temperature of the selected plate, effective shell
// layer counts and retraction after filament overrides. Peers name and scale these differently,
// so they are computed once here.

/** Bed temperature keys per OrcaSlicer plate type (`curr_bed_type`). */
const PLATE_TEMPERATURE_KEYS = {
  'Cool Plate': 'cool_plate_temp',
  'Engineering Plate': 'eng_plate_temp',
  'High Temp Plate': 'hot_plate_temp',
  'Textured PEI Plate': 'textured_plate_temp',
};

/** Values of the first extruder / filament: the bench slices single-material parts. */
export function first(value) {
  return Array.isArray(value) ? value[0] : value;
}

/** A FloatOrPercent line width: "110%" is a share of the nozzle diameter, 0 means automatic. */
function widthMm(value, nozzle, automatic) {
  const mm = typeof value === 'string' ? (Number(value.slice(0, -1)) / 100) * nozzle : Number(value);
  return mm > 0 ? round(mm, 4) : automatic;
}

/** A value of ours in a peer's vocabulary; a value the table lacks is an error, never "undefined". */
export function translate(table, key, value, peer) {
  const translated = table[value];
  if (translated === undefined) throw new Error(`${key} "${value}" has no ${peer} equivalent in scripts/bench`);
  return translated;
}

export function round(value, digits = 4) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function bedRectangle(points, height) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const maxX = Math.max(...xs);
  const maxY = Math.max(...ys);
  return { minX, minY, maxX, maxY, width: maxX - minX, depth: maxY - minY, height, points };
}

/** Shell layers after the minimum-thickness rule both Orca and PrusaSlicer apply. */
function shellLayers(layers, thickness, layerHeight) {
  const byThickness = thickness > 0 ? Math.ceil(thickness / layerHeight - 1e-9) : 0;
  return layers > 0 ? Math.max(layers, byThickness) : 0;
}

/** Filament overrides of printer retraction: -1 means "take the printer value". */
function overridden(filamentValue, printerValue) {
  const value = first(filamentValue);
  return value !== undefined && value >= 0 ? value : first(printerValue);
}

/** The absolute values of a resolved config that the peer mappings share. */
export function configFacts(config) {
  const nozzle = first(config.nozzle_diameter);
  const filamentDiameter = first(config.filament_diameter);
  const layerHeight = config.layer_height;
  const lineWidth = widthMm(config.line_width, nozzle, round(nozzle * 1.125));
  const plateKey = translate(PLATE_TEMPERATURE_KEYS, 'curr_bed_type', config.curr_bed_type, 'bed temperature key');
  const temps = {
    nozzle: first(config.nozzle_temperature),
    nozzleFirst: first(config.nozzle_temperature_initial_layer),
    bed: first(config[plateKey]),
    bedFirst: first(config[`${plateKey}_initial_layer`]),
  };
  return {
    nozzle,
    filamentDiameter,
    filamentArea: Math.PI * (filamentDiameter / 2) ** 2,
    layerHeight,
    firstLayerHeight: config.initial_layer_print_height,
    width: {
      default: lineWidth,
      outer: widthMm(config.outer_wall_line_width, nozzle, lineWidth),
      inner: widthMm(config.inner_wall_line_width, nozzle, lineWidth),
      sparse: widthMm(config.sparse_infill_line_width, nozzle, lineWidth),
      solid: widthMm(config.internal_solid_infill_line_width, nozzle, lineWidth),
      top: widthMm(config.top_surface_line_width, nozzle, lineWidth),
      first: widthMm(config.initial_layer_line_width, nozzle, lineWidth),
      support: widthMm(config.support_line_width, nozzle, lineWidth),
    },
    bed: bedRectangle(config.printable_area, config.printable_height),
    temps,
    topLayers: shellLayers(config.top_shell_layers, config.top_shell_thickness, layerHeight),
    bottomLayers: shellLayers(config.bottom_shell_layers, config.bottom_shell_thickness, layerHeight),
    retraction: {
      length: overridden(config.filament_retraction_length, config.retraction_length),
      zHop: overridden(config.filament_z_hop, config.z_hop),
      speed: first(config.retraction_speed),
      deretractSpeed: first(config.deretraction_speed) || first(config.retraction_speed),
      restartExtra: first(config.retract_restart_extra),
      minTravel: first(config.retraction_minimum_travel),
      onLayerChange: first(config.retract_when_changing_layer),
      toolchangeLength: first(config.retract_length_toolchange),
      wipe: first(config.wipe),
      liftAbove: first(config.retract_lift_above),
      liftBelow: first(config.retract_lift_below),
    },
  };
}
