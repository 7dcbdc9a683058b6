/**
 * Internal bridges (PrusaSlicer's bridge over infill): internal solid infill laid over sparse
 * infill spans the gaps between the sparse lines like a bridge over air, so it is printed as one,
 * with bridge flow, speed and fan. An area counts when the sparse infill lies under it on every
 * layer within the bridge's thickness (a thick bridge is as high as the nozzle is wide: two
 * 0.2 mm layers), and when it is wide enough to be worth it (three bridge widths each side).
 */
import { differenceEx, intersectionEx, intersectionOfAll, offsetEx } from '../geometry/clipper.js';
import { bboxOfEx, exPolygonsNear, mayHoldDisc } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import { bridgeFlow } from './flow.js';
import type { RegionParams } from './params.js';

/** Thinner parts are not bridged (PrusaSlicer: an opening by three bridge widths). */
const MIN_WIDTH_IN_BRIDGE_WIDTHS = 3;

export interface SplitSolid {
  bridge: ExPolygon[];
  solid: ExPolygon[];
}

/**
 * Splits an island's internal solid area into what bridges over sparse infill and what does not.
 * @param beneath the sparse areas of the layers under the bridge, nearest first (computed when asked for).
 */
export function bridgeOverInfill(solid: ExPolygon[], beneath: () => ExPolygon[][], bridgeWidth: number): SplitSolid {
  const none: ExPolygon[] = [];
  const margin = MIN_WIDTH_IN_BRIDGE_WIDTHS * bridgeWidth;
  // Only pieces wide enough for the opening can bridge: most internal solid infill is strips along
  // the walls, which then need no boolean, and no look at the layers beneath (whose classification
  // a worker starting a chunk computes again).
  const wide = mayHoldDisc(solid, margin);
  if (wide.length === 0) return { bridge: none, solid };
  const layers = beneath();
  if (layers.length === 0) return { bridge: none, solid };
  const box = bboxOfEx(wide);
  const near = layers.map((sparse) => exPolygonsNear(sparse, box));
  if (near.some((list) => list.length === 0)) return { bridge: none, solid };
  const over = mayHoldDisc(intersectionOfAll([wide, ...near]), margin);
  if (over.length === 0) return { bridge: none, solid };
  const core = offsetEx(over, -margin);
  if (core.length === 0) return { bridge: none, solid };
  const bridge = intersectionEx(offsetEx(core, margin), solid);
  return { bridge, solid: differenceEx(solid, bridge) };
}

/**
 * How many layers under layer `index` an internal bridge there rests on: those whose top lies
 * within the bridge's thickness (PrusaSlicer's rule); none on the first layer or at 100 % infill.
 */
export function bridgeBaseDepth(index: number, printZs: ArrayLike<number>, heights: ArrayLike<number>, p: RegionParams): number {
  if (index === 0 || p.density >= 0.999) return 0;
  const thickness = p.thickBridges ? bridgeFlow(p.nozzle, p.bridgeFlowRatio, heights[index], true).width : heights[index];
  let depth = 0;
  while (depth < index && printZs[index - depth - 1] >= printZs[index] - thickness - 1e-9) depth++;
  return depth;
}

/** The most layers an internal bridge of the print rests on: the layer stream sends their outlines too. */
export function deepestBridgeBase(printZs: ArrayLike<number>, heights: ArrayLike<number>, p: RegionParams): number {
  let deepest = 0;
  for (let i = 0; i < printZs.length; i++) deepest = Math.max(deepest, bridgeBaseDepth(i, printZs, heights, p));
  return deepest;
}
