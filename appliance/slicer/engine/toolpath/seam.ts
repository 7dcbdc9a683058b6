/**
 * Where a wall loop starts (and ends). Seams prefer concave corners, where they hide; beyond that
 * `aligned` stays close to the previous layer's seam of the object, `back` goes to the rear,
 * `nearest` starts where the nozzle is, `random` scatters them.
 */
import { length2 } from '../geometry/polygon.js';
export type SeamMode = 'aligned' | 'nearest' | 'back' | 'random';

/** Worth of a corner, in mm of distance: a concave right angle outweighs 3 mm. */
const CONCAVE_WEIGHT = 3;
const CONVEX_WEIGHT = 1;
/** The most a corner is worth: a turn counts up to 1.5 right angles. */
const MAX_CORNER = 1.5 * CONCAVE_WEIGHT;

export interface SeamContext {
  mode: SeamMode;
  /** Nozzle position. */
  x: number;
  y: number;
  /** The object's seam on the previous layer, if any. */
  previous: [number, number] | null;
  /** Rear edge (max y) of the object, for `back` and the first aligned seam. */
  rearY: number;
  layer: number;
}

/**
 * Index of the start point of a closed loop given as points with the first repeated at the end.
 * Material lies to the left of the travel direction (outer contours CCW, holes CW), so a right
 * turn is a concave corner.
 */
export function chooseSeam(points: Float64Array, ctx: SeamContext): number {
  const n = (points.length >> 1) - 1;
  if (n < 3) return 0;
  if (ctx.mode === 'random') return hash(ctx.layer, n, points[0]) % n;
  // The point seams are drawn to: x NaN for `back`, which looks at the rear only.
  let tx: number;
  let ty: number;
  switch (ctx.mode) {
    case 'nearest':
      tx = ctx.x;
      ty = ctx.y;
      break;
    case 'aligned':
      tx = ctx.previous ? ctx.previous[0] : ctx.x;
      ty = ctx.previous ? ctx.previous[1] : ctx.rearY;
      break;
    default:
      tx = NaN;
      ty = ctx.rearY;
  }
  let best = 0;
  let bestScore = -Infinity;
  for (let i = 0; i < n; i++) {
    const cx = points[i * 2];
    const cy = points[i * 2 + 1];
    const distance = Number.isNaN(tx) ? ty - cy : length2(cx - tx, cy - ty);
    // A vertex that even the sharpest concave corner would not lift above the best so far is not
    // weighed (its score is at most MAX_CORNER − distance): the corner's atan2 was most of the time.
    if (MAX_CORNER - distance <= bestScore) continue;
    const px = points[((i + n - 1) % n) * 2];
    const py = points[((i + n - 1) % n) * 2 + 1];
    const nx = points[((i + 1) % n) * 2];
    const ny = points[((i + 1) % n) * 2 + 1];
    const ax = cx - px;
    const ay = cy - py;
    const bx = nx - cx;
    const by = ny - cy;
    const la = length2(ax, ay);
    const lb = length2(bx, by);
    let corner = 0;
    if (la > 1e-9 && lb > 1e-9) {
      const cross = (ax * by - ay * bx) / (la * lb);
      const dot = (ax * bx + ay * by) / (la * lb);
      const turn = Math.atan2(Math.abs(cross), dot) / (Math.PI / 2);
      corner = Math.min(turn, 1.5) * (cross < 0 ? CONCAVE_WEIGHT : CONVEX_WEIGHT);
    }
    const score = corner - distance;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/**
 * Writes the loop restarted at point `start` into `out` (at least as long; still closed: first
 * point repeated at the end). The writer reuses `out` for every loop: a new array per loop, and
 * another from `trimEndInPlace`'s copy, were garbage for each wall.
 */
export function startLoopInto(points: Float64Array, start: number, out: Float64Array): void {
  if (start === 0) {
    out.set(points);
    return;
  }
  const n = (points.length >> 1) - 1;
  out.set(points.subarray(start * 2, n * 2), 0);
  out.set(points.subarray(0, start * 2), (n - start) * 2);
  out[n * 2] = out[0];
  out[n * 2 + 1] = out[1];
}

/**
 * Shortens the path held in the first `length` numbers of `points` by `gap` mm at its end, so a
 * loop does not overlap its own start (a blob); in place, answering the path's new length (at
 * least one segment is kept).
 */
export function trimEndInPlace(points: Float64Array, length: number, gap: number): number {
  let remaining = gap;
  let end = length;
  while (end >= 4 && remaining > 0) {
    const x0 = points[end - 4];
    const y0 = points[end - 3];
    const x1 = points[end - 2];
    const y1 = points[end - 1];
    const len = length2(x1 - x0, y1 - y0);
    if (len > remaining) {
      const k = (len - remaining) / len;
      points[end - 2] = x0 + (x1 - x0) * k;
      points[end - 1] = y0 + (y1 - y0) * k;
      return end;
    }
    remaining -= len;
    end -= 2;
  }
  return Math.max(end, 4);
}

function hash(layer: number, n: number, salt: number): number {
  let h = Math.imul(layer + 1, 0x9e3779b1) ^ Math.imul(n, 0x85ebca6b) ^ Math.floor(salt * 1000);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
