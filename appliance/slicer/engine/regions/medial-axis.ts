/**
 * Centrelines of narrow regions with the region's thickness at every point (its medial axis), for
 * walls and gap fill whose width follows the part.
 *
 * Shrinking-ball method: the boundary is sampled every `step`; at each sample the largest disc
 * that touches the boundary there and holds no other boundary point has its centre on the medial
 * axis and its diameter is the local thickness. A disc that touches the boundary again at a point
 * roughly opposite lies on the axis of a strip; one that touches at an angle (a corner of the
 * region, a rounded end) is on a branch towards a corner and is left out, the pruning PrusaSlicer's
 * medial axis and Arachne's skeleton both do, so a strip's line stops half its thickness short of
 * its ends and its round end covers the rest. Every axis point is found from both sides of a strip:
 * the first walk along the boundary keeps it, later walks that land on kept points are dropped.
 */
import type { ExPolygon, Polygon } from '../geometry/types.js';
import { length2, signedArea } from '../geometry/polygon.js';
import { PointGrid } from './point-grid.js';

export interface MedialPath {
  /** x,y pairs along the axis. */
  points: number[];
  /** Thickness of the region at each point (the disc's diameter). */
  thickness: number[];
}

export interface MedialOptions {
  /** Boundary sampling distance (mm). */
  step: number;
  /** Thickest region to follow: discs wider than this are not on a narrow part's axis. */
  maxThickness: number;
  /** Thinner parts are left out (mm). */
  minThickness: number;
}

/** Cosine limit: a disc is on a strip's axis when its two contacts are more than 120° apart. */
const OPPOSITE_COS = 0.5;

interface Samples {
  count: number;
  x: Float64Array;
  y: Float64Array;
  nx: Float64Array;
  ny: Float64Array;
  /** Ring of each sample and its position along the ring. */
  ring: Int32Array;
  seq: Int32Array;
  /** Sample count of each ring. */
  ringSize: number[];
  /** The sampling distance (mm). */
  step: number;
}

/**
 * Typed arrays kept from one call to the next and grown as needed: the axis is found for every
 * narrow piece of every island (hundreds to thousands per slice), and arrays made per call are as
 * many allocations for the collector.
 */
const scratch = { f64: [] as Float64Array[], i32: [] as Int32Array[] };

/** Scratch array `slot` with room for `length` values (its contents are whatever the last call left). */
function f64(slot: number, length: number): Float64Array {
  const have = scratch.f64[slot];
  if (have && have.length >= length) return have;
  const grown = new Float64Array(Math.max(length, 2 * (have?.length ?? 256)));
  scratch.f64[slot] = grown;
  return grown;
}

function i32(slot: number, length: number): Int32Array {
  const have = scratch.i32[slot];
  if (have && have.length >= length) return have;
  const grown = new Int32Array(Math.max(length, 2 * (have?.length ?? 256)));
  scratch.i32[slot] = grown;
  return grown;
}

/**
 * Samples at the middle of every `step`-long piece of each ring, with the normal into the region.
 * The rings are walked in plain loops, not through a callback per edge: a callback's closure and
 * the numbers handed to it are garbage on every call (the axis is found for thousands of pieces).
 */
function sampleBoundary(region: readonly ExPolygon[], step: number): Samples {
  let count = 0;
  for (const ex of region) {
    count += ringSamples(ex.contour, step);
    for (const hole of ex.holes) count += ringSamples(hole, step);
  }
  const s: Samples = {
    count,
    x: f64(0, count),
    y: f64(1, count),
    nx: f64(2, count),
    ny: f64(3, count),
    ring: i32(0, count),
    seq: i32(1, count),
    ringSize: [],
    step,
  };
  let i = 0;
  for (const ex of region) {
    i = sampleRing(s, ex.contour, signedArea(ex.contour) > 0 ? 1 : -1, step, i);
    for (const hole of ex.holes) i = sampleRing(s, hole, signedArea(hole) < 0 ? 1 : -1, step, i);
  }
  return s;
}

