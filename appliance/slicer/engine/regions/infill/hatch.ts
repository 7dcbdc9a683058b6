/**
 * Parallel straight fill lines clipped to one island by a scanline sweep. The clipping is done
 * here rather than by Clipper because every line end must be known as a position along the
 * boundary (to link ends later), and a sweep over the edges finds exactly that in linear time.
 */
import type { Boundary } from './boundary.js';
import type { PieceSink } from './pieces.js';
import { INSERTION_SORT_MAX, sortIndicesByKey } from './stable-sort.js';

/**
 * Where the rows (lines) go, in the frame rotated so that the lines run along +X.
 * `grid`: row k at y = k * step from the origin, so separate islands and layers line up.
 * `fit`: the step is adjusted so a whole number of steps spans the island, first and last rows
 * on its extremes (for solid fills, which must not leave a sliver).
 */
export interface RowPlacement {
  kind: 'grid' | 'fit';
  step: number;
}

/** Extreme rows sit this far inside the island so they do not run exactly along an edge. */
const FIT_INSET = 1e-3;
/** Pieces shorter than this (mm) are crossings at a vertex, not lines. */
const MIN_PIECE = 1e-6;

/*
 * The sweep's working arrays, kept from call to call and grown when a call needs more: hatch runs
 * for every fill area and some thirty times per bridge (to score its directions), and its dozen
 * typed arrays a call, each a buffer outside the heap, were a steady share of the garbage. The
 * loops read them up to the counts of the call, never by their length; the pieces get arrays of
 * their own, and hatch never calls itself.
 */
const scratch = {
  fx: new Float64Array(64),
  fy: new Float64Array(64),
  next: new Int32Array(64),
  vRing: new Int32Array(64),
  ringStart: new Int32Array(8),
  firstRow: new Int32Array(64),
  lastRow: new Int32Array(64),
  start: new Int32Array(64),
  fillPos: new Int32Array(64),
  xs: new Float64Array(64),
  ts: new Float64Array(64),
  edge: new Int32Array(64),
  order: new Int32Array(64),
  sortedX: new Float64Array(64),
  sortedT: new Float64Array(64),
  sortedEdge: new Int32Array(64),
};
type ScratchName = keyof typeof scratch;
/** The two ends of the piece being reported (x, y each). */
const ends = new Float64Array(4);

/** Scratch array `name` with room for at least `n` entries (its contents are left as they were). */
function room<K extends ScratchName>(name: K, n: number): (typeof scratch)[K] {
  const a = scratch[name];
  if (a.length >= n) return a;
  const size = Math.max(n, 2 * a.length);
  const grown = (a instanceof Float64Array ? new Float64Array(size) : new Int32Array(size)) as (typeof scratch)[K];
  scratch[name] = grown;
  return grown;
}

/*
 * The rows placeRows chose, in arrays rather than an object: row k at origin + k × step, k from
 * kMin to kMax. Its origin is 0 on the grid and a fraction when fitted, and objects whose number
 * field holds both kinds change shape, which kept the optimised hatch from being made again after
 * a deoptimisation (it ran unoptimised, boxing every number it computed, for the rest of a slice).
 */
const rowFrame = new Float64Array(2);
const rowRange = new Int32Array(2);

/** Adds to `out` the pieces of the lines at `angle` (radians) that lie inside the island. */
export function hatch(boundary: Boundary, angle: number, placement: RowPlacement, family: number, out: PieceSink): void {
  const rings = boundary.rings;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  let total = 0;
  for (const ring of rings) total += ring.length >> 1;
  const fx = room('fx', total);
  const fy = room('fy', total);
  const next = room('next', total);
  const vRing = room('vRing', total);
  const ringStart = room('ringStart', rings.length);
  let minY = Infinity;
  let maxY = -Infinity;
  let v = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r];
    const n = ring.length >> 1;
    ringStart[r] = v;
    for (let i = 0; i < n; i++, v++) {
      const x = ring[i * 2];
      const y = ring[i * 2 + 1];
      fx[v] = x * c + y * s;
      const yr = y * c - x * s;
      fy[v] = yr;
      if (yr < minY) minY = yr;
      if (yr > maxY) maxY = yr;
      next[v] = i + 1 < n ? v + 1 : ringStart[r];
      vRing[v] = r;
    }
  }
  if (!placeRows(placement, minY, maxY)) return;
  const origin = rowFrame[0];
  const step = rowFrame[1];
  const kMin = rowRange[0];
  const kMax = rowRange[1];
  const rowCount = kMax - kMin + 1;

  // Each edge crosses the rows in the half-open span [its lower y, its upper y), so a vertex lying
  // exactly on a row is counted once per ring pass and every row gets an even number of crossings.
  const firstRow = room('firstRow', total);
  const lastRow = room('lastRow', total);
  const start = room('start', rowCount + 1);
  start.fill(0, 0, rowCount + 1);
  for (let e = 0; e < total; e++) {
    const y1 = fy[e];
    const y2 = fy[next[e]];
    if (y1 === y2) {
      firstRow[e] = 1;
      lastRow[e] = 0;
      continue;
    }
    const lo = y1 < y2 ? y1 : y2;
    const hi = y1 < y2 ? y2 : y1;
    let a = Math.ceil((lo - origin) / step);
    while (origin + (a - 1) * step >= lo) a--;
    while (origin + a * step < lo) a++;
    let b = Math.ceil((hi - origin) / step) - 1;
    while (origin + (b + 1) * step < hi) b++;
    while (origin + b * step >= hi) b--;
    if (a < kMin) a = kMin;
    if (b > kMax) b = kMax;
    firstRow[e] = a;
    lastRow[e] = b;
    if (a <= b) {
      start[a - kMin]++;
      start[b - kMin + 1]--;
    }
  }
  // `start` held a difference array of crossing counts per row; turn it into row offsets.
  let running = 0;
  let offset = 0;
  for (let k = 0; k < rowCount; k++) {
    running += start[k];
    start[k] = offset;
    offset += running;
  }
  start[rowCount] = offset;
  // Every piece takes two crossings.
  out.reserve?.(offset >> 1);

  const xs = room('xs', offset);
  const ts = room('ts', offset);
  const edge = room('edge', offset);
  const fillPos = room('fillPos', rowCount);
  for (let k = 0; k < rowCount; k++) fillPos[k] = start[k];
  for (let e = 0; e < total; e++) {
    const y1 = fy[e];
    const dy = fy[next[e]] - y1;
    const x1 = fx[e];
    const dx = fx[next[e]] - x1;
    for (let k = firstRow[e]; k <= lastRow[e]; k++) {
      const t = (origin + k * step - y1) / dy;
      const p = fillPos[k - kMin]++;
      xs[p] = x1 + t * dx;
      ts[p] = t;
      edge[p] = e;
    }
  }

  for (let k = 0; k < rowCount; k++) {
    const a = start[k];
    const b = start[k + 1];
    if (b - a < 2) continue;
    sortRow(xs, ts, edge, a, b);
    for (let p = a; p + 1 < b; p += 2) {
      if (xs[p + 1] - xs[p] < MIN_PIECE) continue;
      const ra = endPoint(rings, ringStart, vRing, edge, ts, p, 0);
      const rb = endPoint(rings, ringStart, vRing, edge, ts, p + 1, 2);
      const arcA = boundary.arcOn(ra, edge[p] - ringStart[ra], ts[p]);
      const arcB = boundary.arcOn(rb, edge[p + 1] - ringStart[rb], ts[p + 1]);
      out.piece(ends[0], ends[1], ends[2], ends[3], ra, arcA, rb, arcB, family, k + kMin, xs[p], xs[p + 1]);
    }
  }
}

