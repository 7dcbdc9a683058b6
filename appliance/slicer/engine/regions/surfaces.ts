/**
 * Which parts of a layer must be solid: top and bottom surfaces found by comparing a layer with
 * its neighbours (PrusaSlicer's detect_surfaces_type), and the shells under tops and over bottoms
 * (discover_horizontal_shells): an area is solid when any of the next N layers above (or below)
 * does not cover it.
 */
import { differenceEx, intersectionEx, offsetEx, unionExs } from '../geometry/clipper.js';
import { exArea } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';

export interface SurfaceMasks {
  /** Exposed to the air above: printed as top surface. */
  top: ExPolygon[];
  /** Not resting on the layer below (over air or support): bridged, or the first layer's bottom. */
  bottom: ExPolygon[];
  /** Within the top shells (includes `top`). */
  topShell: ExPolygon[];
  /** Within the bottom shells (includes `bottom`). */
  bottomShell: ExPolygon[];
}

/** A layer's outline with its content hash: equal hashes mean equal outlines, so no boolean is needed. */
export interface HashedLayer {
  islands: ExPolygon[];
  hash: number;
}

/**
 * @param above the next layers up, nearest first; a missing layer (past the object's top) ends the list early.
 * @param below the layers down, nearest first; shorter than `bottomLayers` near the bed.
 */
export function surfaceMasks(current: HashedLayer, above: HashedLayer[], below: HashedLayer[], topLayers: number, bottomLayers: number): SurfaceMasks {
  const none: ExPolygon[] = [];
  if (current.islands.length === 0) return { top: none, bottom: none, topShell: none, bottomShell: none };
  const exposed = (other: HashedLayer | undefined) => (!other ? current.islands : other.hash === current.hash ? none : differenceEx(current.islands, other.islands));
  const top = exposed(above[0]);
  const bottom = exposed(below[0]);
  const topShell = topLayers === 0 ? none : shellOf(current, above, topLayers, top);
  const bottomShell = bottomLayers === 0 ? none : shellOf(current, below, bottomLayers, bottom);
  return { top: topLayers === 0 ? none : top, bottom, topShell, bottomShell };
}

function shellOf(current: HashedLayer, neighbours: HashedLayer[], count: number, exposed: ExPolygon[]): ExPolygon[] {
  if (neighbours.length < count) return current.islands;
  if (count === 1) return exposed;
  const differing = neighbours.slice(0, count).filter((n) => n.hash !== current.hash);
  if (differing.length === 0) return [];
  let covered = differing[0].islands;
  for (let k = 1; k < differing.length && covered.length; k++) covered = intersectionEx(covered, differing[k].islands);
  return differenceEx(current.islands, covered);
}

export interface FillRegions {
  top: ExPolygon[];
  bottom: ExPolygon[];
  bridge: ExPolygon[];
  solid: ExPolygon[];
  sparse: ExPolygon[];
}

export interface ClassifyOptions {
  firstLayer: boolean;
  /** Sparse areas smaller than this (mm²) are filled solid instead. */
  minSparseArea: number;
  /** How far a bridge reaches into its anchors. */
  bridgeAnchor: number;
  /** Fully solid (100 % infill): everything that is not a surface is internal solid. */
  solidInfill: boolean;
}

/** Splits an island's fill area (inside its walls) into what each kind of infill prints. */
export function classifyFill(area: ExPolygon[], masks: SurfaceMasks, o: ClassifyOptions): FillRegions {
  const none: ExPolygon[] = [];
  if (area.length === 0) return { top: none, bottom: none, bridge: none, solid: none, sparse: none };
  let bottom = none;
  let bridge = none;
  if (o.firstLayer) bottom = area;
  else if (masks.bottom.length) {
    const raw = intersectionEx(area, masks.bottom);
    bridge = raw.length ? intersectionEx(offsetEx(raw, o.bridgeAnchor), area) : none;
  }
  const taken = o.firstLayer ? area : bridge;
  const top = o.firstLayer || masks.top.length === 0 ? none : differenceEx(intersectionEx(area, masks.top), taken);
  const rest = o.firstLayer ? none : differenceEx(area, top.length ? unionExs([...taken, ...top]) : taken);
  if (rest.length === 0) return { top, bottom, bridge, solid: none, sparse: none };
  if (o.solidInfill) return { top, bottom, bridge, solid: rest, sparse: none };
  const shells = [...masks.topShell, ...masks.bottomShell];
  let solid = shells.length ? intersectionEx(rest, shells.length > 1 && masks.topShell.length && masks.bottomShell.length ? unionExs(shells) : shells) : none;
  let sparse = solid.length ? differenceEx(rest, solid) : rest;
  if (o.minSparseArea > 0 && sparse.length) {
    const small = sparse.filter((ex) => exArea(ex) < o.minSparseArea);
    if (small.length) {
      sparse = sparse.filter((ex) => exArea(ex) >= o.minSparseArea);
      solid = solid.length ? unionExs([...solid, ...small]) : small;
    }
  }
  return { top, bottom, bridge, solid, sparse };
}
