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
import { signedArea } from '../geometry/polygon.js';

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
}

/** Samples at the middle of every `step`-long piece of each ring, with the normal into the region. */
function sampleBoundary(region: readonly ExPolygon[], step: number): Samples {
  const rings: { poly: Polygon; sign: number }[] = [];
  for (const ex of region) {
    rings.push({ poly: ex.contour, sign: signedArea(ex.contour) > 0 ? 1 : -1 });
    for (const hole of ex.holes) rings.push({ poly: hole, sign: signedArea(hole) < 0 ? 1 : -1 });
  }
  let count = 0;
  for (const { poly } of rings) forEachEdge(poly, (_ax, _ay, _bx, _by, len) => (count += Math.ceil(len / step)));
  const s: Samples = {
    count,
    x: new Float64Array(count),
    y: new Float64Array(count),
    nx: new Float64Array(count),
    ny: new Float64Array(count),
    ring: new Int32Array(count),
    seq: new Int32Array(count),
    ringSize: [],
  };
  let i = 0;
  for (const { poly, sign } of rings) {
    const first = i;
    const ring = s.ringSize.length;
    forEachEdge(poly, (ax, ay, bx, by, len) => {
      const nx = (-(by - ay) / len) * sign;
      const ny = ((bx - ax) / len) * sign;
      const pieces = Math.ceil(len / step);
      for (let k = 0; k < pieces; k++, i++) {
        const t = (k + 0.5) / pieces;
        s.x[i] = ax + (bx - ax) * t;
        s.y[i] = ay + (by - ay) * t;
        s.nx[i] = nx;
        s.ny[i] = ny;
        s.ring[i] = ring;
        s.seq[i] = i - first;
      }
    });
    s.ringSize.push(i - first);
  }
  return s;
}

/** Calls `visit` for every edge of a closed polygon longer than a nanometre. */
function forEachEdge(poly: Polygon, visit: (ax: number, ay: number, bx: number, by: number, len: number) => void): void {
  const n = poly.length >> 1;
  if (n < 3) return;
  for (let k = 0; k < n; k++) {
    const ax = poly[k * 2];
    const ay = poly[k * 2 + 1];
    const bx = poly[((k + 1) % n) * 2];
    const by = poly[((k + 1) % n) * 2 + 1];
    const len = Math.hypot(bx - ax, by - ay);
    if (len >= 1e-6) visit(ax, ay, bx, by, len);
  }
}

/**
 * Points in square cells, for neighbour queries: an open-addressing table of the occupied cells
 * (typed arrays, integer keys) with a linked list of point ids per cell. A `Map` keyed by a cell
 * number past 2^31 hashed a heap number on every look-up: the look-ups were a fifth of the axis's
 * time on the rigid3d platform.
 */
class PointGrid {
  private readonly mask: number;
  /** 32 less the table's bits: a slot is the top bits of the cell's hash, which mix both coordinates. */
  private readonly shift: number;
  private readonly cellX: Int32Array;
  private readonly cellY: Int32Array;
  private readonly head: Int32Array;
  /** The id after each id in its cell's list, -1 at the end. */
  readonly next: Int32Array;

  /** A grid of cells `size` wide for at most `capacity` points with ids below `capacity`. */
  constructor(
    readonly size: number,
    capacity: number,
  ) {
    let bits = 4;
    while (1 << bits < 2 * capacity) bits++;
    const slots = 1 << bits;
    this.mask = slots - 1;
    this.shift = 32 - bits;
    this.cellX = new Int32Array(slots);
    this.cellY = new Int32Array(slots);
    this.head = new Int32Array(slots).fill(-1);
    this.next = new Int32Array(capacity);
  }

  /** The table slot of cell (cx, cy): its own, or the empty one where it would go. */
  private slot(cx: number, cy: number): number {
    let at = Math.imul(Math.imul(cx, 0x9e3779b1) ^ cy, 0x85ebca77) >>> this.shift;
    while (this.head[at] >= 0 && (this.cellX[at] !== cx || this.cellY[at] !== cy)) at = (at + 1) & this.mask;
    return at;
  }

  /** Puts point `id` first in its cell's list. */
  add(id: number, x: number, y: number): void {
    const cx = Math.floor(x / this.size);
    const cy = Math.floor(y / this.size);
    const at = this.slot(cx, cy);
    if (this.head[at] < 0) {
      this.cellX[at] = cx;
      this.cellY[at] = cy;
    }
    this.next[id] = this.head[at];
    this.head[at] = id;
  }

  /** The first point id in cell (cx, cy), -1 when it holds none; the rest follow through `next`. */
  first(cx: number, cy: number): number {
    return this.head[this.slot(cx, cy)];
  }
}

