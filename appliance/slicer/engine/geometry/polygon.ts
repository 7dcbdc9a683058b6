/** Pure-JS polygon helpers: measures, tests and conversions that need no boolean engine. */
import type { BBox2, ExPolygon, Polygon, Polyline } from './types.js';

export function pointCount(path: Float64Array): number {
  return path.length >> 1;
}

/** Signed area (positive for counter-clockwise). */
export function signedArea(poly: Polygon): number {
  const n = poly.length;
  if (n < 6) return 0;
  let sum = 0;
  let px = poly[n - 2];
  let py = poly[n - 1];
  for (let k = 0; k < n; k += 2) {
    const x = poly[k];
    const y = poly[k + 1];
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum / 2;
}

export function exArea(ex: ExPolygon): number {
  let a = Math.abs(signedArea(ex.contour));
  for (const h of ex.holes) a -= Math.abs(signedArea(h));
  return a;
}

export function totalArea(list: readonly ExPolygon[]): number {
  let a = 0;
  for (const ex of list) a += exArea(ex);
  return a;
}

export function reversed(path: Float64Array): Float64Array {
  const n = path.length;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k += 2) {
    out[n - 2 - k] = path[k];
    out[n - 1 - k] = path[k + 1];
  }
  return out;
}

/*
 * Math.hypot guards against overflow that millimetre coordinates never reach, and V8 does not
 * optimise it: it costs ten times a square root and boxes its result (on the corpus's rigid3d
 * platform, 850,000 calls and 13 MB of garbage).
 */