/** The number of samples `sampleRing` takes on a closed polygon (one per `step` of each edge longer than a nanometre). */
function ringSamples(poly: Polygon, step: number): number {
  const n = poly.length >> 1;
  if (n < 3) return 0;
  let count = 0;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    const len = length2(poly[j * 2] - poly[k * 2], poly[j * 2 + 1] - poly[k * 2 + 1]);
    if (len >= 1e-6) count += Math.ceil(len / step);
  }
  return count;
}

/**
 * Samples one closed polygon into `s` from sample `i` on (`sign` 1 where the region lies to the left
 * of its direction) and returns the next free sample.
 */
function sampleRing(s: Samples, poly: Polygon, sign: number, step: number, i: number): number {
  const first = i;
  const ring = s.ringSize.length;
  const n = poly.length >> 1;
  for (let k = 0; n >= 3 && k < n; k++) {
    const ax = poly[k * 2];
    const ay = poly[k * 2 + 1];
    const bx = poly[((k + 1) % n) * 2];
    const by = poly[((k + 1) % n) * 2 + 1];
    const len = length2(bx - ax, by - ay);
    if (len < 1e-6) continue;
    const nx = (-(by - ay) / len) * sign;
    const ny = ((bx - ax) / len) * sign;
    const pieces = Math.ceil(len / step);
    for (let q = 0; q < pieces; q++, i++) {
      const t = (q + 0.5) / pieces;
      s.x[i] = ax + (bx - ax) * t;
      s.y[i] = ay + (by - ay) * t;
      s.nx[i] = nx;
      s.ny[i] = ny;
      s.ring[i] = ring;
      s.seq[i] = i - first;
    }
  }
  s.ringSize.push(i - first);
  return i;
}

/** The grids of the boundary samples and of the axis points kept, reused from call to call. */
const sampleGrid = new PointGrid();
const keptGrid = new PointGrid();

/** The medial axis of `region`'s parts between `minThickness` and `maxThickness`, as paths. */
export function medialAxis(region: readonly ExPolygon[], o: MedialOptions): MedialPath[] {
  const s = sampleBoundary(region, o.step);
  const count = s.count;
  if (count === 0) return [];
  const maxR = o.maxThickness / 2;
  const grid = sampleGrid;
  grid.reset(Math.max(4 * o.step, o.minThickness), count);
  // Added last to first, so each cell lists its points in the order they were sampled.
  for (let i = count - 1; i >= 0; i--) grid.add(i, s.x[i], s.y[i]);

  // The disc at each sample: centre and radius, NaN where it is not on a strip's axis.
  const cx = f64(4, count).fill(Number.NaN, 0, count);
  const cy = f64(5, count);
  const radius = f64(6, count);
  for (let i = 0; i < count; i++) {
    const touch = largestDisc(s, grid, i, maxR);
    const best = discRadius[0];
    if (touch < 0 || best > maxR || 2 * best < o.minThickness) continue;
    const ox = s.x[i] + s.nx[i] * best;
    const oy = s.y[i] + s.ny[i] * best;
    if ((s.nx[i] * (s.x[touch] - ox) + s.ny[i] * (s.y[touch] - oy)) / best < OPPOSITE_COS) continue;
    cx[i] = ox;
    cy[i] = oy;
    radius[i] = best;
  }
  return chain(s, cx, cy, radius, o.step);
}

/**
 * The radius of the disc `largestDisc` found last: a number returned from a call that is not
 * inlined is a new heap object, one per boundary sample (7.5 of rigid3d's 194 MB of garbage).
 */
const discRadius = new Float64Array(1);

/**
 * Slack (mm) of the tests that skip a cell: far above the rounding of the distances they bound, so a
 * cell is skipped only when none of its points could have changed the disc.
 */
const CELL_SLACK = 1e-6;

/**
 * The sample that bounds the largest disc tangent at sample `i` that holds no other sample (-1:
 * none; the disc's radius goes to `discRadius`). A disc of radius r lies within 2r of its tangent point, so the
 * cells are searched in growing square rings until they are that far out (or past `maxR`, the
 * largest disc wanted). A cell is skipped when it lies wholly behind the tangent (none of its
 * samples can bound the disc) or further than the disc found so far could reach: its samples
 * bound only larger discs. The cells looked at and their order are the others, the same as
 * without skipping, so the disc and its bounding sample are the same too.
 */
