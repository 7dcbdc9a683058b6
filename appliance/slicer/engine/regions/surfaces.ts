/**
 * Which parts of a layer must be solid: top and bottom surfaces found by comparing a layer with
 * its neighbours (PrusaSlicer's detect_surfaces_type), and the shells under tops and over bottoms
 * (discover_horizontal_shells): an area is solid when any of the next N layers above (or below)
 * does not cover it.
 */
import { differenceEx, intersectionEx, offsetEx, unionExs } from '../geometry/clipper.js';
import { exArea, polygonLength } from '../geometry/polygon.js';
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
  /** Where the walls of nearby layers run (sloping sides): solid, so the side shell stays thick. */
  verticalShell: ExPolygon[];
}

/** A layer's outline with its content hash: equal hashes mean equal outlines, so no boolean is needed. */
export interface HashedLayer {
  islands: ExPolygon[];
  hash: number;
}

/**
 * Differences between neighbouring layers narrower than this (mm, the mean width 2·area/perimeter)
 * are slivers: the steep part of a wall, or a crack the slicer closed differently on the next
 * layer. No surface can be printed there, so they are dropped before they cost any more work.
 */
const SLIVER_WIDTH = 0.1;

function dropSlivers(list: ExPolygon[]): ExPolygon[] {
  return list.filter((ex) => {
    let perimeter = polygonLength(ex.contour);
    for (const h of ex.holes) perimeter += polygonLength(h);
    return perimeter > 0 && (2 * exArea(ex)) / perimeter >= SLIVER_WIDTH;
  });
}

/**
 * @param above the next layers up, nearest first; a missing layer (past the object's top) ends the list early.
 * @param below the layers down, nearest first; shorter than `bottomLayers` near the bed.
 * @param wallRing the wall band of a layer (for vertical shells), or null when they are off.
 */
export function surfaceMasks(current: HashedLayer, above: HashedLayer[], below: HashedLayer[], topLayers: number, bottomLayers: number, wallRing: ((layer: HashedLayer) => ExPolygon[]) | null): SurfaceMasks {
  const none: ExPolygon[] = [];
  if (current.islands.length === 0) return { top: none, bottom: none, topShell: none, bottomShell: none, verticalShell: none };
  // What of this layer a neighbour does not cover; a shell is the union of these over its layers.
  const exposedTo = (other: HashedLayer) => (other.hash === current.hash ? none : dropSlivers(differenceEx(current.islands, other.islands)));
  const exposedAbove = above.slice(0, Math.max(topLayers, 1)).map(exposedTo);
  const exposedBelow = below.slice(0, Math.max(bottomLayers, 1)).map(exposedTo);
  const top = above.length === 0 ? current.islands : exposedAbove[0];
  const bottom = below.length === 0 ? current.islands : exposedBelow[0];
  const shell = (neighbours: HashedLayer[], exposed: ExPolygon[][], count: number) => {
    if (count === 0) return none;
    if (neighbours.length < count) return current.islands;
    const parts = exposed.slice(0, count).filter((e) => e.length > 0);
    return parts.length > 1 ? unionExs(parts.flat()) : parts[0] ?? none;
  };
  const topShell = shell(above, exposedAbove, topLayers);
  const bottomShell = shell(below, exposedBelow, bottomLayers);
  // "Ensure vertical shell thickness", partial as PrusaSlicer 2.6+ does it by default: where the
  // next or previous layer is smaller (a steep side), its walls run over this layer's infill, which
  // must be solid there so no wall stands on sparse infill. Shallow slopes are covered by the top
  // and bottom shells; doing this for every shell layer (PrusaSlicer 2.5) adds some 30 % of
  // material to a part made only of slopes.
  const steep = [above[0], below[0]].filter((n, k) => n && (k === 0 ? exposedAbove[0] : exposedBelow[0]).length > 0);
  const verticalShell = wallRing && steep.length ? unionExs(steep.flatMap((n) => wallRing(n))) : none;
  return { top: topLayers === 0 ? none : top, bottom, topShell, bottomShell, verticalShell };
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
  /** Solid regions narrower than this (a line's spacing) are not worth filling. */
  minSolidWidth: number;
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
  const parts = [masks.topShell, masks.bottomShell].filter((m) => m.length > 0);
  const shells = parts.length > 1 ? unionExs(parts.flat()) : parts[0] ?? none;
  let solid = shells.length ? intersectionEx(rest, shells) : none;
  if (masks.verticalShell.length) {
    // Slivers narrower than a line are dropped (an opening), as PrusaSlicer does: they could not
    // be filled and would only break the sparse infill up.
    const reach = intersectionEx(rest, masks.verticalShell);
    const wide = reach.length ? offsetEx(offsetEx(reach, -o.minSolidWidth / 2), o.minSolidWidth / 2) : none;
    if (wide.length) solid = solid.length ? unionExs([...solid, ...intersectionEx(wide, rest)]) : intersectionEx(wide, rest);
  }
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