export function length2(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

export function length3(dx: number, dy: number, dz: number): number {
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

export function polylineLength(path: Polyline): number {
  let len = 0;
  for (let k = 2; k < path.length; k += 2) len += length2(path[k] - path[k - 2], path[k + 1] - path[k - 1]);
  return len;
}

export function polygonLength(poly: Polygon): number {
  const n = poly.length;
  if (n < 4) return 0;
  return polylineLength(poly) + length2(poly[0] - poly[n - 2], poly[1] - poly[n - 1]);
}

export function emptyBBox(): BBox2 {
  return { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
}

export function extendBBox(box: BBox2, path: Float64Array): BBox2 {
  for (let k = 0; k < path.length; k += 2) {
    const x = path[k];
    const y = path[k + 1];
    if (x < box.minX) box.minX = x;
    if (x > box.maxX) box.maxX = x;
    if (y < box.minY) box.minY = y;
    if (y > box.maxY) box.maxY = y;
  }
  return box;
}

export function bboxOf(paths: readonly Float64Array[]): BBox2 {
  const box = emptyBBox();
  for (const p of paths) extendBBox(box, p);
  return box;
}

export function bboxOfEx(list: readonly ExPolygon[]): BBox2 {
  const box = emptyBBox();
  for (const ex of list) extendBBox(box, ex.contour);
  return box;
}

const contourBoxes = new WeakMap<ExPolygon, BBox2>();

/** The bounding box of an ExPolygon (its contour), memoised: ExPolygons are never modified in place. */
export function exBBox(ex: ExPolygon): BBox2 {
  let box = contourBoxes.get(ex);
  if (!box) {
    box = extendBBox(emptyBBox(), ex.contour);
    contourBoxes.set(ex, box);
  }
  return box;
}

/** Bounding boxes of the pieces of a list (minX, minY, maxX, maxY each), by the list. */
const listBoxes = new WeakMap<readonly ExPolygon[], Float64Array>();

/**
 * The members of `list` whose bounding box overlaps `box`: a boolean with a region inside `box`
 * gives the same result on them as on the whole list, without handing every far-away polygon of a
 * layer to Clipper for each island. Returns `list` itself when nothing is left out. The lists are
 * a layer's (its masks, its outline, the layer below, memoised inner areas), filtered again for
 * each island or loop: their boxes are read from one array made once per list, not looked up per
 * piece and call (on the Menger sponge those lookups were 2 % of a slice).
 */
export function exPolygonsNear(list: ExPolygon[], box: BBox2): ExPolygon[] {
  if (list.length === 0) return list;
  let boxes = listBoxes.get(list);
  if (boxes?.length !== list.length * 4) {
    const made = new Float64Array(list.length * 4);
    // Each piece's box from its memo: the same pieces come again in other lists (filtered ones,
    // the layer's masks near each island), and a large outline's box is a scan of all its points.
    for (let i = 0, k = 0; i < list.length; i++, k += 4) {
      const b = exBBox(list[i]);
      made[k] = b.minX;
      made[k + 1] = b.minY;
      made[k + 2] = b.maxX;
      made[k + 3] = b.maxY;
    }
    listBoxes.set(list, made);
    boxes = made;
  }
  // Counted first: most calls keep the whole list, and then no array is made for it.
  let near = 0;
  for (let k = 0; k < boxes.length; k += 4) if (overlaps(boxes, k, box)) near++;
  if (near === list.length) return list;
  const kept: ExPolygon[] = [];
  for (let i = 0, k = 0; i < list.length; i++, k += 4) if (overlaps(boxes, k, box)) kept.push(list[i]);
  return kept;
}

/** Whether the box at `boxes[k..k+3]` (minX, minY, maxX, maxY) overlaps `box`. */
function overlaps(boxes: Float64Array, k: number, box: BBox2): boolean {
  return boxes[k] <= box.maxX && boxes[k + 2] >= box.minX && boxes[k + 1] <= box.maxY && boxes[k + 3] >= box.minY;
}

/**
 * The pieces of a list that may hold a disc of `radius`: a piece narrower than its diameter either
 * way, or of less area, shrinks to nothing when offset inwards by `radius`, so an opening by it (or
 * anything found from such an offset) needs only the pieces this keeps.
 */
export function mayHoldDisc(list: ExPolygon[], radius: number): ExPolygon[] {
  const diameter = 2 * radius;
  const disc = Math.PI * radius * radius;
  return list.filter((ex) => {
    const box = exBBox(ex);
    return box.maxX - box.minX >= diameter && box.maxY - box.minY >= diameter && exArea(ex) >= disc;
  });
}

/** Even-odd point-in-polygon test on one ring. Points on the edge count as inside or outside arbitrarily. */
export function pointInRing(x: number, y: number, ring: Polygon): boolean {
  let inside = false;
  const n = ring.length;
  let jx = ring[n - 2];
  let jy = ring[n - 1];
  for (let k = 0; k < n; k += 2) {
    const ix = ring[k];
    const iy = ring[k + 1];
    if (iy > y !== jy > y && x < ((jx - ix) * (y - iy)) / (jy - iy) + ix) inside = !inside;
    jx = ix;
    jy = iy;
  }
  return inside;
}

export function pointInExPolygon(x: number, y: number, ex: ExPolygon): boolean {
  if (!pointInRing(x, y, ex.contour)) return false;
  for (const h of ex.holes) if (pointInRing(x, y, h)) return false;
  return true;
}

export function toPolygons(list: readonly ExPolygon[]): Polygon[] {
  const out: Polygon[] = [];
  for (const ex of list) {
    out.push(ex.contour);
    for (const h of ex.holes) out.push(h);
  }
  return out;
}

/** Squared distance from a point to a segment. */
export function distToSegmentSq(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const qx = ax + t * dx - px;
  const qy = ay + t * dy - py;
  return qx * qx + qy * qy;
}

/** Index (point number) of the vertex of a closed path nearest to (x, y). */
export function nearestVertex(path: Float64Array, x: number, y: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let k = 0; k < path.length; k += 2) {
    const d = (path[k] - x) ** 2 + (path[k + 1] - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = k >> 1;
    }
  }
  return best;
}

/** Rotates a closed path so that it starts at point `start`. */
export function rotateClosed(path: Float64Array, start: number): Float64Array {
  if (start === 0) return path;
  const k = start * 2;
  const out = new Float64Array(path.length);
  out.set(path.subarray(k), 0);
  out.set(path.subarray(0, k), path.length - k);
  return out;
}

/** Turns a closed loop into an open path that returns to its start (the first point repeated). */
export function closeLoop(path: Float64Array): Float64Array {
  const out = new Float64Array(path.length + 2);
  out.set(path);
  out[path.length] = path[0];
  out[path.length + 1] = path[1];
  return out;
}

/** Douglas-Peucker on an open polyline; keeps end points. */
export function simplifyPolyline(path: Polyline, tolerance: number): Polyline {
  const n = path.length >> 1;
  if (n < 3) return path;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  // Spans still to check, as (first, last) index pairs; `top` is the stack's height.
  const stack: number[] = [0, n - 1];
  let top = stack.length;
  const tol2 = tolerance * tolerance;
  while (top > 0) {
    const b = stack[--top];
    const a = stack[--top];
    let worst = -1;
    let worstD = tol2;
    const ax = path[a * 2];
    const ay = path[a * 2 + 1];
    const bx = path[b * 2];
    const by = path[b * 2 + 1];
    for (let k = a + 1; k < b; k++) {
      const d = distToSegmentSq(path[k * 2], path[k * 2 + 1], ax, ay, bx, by);
      if (d > worstD) {
        worstD = d;
        worst = k;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack[top++] = a;
      stack[top++] = worst;
      stack[top++] = worst;
      stack[top++] = b;
    }
  }
  let count = 0;
  for (let k = 0; k < n; k++) count += keep[k];
  const out = new Float64Array(count * 2);
  let o = 0;
  for (let k = 0; k < n; k++) {
    if (keep[k]) {
      out[o++] = path[k * 2];
      out[o++] = path[k * 2 + 1];
    }
  }
  return out;
}
