/** What the engine asks of the fill generators. */
import type { ExPolygon } from '../../geometry/types.js';
import type { ExtrusionRole } from '../../toolpath/types.js';

/** Sparse patterns (`sparse_infill_pattern`) and solid ones (`*_surface_pattern`), OrcaSlicer names. */
export type FillPattern = 'zig-zag' | 'line' | 'grid' | 'alignedrectilinear' | 'triangles' | 'gyroid' | 'monotonic' | 'monotonicline' | 'concentric';

export const FILL_PATTERNS: readonly FillPattern[] = [
  'zig-zag',
  'line',
  'grid',
  'alignedrectilinear',
  'triangles',
  'gyroid',
  'monotonic',
  'monotonicline',
  'concentric',
];

export interface FillRequest {
  /**
   * The region the line centres may cover: the caller has already shrunk it so that a line whose
   * centre runs along its edge just touches the walls. Disjoint ExPolygons, holes clockwise.
   */
  area: ExPolygon[];
  pattern: FillPattern;
  /** 0..1; 1 is solid. */
  density: number;
  /** Centre-to-centre distance of solid lines (mm): the flow spacing w - h(1 - pi/4). */
  spacing: number;
  /** Base direction of the lines, degrees counter-clockwise from +X (infill_direction / solid_infill_direction). */
  angle: number;
  layerIndex: number;
  /** Height of the layer (mm), for 3D patterns. */
  z: number;
  role: ExtrusionRole;
  width: number;
  height: number;
  mm3PerMm: number;
  /** Join neighbouring lines along the boundary when the way between them is short; default true. */
  connect?: boolean;
  /** Where the nozzle is; printing starts near it. */
  start?: [number, number];
}
