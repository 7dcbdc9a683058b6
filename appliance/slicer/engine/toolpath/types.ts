/**
 * Toolpaths: what the regions stage produces per layer and the G-code stage consumes.
 * Extrusions carry their geometry, role and flow; speeds are chosen later from the role.
 */
import type { ExPolygon } from '../geometry/types.js';

export type ExtrusionRole =
  | 'outer-wall'
  | 'inner-wall'
  | 'overhang-wall'
  | 'thin-wall'
  | 'gap-fill'
  | 'sparse-infill'
  | 'solid-infill'
  | 'top-surface'
  | 'bottom-surface'
  | 'bridge'
  | 'skirt'
  | 'brim'
  | 'support'
  | 'support-interface';

export const EXTRUSION_ROLES: readonly ExtrusionRole[] = [
  'outer-wall',
  'inner-wall',
  'overhang-wall',
  'thin-wall',
  'gap-fill',
  'sparse-infill',
  'solid-infill',
  'top-surface',
  'bottom-surface',
  'bridge',
  'skirt',
  'brim',
  'support',
  'support-interface',
];

export interface Extrusion {
  role: ExtrusionRole;
  /** x,y pairs in mm. For a closed loop the first point is repeated at the end. */
  points: Float64Array;
  /** True when this is a closed loop whose start point may be moved (seam placement). */
  loop: boolean;
  /** Extrusion width (mm) as PrusaSlicer defines it: the flat-sided width of the rounded rectangle. */
  width: number;
  /** Layer (extrusion) height in mm. */
  height: number;
  /** Cross-section area in mm² (volume per mm of travel), before the filament flow ratio. */
  mm3PerMm: number;
}

/** Everything one island (a connected region of one object on one layer) prints. */
export interface IslandPaths {
  /** Index of the object in the model (for labels). */
  object: number;
  /** 0-based filament index. */
  filament: number;
  /** The island outline: travels inside it need no retraction. */
  outline: ExPolygon;
  /** Walls, in the order they print, loops still unsorted for seam. */
  walls: Extrusion[];
  /** Infill of every kind, already ordered. */
  infill: Extrusion[];
}

export interface LayerPaths {
  index: number;
  /** Top of the layer (the nozzle height when printing it). */
  printZ: number;
  height: number;
  islands: IslandPaths[];
  /** Support extrusions (may be printed with another filament). */
  support: Extrusion[];
  /** Skirt and brim, only on the first layers. */
  adhesion: Extrusion[];
  /** True when the layer holds bridges or overhangs: the fan may need its override. */
  hasBridges: boolean;
}
