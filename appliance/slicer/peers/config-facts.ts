/**
 * The absolute values of a resolved Printyard config (canonical OrcaSlicer keys) that every peer
 * mapping needs: line widths in mm, the bed rectangle, the bed temperature of the selected plate,
 * effective shell layer counts, retraction after filament overrides. Peers name and scale these
 * differently, so they are computed once here.
 */
import type { Point2, PrintConfig } from '../profiles/schema.js';

/** What a peer's settings table holds: its own key names, plain values. */
export type PeerSettings = Record<string, string | number | boolean>;

/** A peer mapping's result: the settings and what of this config the peer cannot reproduce. */
export interface PeerMapping {
  settings: PeerSettings;
  caveats: string[];
}

/** Bed temperature keys per OrcaSlicer plate type (`curr_bed_type`). */
const PLATE_TEMPERATURE_KEYS = {
  'Cool Plate': 'cool_plate_temp',
  'Engineering Plate': 'eng_plate_temp',
  'High Temp Plate': 'hot_plate_temp',
  'Textured PEI Plate': 'textured_plate_temp',
} as const satisfies Record<PrintConfig['curr_bed_type'], string>;

/** Values of the first extruder / filament: the peers slice single-material parts. */
export function first<T>(value: T | readonly T[]): T {
  return Array.isArray(value) ? (value as readonly T[])[0] : (value as T);
}

/** A value of ours in a peer's vocabulary; a value the table lacks is an error, never "undefined". */
export function translate(table: Readonly<Record<string, string>>, key: string, value: unknown, peer: string): string {
  const translated = table[String(value)];
  if (translated === undefined) throw new Error(`${key} "${String(value)}" has no ${peer} equivalent`);
  return translated;
}

export function round(value: number, digits = 4): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A FloatOrPercent line width: "110%" is a share of the nozzle diameter, 0 means automatic. */
function widthMm(value: number | string, nozzle: number, automatic: number): number {
  const mm = typeof value === 'string' ? (Number(value.slice(0, -1)) / 100) * nozzle : Number(value);
  return mm > 0 ? round(mm, 4) : automatic;
}

export interface BedRectangle {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  width: number;
  depth: number;
  height: number;
  points: Point2[];
}

function bedRectangle(points: Point2[], height: number): BedRectangle {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const maxX = Math.max(...xs);
  const maxY = Math.max(...ys);
  return { minX, minY, maxX, maxY, width: maxX - minX, depth: maxY - minY, height, points };
}

/** Shell layers after the minimum-thickness rule both Orca and PrusaSlicer apply. */
function shellLayers(layers: number, thickness: number, layerHeight: number): number {
  const byThickness = thickness > 0 ? Math.ceil(thickness / layerHeight - 1e-9) : 0;
  return layers > 0 ? Math.max(layers, byThickness) : 0;
}

/** Filament overrides of printer retraction: -1 means "take the printer value". */
function overridden(filamentValue: readonly number[], printerValue: readonly number[]): number {
  const value = first(filamentValue);
  return value !== undefined && value >= 0 ? value : first(printerValue);
}

export interface ConfigFacts {
  nozzle: number;
  filamentDiameter: number;
  filamentArea: number;
  layerHeight: number;
  firstLayerHeight: number;
  width: { default: number; outer: number; inner: number; sparse: number; solid: number; top: number; first: number; support: number };
  bed: BedRectangle;
  temps: { nozzle: number; nozzleFirst: number; bed: number; bedFirst: number };
  topLayers: number;
  bottomLayers: number;
  retraction: {
    length: number;
    zHop: number;
    speed: number;
    deretractSpeed: number;
    restartExtra: number;
    minTravel: number;
    onLayerChange: boolean;
    toolchangeLength: number;
    wipe: boolean;
    liftAbove: number;
    liftBelow: number;
  };
}

/** The absolute values of a resolved config that the peer mappings share. */
export function configFacts(config: PrintConfig): ConfigFacts {
  const nozzle = first(config.nozzle_diameter);
  const filamentDiameter = first(config.filament_diameter);
  const layerHeight = config.layer_height;
  const lineWidth = widthMm(config.line_width, nozzle, round(nozzle * 1.125));
  const plateKey = translate(
    PLATE_TEMPERATURE_KEYS,
    'curr_bed_type',
    config.curr_bed_type,
    'bed temperature key',
  ) as (typeof PLATE_TEMPERATURE_KEYS)[keyof typeof PLATE_TEMPERATURE_KEYS];
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
