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
  x: number[];
  y: number[];
  nx: number[];
  ny: number[];
  /** Ring of each sample and its position along the ring. */
  ring: number[];
  seq: number[];
  /** Sample count of each ring. */
  ringSize: number[];
}

/** Samples at the middle of every `step`-long piece of each ring, with the normal into the region. */
function sampleBoundary(region: readonly ExPolygon[], step: number): Samples {
  const s: Samples = { x: [], y: [], nx: [], ny: [], ring: [], seq: [], ringSize: [] };
  const add = (poly: Polygon, materialLeft: boolean) => {
    const n = poly.length >> 1;
    if (n < 3) return;
    const ring = s.ringSize.length;
    let seq = 0;
    for (let k = 0; k < n; k++) {
      const ax = poly[k * 2];
      const ay = poly[k * 2 + 1];
      const bx = poly[((k + 1) % n) * 2];
      const by = poly[((k + 1) % n) * 2 + 1];
      const len = Math.hypot(bx - ax, by - ay);
      if (len < 1e-9) continue;
      const sign = materialLeft ? 1 : -1;
      const nx = (-(by - ay) / len) * sign;
      const ny = ((bx - ax) / len) * sign;
      const pieces = Math.ceil(len / step);
      for (let i = 0; i < pieces; i++) {
        const t = (i + 0.5) / pieces;
        s.x.push(ax + (bx - ax) * t);
        s.y.push(ay + (by - ay) * t);
        s.nx.push(nx);
        s.ny.push(ny);
        s.ring.push(ring);
        s.seq.push(seq++);
      }
    }
    s.ringSize.push(seq);
  };
  for (const ex of region) {
    add(ex.contour, signedArea(ex.contour) > 0);
    for (const hole of ex.holes) add(hole, signedArea(hole) < 0);
  }
  return s;
}

/** Points in square cells, for neighbour queries within one cell's size. */
class PointGrid {
  private readonly cells = new Map<number, number[]>();
  constructor(private readonly size: number) {}
  private key(cx: number, cy: number): number {
    return (cx + 32768) * 65536 + (cy + 32768);
  }
  add(id: number, x: number, y: number): void {
    const k = this.key(Math.floor(x / this.size), Math.floor(y / this.size));
    const list = this.cells.get(k);
    if (list) list.push(id);
    else this.cells.set(k, [id]);
  }
  /** Calls `visit` with every point in the 3 × 3 cells around (x, y). */
  near(x: number, y: number, visit: (id: number) => void): void {
    const cx = Math.floor(x / this.size);
    const cy = Math.floor(y / this.size);
    for (let i = cx - 1; i <= cx + 1; i++) {
      for (let j = cy - 1; j <= cy + 1; j++) {
        const list = this.cells.get(this.key(i, j));
        if (list) for (const id of list) visit(id);
      }
    }
  }
}

/** The medial axis of `region`'s parts between `minThickness` and `maxThickness`, as paths. */
export function medialAxis(region: readonly ExPolygon[], o: MedialOptions): MedialPath[] {
  const s = sampleBoundary(region, o.step);
  const count = s.x.length;
  if (count === 0) return [];
  const maxR = o.maxThickness / 2;
  const grid = new PointGrid(2 * maxR);
  for (let i = 0; i < count; i++) grid.add(i, s.x[i], s.y[i]);

  // The disc at each sample: centre and radius, NaN where it is not on a strip's axis.
  const cx = new Float64Array(count).fill(Number.NaN);
  const cy = new Float64Array(count);
  const radius = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const px = s.x[i];
    const py = s.y[i];
    const nx = s.nx[i];
    const ny = s.ny[i];
    let best = Number.POSITIVE_INFINITY;
    let touch = -1;
    grid.near(px, py, (j) => {
      const dx = s.x[j] - px;
      const dy = s.y[j] - py;
      const ahead = nx * dx + ny * dy;
      if (ahead <= 1e-9) return;
      const r = (dx * dx + dy * dy) / (2 * ahead);
      if (r < best) {
        best = r;
        touch = j;
      }
    });
    if (touch < 0 || best > maxR || 2 * best < o.minThickness) continue;
    const ox = px + nx * best;
    const oy = py + ny * best;
    if ((nx * (s.x[touch] - ox) + ny * (s.y[touch] - oy)) / best < OPPOSITE_COS) continue;
    cx[i] = ox;
    cy[i] = oy;
    radius[i] = best;
  }
  return chain(s, cx, cy, radius, o.step);
}

/**
 * Axis points in boundary order, each kept once, joined into paths: a path breaks where the walk
 * meets a point that is not on the axis or already kept, and paths whose ends meet are joined.
 */
function chain(s: Samples, cx: Float64Array, cy: Float64Array, radius: Float64Array, step: number): MedialPath[] {
  const count = s.x.length;
  let maxR = 0;
  for (let i = 0; i < count; i++) if (!Number.isNaN(cx[i])) maxR = Math.max(maxR, radius[i]);
  if (maxR === 0) return [];
  const kept = new PointGrid(Math.max(maxR, 2 * step));
  const paths: MedialPath[] = [];
  let current: MedialPath | null = null;
  let lastX = 0;
  let lastY = 0;
  const isDuplicate = (i: number): boolean => {
    const reach = Math.max(0.5 * radius[i], 1.5 * step);
    let dup = false;
    kept.near(cx[i], cy[i], (j) => {
      if (dup || Math.hypot(cx[j] - cx[i], cy[j] - cy[i]) > reach) return;
      if (s.ring[j] !== s.ring[i]) {
        dup = true;
        return;
      }
      const size = s.ringSize[s.ring[i]];
      const apart = Math.abs(s.seq[j] - s.seq[i]);
      const window = Math.ceil((3 * Math.max(radius[i], radius[j])) / step) + 4;
      if (Math.min(apart, size - apart) > window) dup = true;
    });
    return dup;
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

/** Joins paths whose ends lie within their thickness of each other (both sides of a corner, a ring's start and end). */
function joinEnds(paths: MedialPath[]): MedialPath[] {
  const out = paths.slice();
  let joined = true;
  while (joined) {
    joined = false;
    for (let a = 0; a < out.length && !joined; a++) {
      for (let b = 0; b < out.length && !joined; b++) {
        const pa = out[a];
        const pb = out[b];
        const na = pa.points.length;
        const reach = Math.max(pa.thickness[pa.thickness.length - 1], pb.thickness[0]) / 2;
        const gap = Math.hypot(pb.points[0] - pa.points[na - 2], pb.points[1] - pa.points[na - 1]);
        if (gap > reach) continue;
        if (a === b) continue;
        out[a] = { points: [...pa.points, ...pb.points], thickness: [...pa.thickness, ...pb.thickness] };
        out.splice(b, 1);
        joined = true;
      }
    }
  }
  return out;
}