/** The medial axis of `region`'s parts between `minThickness` and `maxThickness`, as paths. */
export function medialAxis(region: readonly ExPolygon[], o: MedialOptions): MedialPath[] {
  const s = sampleBoundary(region, o.step);
  const count = s.count;
  if (count === 0) return [];
  const maxR = o.maxThickness / 2;
  const grid = new PointGrid(Math.max(4 * o.step, o.minThickness), count);
  // Added last to first, so each cell lists its points in the order they were sampled.
  for (let i = count - 1; i >= 0; i--) grid.add(i, s.x[i], s.y[i]);

  // The disc at each sample: centre and radius, NaN where it is not on a strip's axis.
  const cx = new Float64Array(count).fill(Number.NaN);
  const cy = new Float64Array(count);
  const radius = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const best = largestDisc(s, grid, i, maxR);
    const touch = disc.touch;
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

/** The sample that bounds the disc `largestDisc` found last (-1: none), kept here instead of in a pair per sample. */
const disc = { touch: -1 };

/**
 * The radius of the largest disc tangent at sample `i` that holds no other sample (the sample that
 * bounds it goes to `disc.touch`). A disc of radius r lies within 2r of its tangent point, so the
 * cells are searched in growing square rings until they are that far out (or past `maxR`, the
 * largest disc wanted).
 */
function largestDisc(s: Samples, grid: PointGrid, i: number, maxR: number): number {
  const px = s.x[i];
  const py = s.y[i];
  const nx = s.nx[i];
  const ny = s.ny[i];
  const size = grid.size;
  const gx = Math.floor(px / size);
  const gy = Math.floor(py / size);
  let best = Number.POSITIVE_INFINITY;
  let touch = -1;
  const next = grid.next;
  for (let ring = 0; (ring - 1) * size < 2 * Math.min(best, maxR); ring++) {
    for (let a = gx - ring; a <= gx + ring; a++) {
      for (let b = gy - ring; b <= gy + ring; b++) {
        if (a !== gx - ring && a !== gx + ring && b !== gy - ring && b !== gy + ring) continue;
        for (let j = grid.first(a, b); j >= 0; j = next[j]) {
          const dx = s.x[j] - px;
          const dy = s.y[j] - py;
          const ahead = nx * dx + ny * dy;
          if (ahead <= 1e-9) continue;
          const r = (dx * dx + dy * dy) / (2 * ahead);
          if (r < best) {
            best = r;
            touch = j;
          }
        }
      }
    }
  }
  disc.touch = touch;
  return best;
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
  const kept = new PointGrid(Math.max(maxR, 2 * step), count);
  const paths: MedialPath[] = [];
  let current: MedialPath | null = null;
  let lastX = 0;
  let lastY = 0;
  const isDuplicate = (i: number): boolean => {
    const reach = Math.max(0.5 * radius[i], 1.5 * step);
    const gx = Math.floor(cx[i] / kept.size);
    const gy = Math.floor(cy[i] / kept.size);
    for (let a = gx - 1; a <= gx + 1; a++) {
      for (let b = gy - 1; b <= gy + 1; b++) {
        for (let j = kept.first(a, b); j >= 0; j = kept.next[j]) {
          if (Math.hypot(cx[j] - cx[i], cy[j] - cy[i]) > reach) continue;
          if (s.ring[j] !== s.ring[i]) return true;
          const size = s.ringSize[s.ring[i]];
          const apart = Math.abs(s.seq[j] - s.seq[i]);
          const window = Math.ceil((3 * Math.max(radius[i], radius[j])) / step) + 4;
          if (Math.min(apart, size - apart) > window) return true;
        }
      }
    }
    return false;
  };
  for (let i = 0; i < count; i++) {
    const newRing = i > 0 && s.ring[i] !== s.ring[i - 1];
    if (newRing || Number.isNaN(cx[i]) || isDuplicate(i)) {
      current = null;
      continue;
    }
    if (current && Math.hypot(cx[i] - lastX, cy[i] - lastY) > Math.max(2 * radius[i], 4 * step)) current = null;
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
        for (const [first, second] of [
          [out[a], out[b]],
          [out[a], reversedPath(out[b])],
          [reversedPath(out[a]), out[b]],
        ]) {
          const n = first.points.length;
          const reach = Math.max(first.thickness[first.thickness.length - 1], second.thickness[0]) / 2;
          if (Math.hypot(second.points[0] - first.points[n - 2], second.points[1] - first.points[n - 1]) > reach) continue;
          out[a] = { points: [...first.points, ...second.points], thickness: [...first.thickness, ...second.thickness] };
          out.splice(b, 1);
          joined = true;
          break;
        }
      }
    }
  }
  return out;
}

/** A path walked the other way. */
function reversedPath(path: MedialPath): MedialPath {
  const points: number[] = [];
  for (let k = path.points.length - 2; k >= 0; k -= 2) points.push(path.points[k], path.points[k + 1]);
  return { points, thickness: path.thickness.slice().reverse() };
}
