/** Whether a travel stays inside an island: such travels need no retraction (the nozzle only crosses infill and walls of the same part). */
import { pointInExPolygon } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  if ((d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0)) return false;
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return !((d3 > 0 && d4 > 0) || (d3 < 0 && d4 < 0));
}

function crossesRing(ax: number, ay: number, bx: number, by: number, ring: Float64Array): boolean {
  const minX = Math.min(ax, bx);
  const maxX = Math.max(ax, bx);
  const minY = Math.min(ay, by);
  const maxY = Math.max(ay, by);
  const n = ring.length;
  let px = ring[n - 2];
  let py = ring[n - 1];
  for (let k = 0; k < n; k += 2) {
    const qx = ring[k];
    const qy = ring[k + 1];
    if (!((px < minX && qx < minX) || (px > maxX && qx > maxX) || (py < minY && qy < minY) || (py > maxY && qy > maxY))) {
      if (segmentsCross(ax, ay, bx, by, px, py, qx, qy)) return true;
    }
    px = qx;
    py = qy;
  }
  return false;
}

export function travelStaysInside(ax: number, ay: number, bx: number, by: number, island: ExPolygon): boolean {
  if (!pointInExPolygon(ax, ay, island) || !pointInExPolygon(bx, by, island)) return false;
  if (crossesRing(ax, ay, bx, by, island.contour)) return false;
  for (const h of island.holes) if (crossesRing(ax, ay, bx, by, h)) return false;
  return true;
}
