/**
 * Groups clean polygons (non-overlapping, outer contours counter-clockwise, holes clockwise, as
 * Clipper returns them) into ExPolygons without another boolean pass: each hole goes to the
 * smallest contour that contains it.
 */
import type { ExPolygon, Polygon } from './types.js';
import { pointInRing, signedArea } from './polygon.js';

/*
 * The signed areas of a call's polygons and the boxes of its contours, kept from call to call:
 * every Clipper result is nested here (tens of thousands of calls a slice), and an object with a
 * box per contour was one of the larger sources of garbage of the layer build.
 */
let areas = new Float64Array(64);
let boxes = new Float64Array(256);

export function nestPolygons(paths: readonly Polygon[]): ExPolygon[] {
  const n = paths.length;
  if (areas.length < n) areas = new Float64Array(Math.max(n, 2 * areas.length));
  for (let i = 0; i < n; i++) areas[i] = signedArea(paths[i]);
  return nestByArea(paths, areas);
}

/**
 * `nestPolygons` for paths whose signed areas (as `signedArea` computes them, bit for bit) are
 * already known: `ringAreas[i]` is the area of `paths[i]`. Clipper's results are read with their
 * areas summed during the copy, which spares a second pass over every point.
 */
export function nestByArea(paths: readonly Polygon[], ringAreas: Float64Array): ExPolygon[] {
  const n = paths.length;
  let holeCount = 0;
  for (let i = 0; i < n; i++) if (ringAreas[i] < 0) holeCount++;
  const out: ExPolygon[] = [];
  if (holeCount === 0) {
    for (let i = 0; i < n; i++) if (ringAreas[i] > 0) out.push({ contour: paths[i], holes: [] });
    return out;
  }
  // Smallest contour first (a stable sort: contours of equal area keep their order), so a hole goes to the innermost one.
  const contours: number[] = [];
  for (let i = 0; i < n; i++) if (ringAreas[i] > 0) contours.push(i);
  contours.sort((x, y) => ringAreas[x] - ringAreas[y]);
  if (boxes.length < 4 * contours.length) boxes = new Float64Array(Math.max(4 * contours.length, 2 * boxes.length));
  for (let c = 0; c < contours.length; c++) {
    const poly = paths[contours[c]];
    out.push({ contour: poly, holes: [] });
    boxOf(poly, 4 * c);
  }
  for (let i = 0; i < n; i++) {
    if (!(ringAreas[i] < 0)) continue;
    const h = paths[i];
    const hx = h[0];
    const hy = h[1];
    // A hole's vertices lie on or inside its parent; test a midpoint of its first edge to stay off shared vertices.
    const mx = (h[0] + h[2]) / 2;
    const my = (h[1] + h[3]) / 2;
    for (let c = 0, k = 0; c < contours.length; c++, k += 4) {
      if (hx < boxes[k] || hx > boxes[k + 2] || hy < boxes[k + 1] || hy > boxes[k + 3]) continue;
      if (pointInRing(mx, my, out[c].contour)) {
        out[c].holes.push(h);
        break;
      }
    }
  }
  return out;
}

/** Writes the box of `poly` (minX, minY, maxX, maxY) to `boxes` at `k`. */
function boxOf(poly: Polygon, k: number): void {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < poly.length; j += 2) {
    const x = poly[j];
    const y = poly[j + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  boxes[k] = minX;
  boxes[k + 1] = minY;
  boxes[k + 2] = maxX;
  boxes[k + 3] = maxY;
}