/** Places the rows in rowFrame and rowRange; false when there are none. */
function placeRows(placement: RowPlacement, minY: number, maxY: number): boolean {
  if (!(maxY >= minY)) return false;
  const step = placement.step;
  if (placement.kind === 'fit') {
    const extent = maxY - minY;
    const n = Math.round(extent / step);
    if (n < 1) return setRows((minY + maxY) / 2, 1, 0, 0);
    const inset = Math.min(FIT_INSET, extent / 4);
    return setRows(minY + inset, (extent - 2 * inset) / n, 0, n);
  }
  let kMin = Math.ceil(minY / step) - 1;
  while (kMin * step < minY) kMin++;
  let kMax = Math.floor(maxY / step) + 1;
  while (kMax * step > maxY) kMax--;
  return kMax >= kMin && setRows(0, step, kMin, kMax);
}

function setRows(origin: number, step: number, kMin: number, kMax: number): true {
  rowFrame[0] = origin;
  rowFrame[1] = step;
  rowRange[0] = kMin;
  rowRange[1] = kMax;
  return true;
}

/**
 * Writes the world position of crossing `p` into ends[o], ends[o+1]; returns its ring. It takes the
 * crossing's index, not its parameter: a number passed to a call that is not inlined is boxed.
 */
function endPoint(
  rings: readonly Float64Array[],
  ringStart: Int32Array,
  vRing: Int32Array,
  edge: Int32Array,
  ts: Float64Array,
  p: number,
  o: number,
): number {
  const e = edge[p];
  const t = ts[p];
  const r = vRing[e];
  const ring = rings[r];
  const i = e - ringStart[r];
  const j = (i + 1) * 2 < ring.length ? i + 1 : 0;
  ends[o] = ring[i * 2] + t * (ring[j * 2] - ring[i * 2]);
  ends[o + 1] = ring[i * 2 + 1] + t * (ring[j * 2 + 1] - ring[i * 2 + 1]);
  return r;
}

/** Sorts the crossings [a, b) of one row by x, carrying their parameters and edges along. */
function sortRow(xs: Float64Array, ts: Float64Array, edge: Int32Array, a: number, b: number): void {
  if (b - a <= INSERTION_SORT_MAX) {
    for (let i = a + 1; i < b; i++) {
      const x = xs[i];
      const t = ts[i];
      const e = edge[i];
      let j = i - 1;
      while (j >= a && xs[j] > x) {
        xs[j + 1] = xs[j];
        ts[j + 1] = ts[j];
        edge[j + 1] = edge[j];
        j--;
      }
      xs[j + 1] = x;
      ts[j + 1] = t;
      edge[j + 1] = e;
    }
    return;
  }
  const n = b - a;
  const order = room('order', n);
  for (let i = 0; i < n; i++) order[i] = a + i;
  sortIndicesByKey(order, n, xs);
  const x2 = room('sortedX', n);
  const t2 = room('sortedT', n);
  const e2 = room('sortedEdge', n);
  for (let i = 0; i < n; i++) {
    x2[i] = xs[order[i]];
    t2[i] = ts[order[i]];
    e2[i] = edge[order[i]];
  }
  xs.set(x2.subarray(0, n), a);
  ts.set(t2.subarray(0, n), a);
  edge.set(e2.subarray(0, n), a);
}
