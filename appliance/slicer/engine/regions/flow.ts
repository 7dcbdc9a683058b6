/**
 * Extrusion geometry, as PrusaSlicer models it: a rectangle with semicircular sides. Adjacent
 * parallel lines sit one spacing apart, and volume per mm equals spacing × height, so solid fills
 * come out exactly solid.
 */
import { absOrPct, type PrintConfig } from '../../profiles/schema.js';
import type { ExtrusionRole } from '../toolpath/types.js';

const ROUNDING = 1 - Math.PI / 4;

export function spacingOf(width: number, height: number): number {
  return width - height * ROUNDING;
}

export function widthForSpacing(spacing: number, height: number): number {
  return spacing + height * ROUNDING;
}

export function crossSection(width: number, height: number): number {
  return height * spacingOf(width, height);
}

/** PrusaSlicer's BRIDGE_EXTRA_SPACING: bridge threads are laid slightly apart so they do not merge. */
const BRIDGE_EXTRA_SPACING = 0.05;

export interface BridgeFlow {
  /** Diameter of the round thread. */
  width: number;
  spacing: number;
  mm3PerMm: number;
}

/** Thick bridges: round threads as wide as the nozzle scaled by the bridge flow ratio. */
export function bridgeFlow(nozzle: number, bridgeFlowRatio: number, layerHeight: number, thick: boolean): BridgeFlow {
  if (thick) {
    const width = nozzle * Math.sqrt(bridgeFlowRatio);
    return { width, spacing: width + BRIDGE_EXTRA_SPACING, mm3PerMm: (Math.PI * width * width) / 4 };
  }
  const width = nozzle;
  const spacing = spacingOf(width, layerHeight);
  return { width, spacing, mm3PerMm: crossSection(width, layerHeight) * bridgeFlowRatio };
}

export interface RoleWidths {
  outerWall: number;
  innerWall: number;
  sparseInfill: number;
  solidInfill: number;
  topSurface: number;
  firstLayer: number;
  support: number;
}

/** Line widths of extruder `e` (0-based), percentages taken of its nozzle; 0 means the default line width. */
export function roleWidths(config: PrintConfig, e = 0): RoleWidths {
  const nozzle = config.nozzle_diameter[Math.min(e, config.nozzle_diameter.length - 1)];
  const base = absOrPct(config.line_width, nozzle) || 1.125 * nozzle;
  const pick = (v: PrintConfig['line_width']) => absOrPct(v, nozzle) || base;
  return {
    outerWall: pick(config.outer_wall_line_width),
    innerWall: pick(config.inner_wall_line_width),
    sparseInfill: pick(config.sparse_infill_line_width),
    solidInfill: pick(config.internal_solid_infill_line_width),
    topSurface: pick(config.top_surface_line_width),
    firstLayer: pick(config.initial_layer_line_width),
    support: pick(config.support_line_width),
  };
}

/** The width a role prints at on a layer (the first layer uses its own width for everything but bridges). */
export function widthFor(role: ExtrusionRole, widths: RoleWidths, firstLayer: boolean): number {
  if (firstLayer && role !== 'bridge') return widths.firstLayer;
  switch (role) {
    case 'outer-wall':
    case 'overhang-wall':
    case 'thin-wall':
      return widths.outerWall;
    case 'inner-wall':
    case 'gap-fill':
      return widths.innerWall;
    case 'sparse-infill':
      return widths.sparseInfill;
    case 'solid-infill':
    case 'bottom-surface':
      return widths.solidInfill;
    case 'top-surface':
      return widths.topSurface;
    case 'support':
    case 'support-interface':
      return widths.support;
    case 'skirt':
    case 'brim':
      return widths.firstLayer;
    case 'bridge':
      return widths.solidInfill;
  }
}
