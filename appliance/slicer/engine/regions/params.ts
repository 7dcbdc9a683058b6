/**
 * The region settings of a job, derived once from the config as plain data: it is what a worker
 * thread needs to build any layer's walls and infill.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { roleWidths, spacingOf, type RoleWidths } from './flow.js';
import type { WallSequence } from './perimeters.js';

export interface RegionParams {
  nozzle: number;
  widths: RoleWidths;
  wallLoops: number;
  wallSequence: WallSequence;
  /** Classic fixed-width loops, or variable-width walls that follow thin parts (`variable-walls.ts`). */
  wallGenerator: PrintConfig['wall_generator'];
  detectThinWalls: boolean;
  detectOverhangWalls: boolean;
  topLayers: number;
  bottomLayers: number;
  /** Sparse density, 0..1. */
  density: number;
  sparsePattern: PrintConfig['sparse_infill_pattern'];
  topPattern: PrintConfig['top_surface_pattern'];
  bottomPattern: PrintConfig['bottom_surface_pattern'];
  solidPattern: PrintConfig['internal_solid_infill_pattern'];
  infillAngle: number;
  solidAngle: number;
  /** Share of a fill line's spacing that overlaps the innermost wall. */
  infillOverlap: number;
  surfaceOverlap: number;
  minSparseArea: number;
  bridgeFlowRatio: number;
  thickBridges: boolean;
  /** Fixed bridge direction in degrees, or null for automatic. */
  bridgeAngle: number | null;
  infillFirst: boolean;
  /** Where the walls of neighbouring layers make this layer's infill solid (surfaces.ts). */
  verticalShells: PrintConfig['ensure_vertical_shell_thickness'];
  /** How far the walls reach in from the outline (mm): the thickness of a vertical shell. */
  wallThickness: number;
  /** Gap between support lines (mm) and whether they cross as a grid. */
  supportGap: number;
  supportGrid: boolean;
  interfaceGap: number;
}

export function regionParams(config: PrintConfig): RegionParams {
  const h = config.layer_height;
  return {
    nozzle: config.nozzle_diameter[0],
    widths: roleWidths(config, 0),
    wallLoops: config.wall_loops,
    wallSequence: config.wall_sequence,
    wallGenerator: config.wall_generator,
    detectThinWalls: config.detect_thin_wall,
    detectOverhangWalls: config.detect_overhang_wall,
    topLayers: config.top_shell_layers === 0 ? 0 : Math.max(config.top_shell_layers, Math.ceil(config.top_shell_thickness / h - 1e-9)),
    bottomLayers: config.bottom_shell_layers === 0 ? 0 : Math.max(config.bottom_shell_layers, Math.ceil(config.bottom_shell_thickness / h - 1e-9)),
    density: config.sparse_infill_density / 100,
    sparsePattern: config.sparse_infill_pattern,
    topPattern: config.top_surface_pattern,
    bottomPattern: config.bottom_surface_pattern,
    solidPattern: config.internal_solid_infill_pattern,
    infillAngle: config.infill_direction,
    solidAngle: config.solid_infill_direction,
    infillOverlap: config.infill_wall_overlap / 100,
    surfaceOverlap: config.top_bottom_infill_wall_overlap / 100,
    minSparseArea: config.minimum_sparse_infill_area,
    bridgeFlowRatio: config.bridge_flow,
    thickBridges: config.thick_bridges,
    bridgeAngle: config.bridge_angle > 0 ? config.bridge_angle : null,
    infillFirst: config.is_infill_first,
    verticalShells: config.ensure_vertical_shell_thickness,
    wallThickness: wallThickness(config),
    supportGap: config.support_base_pattern_spacing,
    supportGrid: config.support_base_pattern === 'rectilinear-grid',
    interfaceGap: config.support_interface_spacing,
  };
}

/** Outline to the inner edge of the innermost wall, with the spacings the wall generator uses. */
function wallThickness(c: PrintConfig): number {
  const w = roleWidths(c, 0);
  const h = c.layer_height;
  if (c.wall_loops <= 0) return 0;
  const outer = spacingOf(w.outerWall, h);
  const inner = spacingOf(w.innerWall, h);
  if (c.wall_loops === 1) return w.outerWall / 2 + outer / 2;
  return w.outerWall / 2 + (outer + inner) / 2 + (c.wall_loops - 2) * inner + inner / 2;
}
