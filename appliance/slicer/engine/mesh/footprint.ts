/** Footprints of meshes on the bed plane and whether they fit a printable-area polygon. */
import { distToSegmentSq, length2, pointInRing } from '../geometry/polygon.js';
import type { Polygon } from '../geometry/types.js';
import type { IndexedMesh } from './types.js';

/** How far a footprint may touch or graze the printable-area border (mm). */
const BORDER_TOLERANCE_MM = 1e-3;

/** Directions whose extreme points, in this counter-clockwise order, span the octagon. */
const OCTAGON_DIRECTIONS = [0, -1, 1, -1, 1, 0, 1, 1, 0, 1, -1, 1, -1, 0, -1, -1];

function cross(ox: number, oy: number, ax: number, ay: number, bx: number, by: number): number {
  return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox);
}

/**
 * Counter-clockwise convex hull of the XY projection of the points triangles use.
 * Points strictly inside the octagon of the extreme points along 8 directions cannot be on the
 * hull and are dropped first (Akl–Toussaint), so the sort runs on few points even for dense meshes.
 */
export function convexHullXY(mesh: IndexedMesh): Polygon {
  const v = mesh.vertices;
  const used = new Uint8Array(v.length / 3);
  for (let k = 0; k < mesh.indices.length; k++) used[mesh.indices[k]] = 1;

  const extremeOf = new Int32Array(8).fill(-1);
  const extremeValue = new Float64Array(8).fill(-Infinity);
  for (let p = 0; p < used.length; p++) {
    if (!used[p]) continue;
    for (let d = 0; d < 8; d++) {
      const value = v[p * 3] * OCTAGON_DIRECTIONS[d * 2] + v[p * 3 + 1] * OCTAGON_DIRECTIONS[d * 2 + 1];
      if (value > extremeValue[d]) {
        extremeValue[d] = value;
        extremeOf[d] = p;
      }
    }
  }
  const octagon: number[] = [];
  for (let d = 0; d < 8; d++) {
    const p = extremeOf[d];
    if (p < 0) continue;
    const x = v[p * 3];
    const y = v[p * 3 + 1];
    const n = octagon.length;
    if (n === 0 || octagon[n - 2] !== x || octagon[n - 1] !== y) octagon.push(x, y);
  }
  if (octagon.length > 2 && octagon[0] === octagon[octagon.length - 2] && octagon[1] === octagon[octagon.length - 1]) {
    octagon.length -= 2;
  }

  const candidates: number[] = [];
  for (let p = 0; p < used.length; p++) {
    if (!used[p]) continue;
    const x = v[p * 3];
    const y = v[p * 3 + 1];
    let inside = octagon.length >= 6;
    for (let k = 0; k < octagon.length && inside; k += 2) {
      const j = (k + 2) % octagon.length;
      if (cross(octagon[k], octagon[k + 1], octagon[j], octagon[j + 1], x, y) <= 0) inside = false;
    }
    if (!inside) candidates.push(x, y);
  }
  return monotoneChain(candidates);
}

function monotoneChain(xy: number[]): Polygon {
  const n = xy.length / 2;
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => xy[a * 2] - xy[b * 2] || xy[a * 2 + 1] - xy[b * 2 + 1]);
  if (n < 3) return Float64Array.from(order.flatMap((k) => [xy[k * 2], xy[k * 2 + 1]]));
  const hull: number[] = [];
  const push = (k: number, floor: number): void => {
    const x = xy[k * 2];
    const y = xy[k * 2 + 1];
    while (hull.length >= floor + 4 && cross(hull[hull.length - 4], hull[hull.length - 3], hull[hull.length - 2], hull[hull.length - 1], x, y) <= 0) {
      hull.length -= 2;
    }
    hull.push(x, y);
  };
  for (const k of order) push(k, 0);
  const lowerLength = hull.length;
  for (let i = n - 2; i >= 0; i--) push(order[i], lowerLength - 2);
  hull.length -= 2;
  return Float64Array.from(hull);
}

function nearBorder(x: number, y: number, area: Polygon): boolean {
  const n = area.length;
  for (let k = 0; k < n; k += 2) {
    const j = (k + 2) % n;
    if (distToSegmentSq(x, y, area[k], area[k + 1], area[j], area[j + 1]) <= BORDER_TOLERANCE_MM ** 2) return true;
  }
  return false;
}

/** Whether segments ab and cd cross each other, not merely touch (within the border tolerance). */
function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const epsAB = BORDER_TOLERANCE_MM * length2(bx - ax, by - ay);
  const epsCD = BORDER_TOLERANCE_MM * length2(dx - cx, dy - cy);
  const c1 = cross(cx, cy, dx, dy, ax, ay);
  const c2 = cross(cx, cy, dx, dy, bx, by);
  const c3 = cross(ax, ay, bx, by, cx, cy);
  const c4 = cross(ax, ay, bx, by, dx, dy);
  return ((c1 > epsCD && c2 < -epsCD) || (c1 < -epsCD && c2 > epsCD)) && ((c3 > epsAB && c4 < -epsAB) || (c3 < -epsAB && c4 > epsAB));
}

/**
 * Whether a convex footprint, shifted by (dx, dy), lies inside the printable area: every hull
 * point inside (or on) the area and no hull edge crossing the area's outline, which catches
 * the notches of non-convex areas.
 */
export function footprintFits(hull: Polygon, dx: number, dy: number, area: Polygon): boolean {
  for (let k = 0; k < hull.length; k += 2) {
    const x = hull[k] + dx;
    const y = hull[k + 1] + dy;
    if (!pointInRing(x, y, area) && !nearBorder(x, y, area)) return false;
  }
  for (let h = 0; h < hull.length; h += 2) {
    const j = (h + 2) % hull.length;
    const ax = hull[h] + dx,
      ay = hull[h + 1] + dy;
    const bx = hull[j] + dx,
      by = hull[j + 1] + dy;
    for (let k = 0; k < area.length; k += 2) {
      const m = (k + 2) % area.length;
      if (segmentsCross(ax, ay, bx, by, area[k], area[k + 1], area[m], area[m + 1])) return false;
    }
  }
  return true;
}