function largestDisc(s: Samples, grid: PointGrid, i: number, maxR: number): number {
  const px = s.x[i];
  const py = s.y[i];
  const nx = s.nx[i];
  const ny = s.ny[i];
  const xs = s.x;
  const ys = s.y;
  const size = grid.size;
  const gx = Math.floor(px / size);
  const gy = Math.floor(py / size);
  let best = Number.POSITIVE_INFINITY;
  let touch = -1;
  const next = grid.next;
  for (let ring = 0; (ring - 1) * size < 2 * Math.min(best, maxR); ring++) {
    for (let a = gx - ring; a <= gx + ring; a++) {
      // The ring's cells in rows and columns: whole columns at its sides, top and bottom cells between.
      const bStep = a === gx - ring || a === gx + ring ? 1 : 2 * ring;
      const x0 = a * size - px;
      const x1 = x0 + size;
      // The distance along x from the sample to the cell (0 where the cell spans its x), then along y.
      let dx = 0;
      if (x0 > 0) dx = x0;
      else if (x1 < 0) dx = -x1;
      for (let b = gy - ring; b <= gy + ring; b += bStep) {
        const y0 = b * size - py;
        const y1 = y0 + size;
        if ((nx > 0 ? nx * x1 : nx * x0) + (ny > 0 ? ny * y1 : ny * y0) < -CELL_SLACK) continue;
        let dy = 0;
        if (y0 > 0) dy = y0;
        else if (y1 < 0) dy = -y1;
        const reach = 2 * Math.min(best, maxR) + CELL_SLACK;
        if (dx * dx + dy * dy > reach * reach) continue;
        for (let j = grid.first(a, b); j >= 0; j = next[j]) {
          const ex = xs[j] - px;
          const ey = ys[j] - py;
          const ahead = nx * ex + ny * ey;
          if (ahead <= 1e-9) continue;
          const r = (ex * ex + ey * ey) / (2 * ahead);
          if (r < best) {
            best = r;
            touch = j;
          }
        }
      }
    }
  }
  discRadius[0] = best;
  return touch;
}

/**
 * Axis points in boundary order, each kept once, joined into paths: a path breaks where the walk
 * meets a point that is not on the axis or already kept, and paths whose ends meet are joined.
 */
function chain(s: Samples, cx: Float64Array, cy: Float64Array, radius: Float64Array, step: number): MedialPath[] {
  const count = s.count;
  let maxR = 0;
  for (let i = 0; i < count; i++) if (!Number.isNaN(cx[i])) maxR = Math.max(maxR, radius[i]);
  if (maxR === 0) return [];
  const kept = keptGrid;
  kept.reset(Math.max(maxR, 2 * step), count);
  const paths: MedialPath[] = [];
  let current: MedialPath | null = null;
  let lastX = 0;
  let lastY = 0;
  for (let i = 0; i < count; i++) {
    const newRing = i > 0 && s.ring[i] !== s.ring[i - 1];
    if (newRing || Number.isNaN(cx[i]) || isDuplicate(s, cx, cy, radius, i)) {
      current = null;
      continue;
    }
    if (current && length2(cx[i] - lastX, cy[i] - lastY) > Math.max(2 * radius[i], 4 * step)) current = null;
    if (!current) {
      current = { points: [], thickness: [] };
      paths.push(current);
    }
    current.points.push(cx[i], cy[i]);
    current.thickness.push(2 * radius[i]);
    kept.add(i, cx[i], cy[i]);
    lastX = cx[i];
    lastY = cy[i];
  }
  return joinEnds(paths.filter((p) => p.points.length >= 4 || p.thickness.length === 1));
}

