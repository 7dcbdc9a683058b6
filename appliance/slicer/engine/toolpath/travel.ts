/** Whether a travel stays inside an island: such travels need no retraction (the nozzle only crosses infill and walls of the same part). */
import type { ExPolygon } from '../geometry/types.js';

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  if ((d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0)) return false;
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return !((d3 > 0 && d4 > 0) || (d3 < 0 && d4 < 0));
}

/* What one walk round a ring finds (`ringTest`). */
const A_INSIDE = 1;
const B_INSIDE = 2;
const CROSSES = 4;

/**
 * One walk round a ring: whether a and b are inside it (even-odd, as `pointInRing`) and whether the
 * segment from a to b crosses one of its edges. The three were three walks, for every travel.
 */
function ringTest(ax: number, ay: number, bx: number, by: number, ring: Float64Array): number {
  const minX = Math.min(ax, bx);
  const maxX = Math.max(ax, bx);
  const minY = Math.min(ay, by);
  const maxY = Math.max(ay, by);
  let aInside = false;
  let bInside = false;
  const n = ring.length;
  let px = ring[n - 2];
  let py = ring[n - 1];
  for (let k = 0; k < n; k += 2) {
    const qx = ring[k];
    const qy = ring[k + 1];
    if (qy > ay !== py > ay && ax < ((px - qx) * (ay - qy)) / (py - qy) + qx) aInside = !aInside;
    if (qy > by !== py > by && bx < ((px - qx) * (by - qy)) / (py - qy) + qx) bInside = !bInside;
    if (!((px < minX && qx < minX) || (px > maxX && qx > maxX) || (py < minY && qy < minY) || (py > maxY && qy > maxY))) {
      if (segmentsCross(ax, ay, bx, by, px, py, qx, qy)) return CROSSES;
    }
    px = qx;
    py = qy;
  }
  return (aInside ? A_INSIDE : 0) | (bInside ? B_INSIDE : 0);
}

export function travelStaysInside(ax: number, ay: number, bx: number, by: number, island: ExPolygon): boolean {
  if (ringTest(ax, ay, bx, by, island.contour) !== (A_INSIDE | B_INSIDE)) return false;
  const holes = island.holes;
  for (let k = 0; k < holes.length; k++) if (ringTest(ax, ay, bx, by, holes[k]) !== 0) return false;
  return true;
}
