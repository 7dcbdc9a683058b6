/**
 * Which parts of a layer must be solid: top and bottom surfaces found by comparing a layer with
 * its neighbours (PrusaSlicer's detect_surfaces_type), and the shells under tops and over bottoms
 * (discover_horizontal_shells): an area is solid when any of the next N layers above (or below)
 * does not cover it.
 */
import { differenceEx, differenceOfAll, intersectionEx, intersectionOfAll, offsetEx, unionExs } from '../geometry/clipper.js';
import { bboxOfEx, exArea, exPolygonsNear, mayHoldDisc, polygonLength, totalArea } from '../geometry/polygon.js';
import { hashExPolygons, islandHash } from '../geometry/hash.js';
import type { ExPolygon } from '../geometry/types.js';
import { distinctLayers, windowGroups } from './shell-window.js';

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
 * "Ensure vertical shell thickness" (OrcaSlicer's key and mode names), with what it needs of a
 * neighbouring layer; both functions are memoised by the caller, per layer hash.
 * - `ensure_moderate` (PrusaSlicer 2.6+'s "partial"): where the next or previous layer is smaller (a
 *   steep side), its walls run over this layer's infill, which must be solid there so no wall stands
 *   on sparse infill. Shallow slopes are left to the top and bottom shells.
 * - `ensure_all` (PrusaSlicer 2.5 and OrcaSlicer's default): infill stays sparse only where every
 *   layer within the shell counts above and below has infill too; wherever one of them has walls or
 *   nothing at all, this layer is solid. A part made of slopes gets much more solid infill (the
 *   corpus's Menger sponge on its corner: 13 % more filament, 44 % more printing time).
 */
export interface VerticalShellRule {
  mode: 'ensure_moderate' | 'ensure_all';
  /**
   * `ensure_all` only: how far the top and bottom shells reach sideways (mm). PrusaSlicer 2.5 grows
   * the surfaces it projects by a little more than a solid line spacing, and then does not anchor
   * them by the external margin (its discover_horizontal_shells skips such regions).
   */
  shellReach: number;
  /** The wall band of a layer: its outline minus what lies inside its walls. */
  wallRing: (layer: HashedLayer) => ExPolygon[];
  /** What lies inside the walls of a layer: its infill area. */
  inner: (layer: HashedLayer) => ExPolygon[];
}

/**
 * The islands of `layer` that `other` does not repeat unchanged. An island repeated on the other
 * layer is covered by it and has the same walls there: no boolean needs to look at it, which
 * leaves the one changing island of a layer of many to the booleans.
 */
function changedIslands(layer: HashedLayer, other: HashedLayer): ExPolygon[] {
  const repeated = new Set(other.islands.map(islandHash));
  return layer.islands.filter((ex) => !repeated.has(islandHash(ex)));
}

/**
 * The neighbours whose outlines differ from this layer's, each outline once, and the islands of
 * this layer that some of them does not repeat.
 */
function changesAgainst(current: HashedLayer, neighbours: HashedLayer[]): { others: HashedLayer[]; changed: Set<ExPolygon> } {
  const others = distinctLayers(neighbours).filter((layer) => layer.hash !== current.hash);
  return { others, changed: new Set(others.flatMap((layer) => changedIslands(current, layer))) };
}

/**
 * `ensure_all`: what of this layer's infill area is not infill area on every layer of the window.
 * @param above the window's layers up, nearest first; @param below its layers down, nearest first.
 */
function fullVerticalShell(current: HashedLayer, above: HashedLayer[], below: HashedLayer[], inner: VerticalShellRule['inner']): ExPolygon[] {
  const { others, changed } = changesAgainst(current, [...above, ...below]);
  if (changed.size === 0) return [];
  if (changed.size === current.islands.length) {
    // All of them changed (every layer of a part that changes shape): that is the layer itself, whose
    // inner area is memoised under its own hash, and so are its neighbours'. The window moves up a
    // layer at a time, so its intersection is found from groups of layers kept from layer to layer,
    // and taken from the layer's inner area in the same boolean.
    const sequence = [...below.slice().reverse(), current, ...above].map((layer) => ({ hash: layer.hash, inner: inner(layer) }));
    return differenceOfAll(inner(current), windowGroups(sequence));
  }
  const islands = current.islands.filter((ex) => changed.has(ex));
  const own = inner({ islands, hash: hashExPolygons(islands) });
  const box = bboxOfEx(islands);
  const kept = intersectionOfAll([own, ...others.map((layer) => exPolygonsNear(inner(layer), box))]);
  return differenceEx(own, kept);
}

const cleanOutlines = new WeakMap<ExPolygon[], ExPolygon[]>();

/** A layer's islands as disjoint ExPolygons (simplified outlines may overlap where islands come close). */
function clean(islands: ExPolygon[]): ExPolygon[] {
  let list = cleanOutlines.get(islands);
  if (!list) {
    list = unionExs(islands);
    cleanOutlines.set(islands, list);
  }
  return list;
}

/** What of the layer some of `neighbours` leaves uncovered, slivers dropped, in one boolean. */
function uncoveredBySome(current: HashedLayer, neighbours: HashedLayer[]): ExPolygon[] {
  const { others, changed } = changesAgainst(current, neighbours);
  if (changed.size === 0) return [];
  const islands = current.islands.filter((ex) => changed.has(ex));
  const box = bboxOfEx(islands);
  return dropSlivers(
    differenceOfAll(
      islands,
      others.map((layer) => exPolygonsNear(clean(layer.islands), box)),
    ),
  );
}

/**
 * @param above the next layers up, nearest first; a missing layer (past the object's top) ends the list early.
 * @param below the layers down, nearest first; shorter than `bottomLayers` near the bed.
 * @param vertical how vertical shells are made, or null when they are off.
 */
export function surfaceMasks(
  current: HashedLayer,
  above: HashedLayer[],
  below: HashedLayer[],
  topLayers: number,
  bottomLayers: number,
  vertical: VerticalShellRule | null,
): SurfaceMasks {
  const none: ExPolygon[] = [];
  if (current.islands.length === 0) return { top: none, bottom: none, topShell: none, bottomShell: none, verticalShell: none };
  // What of this layer the next layer up (down) does not cover: its top (bottom) surface.
  const exposedTo = (other: HashedLayer) => {
    if (other.hash === current.hash) return none;
    const changed = changedIslands(current, other);
    return changed.length ? dropSlivers(differenceEx(changed, exPolygonsNear(other.islands, bboxOfEx(changed)))) : none;
  };
  const exposedAbove = above.length ? exposedTo(above[0]) : none;
  const exposedBelow = below.length ? exposedTo(below[0]) : none;
  const top = above.length === 0 ? current.islands : exposedAbove;
  const bottom = below.length === 0 ? current.islands : exposedBelow;
  const reach = vertical?.mode === 'ensure_all' ? vertical.shellReach : 0;
  // A shell is what of this layer some of its N neighbours leaves uncovered; with fewer neighbours
  // than that (the object's last layers, its first ones) it is the whole layer.
  const shell = (neighbours: HashedLayer[], nearest: ExPolygon[], count: number) => {
    if (count === 0) return none;
    if (neighbours.length < count) return current.islands;
    return count === 1 ? nearest : uncoveredBySome(current, neighbours.slice(0, count));
  };
  const widened = (list: ExPolygon[]) => (reach > 0 && list.length && list !== current.islands ? offsetEx(list, reach) : list);
  const topShell = widened(shell(above, exposedAbove, topLayers));
  const bottomShell = widened(shell(below, exposedBelow, bottomLayers));
  let verticalShell = none;
  if (vertical?.mode === 'ensure_all') {
    // The window is the other layers of the shells this layer belongs to: N - 1 up and down.
    verticalShell = fullVerticalShell(
      current,
      above.slice(0, Math.max(topLayers - 1, 0)),
      below.slice(0, Math.max(bottomLayers - 1, 0)),
      vertical.inner,
    );
  } else if (vertical) {
    const steep = [above[0], below[0]].filter((n, k) => n && (k === 0 ? exposedAbove : exposedBelow).length > 0);
    if (steep.length) verticalShell = unionExs(steep.flatMap((n) => vertical.wallRing(n)));
  }
  return { top: topLayers === 0 ? none : top, bottom, topShell, bottomShell, verticalShell };
}

/**
 * The opening of disjoint pieces by `radius` (inset, then grown back): what of them a disc of that
 * radius sweeps. A piece that cannot hold the disc (narrower than its diameter, or of less area)
 * keeps nothing, so only the others are offset: the strips and slivers a vertical shell leaves
 * beside the walls of a layer of many islands are most of its pieces (the rigid3d platform: 137 of
 * 341 openings had no piece left to offset).
 */
export function openedBy(pieces: ExPolygon[], radius: number): ExPolygon[] {
  const holding = mayHoldDisc(pieces, radius);
  return holding.length ? offsetEx(offsetEx(holding, -radius), radius) : [];
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
  /** How far a top surface reaches into the infill around it (its anchor). */
  topMargin: number;
  /** The same for the shells under tops and over bridges (0: the masks already say how far they reach). */
  shellMargin: number;
  /** Fully solid (100 % infill): everything that is not a surface is internal solid. */
  solidInfill: boolean;
  /** Solid regions narrower than this (a line's spacing) are not worth filling. */
  minSolidWidth: number;
}

/**
 * Memoises an island's fill regions by what they are found from, a key of the hashes of its fill
 * area and of the masks near it, and the options: on a layer where one island changes, the others
 * are classified again with the same areas and masks, on the next layer built (the rigid3d
 * platform: 231 of 589 classifications found so). The identity when nothing is kept.
 */
export type RegionsMemo = (key: string, compute: () => FillRegions) => FillRegions;

const computeRegions: RegionsMemo = (_key, compute) => compute();

/** Splits an island's fill area (inside its walls) into what each kind of infill prints. */
export function classifyFill(area: ExPolygon[], layerMasks: SurfaceMasks, o: ClassifyOptions, memo: RegionsMemo = computeRegions): FillRegions {
  const none: ExPolygon[] = [];
  if (area.length === 0) return { top: none, bottom: none, bridge: none, solid: none, sparse: none };
  // The masks cover the whole layer; a layer of many islands would hand all of them to every boolean.
  const box = bboxOfEx(area);
  const near = (list: ExPolygon[]) => exPolygonsNear(list, box);
  const masks: SurfaceMasks = {
    top: near(layerMasks.top),
    bottom: near(layerMasks.bottom),
    topShell: near(layerMasks.topShell),
    bottomShell: near(layerMasks.bottomShell),
    verticalShell: near(layerMasks.verticalShell),
  };
  if (memo === computeRegions) return classifyNear(area, masks, o);
  const inputs = [area, masks.top, masks.bottom, masks.topShell, masks.bottomShell, masks.verticalShell].map(hashExPolygons);
  const options = [o.firstLayer, o.minSparseArea, o.bridgeAnchor, o.topMargin, o.shellMargin, o.solidInfill, o.minSolidWidth];
  return memo(`${inputs.join(',')}:${options.join(',')}`, () => classifyNear(area, masks, o));
}

/** classifyFill with the masks near the area. */
function classifyNear(area: ExPolygon[], masks: SurfaceMasks, o: ClassifyOptions): FillRegions {
  const none: ExPolygon[] = [];
  let bottom = none;
  let bridge = none;
  if (o.firstLayer) bottom = area;
  else if (masks.bottom.length) {
    const raw = intersectionEx(area, masks.bottom);
    bridge = raw.length ? intersectionEx(offsetEx(raw, o.bridgeAnchor), area) : none;
  }
  const taken = o.firstLayer ? area : bridge;
  // Top surfaces (and shells) are grown by a margin so that the edges of a top rest on solid infill,
  // not on sparse lines: PrusaSlicer's and OrcaSlicer's external infill margin. Only what lies in
  // the fill area is grown: the thin rings a steep side leaves under the walls must not turn a band
  // of infill beside every wall solid.
  const anchored = (mask: ExPolygon[], within: ExPolygon[], margin: number) => {
    const seed = mask.length ? intersectionEx(within, mask) : none;
    // A seed that already covers everything (a shell layer right under a top) has nowhere to grow.
    if (seed.length === 0 || margin <= 0 || totalArea(seed) > totalArea(within) - 1e-6) return seed;
    return intersectionEx(offsetEx(seed, margin), within);
  };
  const grownTop = o.firstLayer ? none : anchored(masks.top, area, o.topMargin);
  // Bridges keep their ground.
  const top = grownTop.length && taken.length ? differenceEx(grownTop, taken) : grownTop;
  // Booleans take their clip by the non-zero rule: overlapping parts need not be united first.
  const rest = o.firstLayer ? none : differenceEx(area, top.length ? [...taken, ...top] : taken);
  if (rest.length === 0) return { top, bottom, bridge, solid: none, sparse: none };
  if (o.solidInfill) return { top, bottom, bridge, solid: rest, sparse: none };
  const shells = [...masks.topShell, ...masks.bottomShell];
  // Slivers narrower than a line are dropped (an opening), as PrusaSlicer does: they could not
  // be filled and would only break the sparse infill up.
  const reach = masks.verticalShell.length ? intersectionEx(rest, masks.verticalShell) : none;
  const wide = openedBy(reach, o.minSolidWidth / 2);
  let solid: ExPolygon[];
  // Shells that are not anchored are rest ∩ shells, and the solid is then rest ∩ (shells ∪ wide):
  // one boolean (booleans take their clip by the non-zero rule), not the shells' and then the union's.
  if (wide.length && shells.length && o.shellMargin <= 0) solid = intersectionEx(rest, [...shells, ...wide]);
  else {
    solid = anchored(shells, rest, o.shellMargin);
    // solid lies in rest already: rest ∩ (solid ∪ wide) is the union, in one boolean.
    if (wide.length) solid = intersectionEx(rest, solid.length ? [...solid, ...wide] : wide);
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