/**
 * Whether axis point `i` lies on a point kept already from another side of its strip: within half
 * its radius (at least 1.5 steps), on another ring or further along its own than its disc could
 * reach. A function of its own, not a closure made per call: a closure's code is shared by all its
 * instances only once optimised, and until then each sample ran it in the interpreter.
 */
function isDuplicate(s: Samples, cx: Float64Array, cy: Float64Array, radius: Float64Array, i: number): boolean {
  const kept = keptGrid;
  const step = s.step;
  const reach = Math.max(0.5 * radius[i], 1.5 * step);
  const gx = Math.floor(cx[i] / kept.size);
  const gy = Math.floor(cy[i] / kept.size);
  for (let a = gx - 1; a <= gx + 1; a++) {
    for (let b = gy - 1; b <= gy + 1; b++) {
      for (let j = kept.first(a, b); j >= 0; j = kept.next[j]) {
        const dx = cx[j] - cx[i];
        const dy = cy[j] - cy[i];
        // The distance is at least the larger of dx and dy: most points are rejected without it.
        if (Math.abs(dx) > reach || Math.abs(dy) > reach || length2(dx, dy) > reach) continue;
        if (s.ring[j] !== s.ring[i]) return true;
        const size = s.ringSize[s.ring[i]];
        const apart = Math.abs(s.seq[j] - s.seq[i]);
        const window = Math.ceil((3 * Math.max(radius[i], radius[j])) / step) + 4;
        if (Math.min(apart, size - apart) > window) return true;
      }
    }
  }
  return false;
}

/**
 * Joins paths whose ends lie within their thickness of each other (both sides of a corner, a ring's
 * start and end), whichever ends meet: the walk along the boundary may find the two sides of a
 * corner in either direction, and two lines that both stop at a corner leave it open.
 */
function joinEnds(paths: MedialPath[]): MedialPath[] {
  const out = paths.slice();
  let joined = true;
  while (joined) {
    joined = false;
    for (let a = 0; a < out.length && !joined; a++) {
      for (let b = 0; b < out.length && !joined; b++) {
        if (a === b) continue;
        const way = joinWay(out[a], out[b]);
        if (way < 0) continue;
        const first = way === REVERSED_FIRST ? reversedPath(out[a]) : out[a];
        const second = way === REVERSED_SECOND ? reversedPath(out[b]) : out[b];
        out[a] = { points: first.points.concat(second.points), thickness: first.thickness.concat(second.thickness) };
        out.splice(b, 1);
        joined = true;
      }
    }
  }
  return out;
}

/** The ways two paths join, tried in this order: a then b, a then b reversed, a reversed then b. */
const IN_ORDER = 0;
const REVERSED_SECOND = 1;
const REVERSED_FIRST = 2;

/**
 * How `a` and `b` join (-1: they do not): the first way whose end of the first path lies within
 * half the larger of the two ends' thicknesses of the start of the second. Read from the paths'
 * ends, without reversing either: every pair of a piece's paths is tried, and joins are few.
 */
function joinWay(a: MedialPath, b: MedialPath): number {
  const ap = a.points;
  const bp = b.points;
  const n = ap.length;
  const m = bp.length;
  const aStart = a.thickness[0];
  const aEnd = a.thickness[a.thickness.length - 1];
  const bStart = b.thickness[0];
  const bEnd = b.thickness[b.thickness.length - 1];
  if (!(length2(bp[0] - ap[n - 2], bp[1] - ap[n - 1]) > Math.max(aEnd, bStart) / 2)) return IN_ORDER;
  if (!(length2(bp[m - 2] - ap[n - 2], bp[m - 1] - ap[n - 1]) > Math.max(aEnd, bEnd) / 2)) return REVERSED_SECOND;
  if (!(length2(bp[0] - ap[0], bp[1] - ap[1]) > Math.max(aStart, bStart) / 2)) return REVERSED_FIRST;
  return -1;
}

/** A path walked the other way. */
function reversedPath(path: MedialPath): MedialPath {
  const points: number[] = [];
  for (let k = path.points.length - 2; k >= 0; k -= 2) points.push(path.points[k], path.points[k + 1]);
  return { points, thickness: path.thickness.slice().reverse() };
}
