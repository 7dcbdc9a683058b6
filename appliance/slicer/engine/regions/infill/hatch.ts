/**
 * Parallel straight fill lines clipped to one island by a scanline sweep. The clipping is done
 * here rather than by Clipper because every line end must be known as a position along the
 * boundary (to link ends later), and a sweep over the edges finds exactly that in linear time.
 */
import type { Boundary } from './boundary.js';
import type { PiecesBuilder } from './pieces.js';

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
/** Rows with more crossings than this are sorted with the built-in sort instead of insertion sort. */
const INSERTION_SORT_MAX = 32;

interface Rows {
  origin: number;
  step: number;
  kMin: number;
  kMax: number;
}

/** Adds to `out` the pieces of the lines at `angle` (radians) that lie inside the island. */
export function hatch(boundary: Boundary, angle: number, placement: RowPlacement, family: number, out: PiecesBuilder): void {
  const rings = boundary.rings;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  let total = 0;
  for (const ring of rings) total += ring.length >> 1;
  const fx = new Float64Array(total);
  const fy = new Float64Array(total);
  const next = new Int32Array(total);
  const vRing = new Int32Array(total);
  const ringStart = new Int32Array(rings.length);
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
  const rows = placeRows(placement, minY, maxY);
  if (!rows) return;
  const rowCount = rows.kMax - rows.kMin + 1;
  const yOf = (k: number) => rows.origin + k * rows.step;

  // Each edge crosses the rows in the half-open span [its lower y, its upper y), so a vertex lying
  // exactly on a row is counted once per ring pass and every row gets an even number of crossings.
  const firstRow = new Int32Array(total);
  const lastRow = new Int32Array(total);
  const start = new Int32Array(rowCount + 1);
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
    let a = Math.ceil((lo - rows.origin) / rows.step);
    while (yOf(a - 1) >= lo) a--;
    while (yOf(a) < lo) a++;
    let b = Math.ceil((hi - rows.origin) / rows.step) - 1;
    while (yOf(b + 1) < hi) b++;
    while (yOf(b) >= hi) b--;
    if (a < rows.kMin) a = rows.kMin;
    if (b > rows.kMax) b = rows.kMax;
    firstRow[e] = a;
    lastRow[e] = b;
    if (a <= b) {
      start[a - rows.kMin]++;
      start[b - rows.kMin + 1]--;
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

  const xs = new Float64Array(offset);
  const ts = new Float64Array(offset);
  const edge = new Int32Array(offset);
  const fillPos = start.slice(0, rowCount);
  for (let e = 0; e < total; e++) {
    const y1 = fy[e];
    const dy = fy[next[e]] - y1;
    const x1 = fx[e];
    const dx = fx[next[e]] - x1;
    for (let k = firstRow[e]; k <= lastRow[e]; k++) {
      const t = (yOf(k) - y1) / dy;
      const p = fillPos[k - rows.kMin]++;
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
      const path = new Float64Array(4);
      const ra = endPoint(rings, ringStart, vRing, edge[p], ts[p], path, 0);
      const rb = endPoint(rings, ringStart, vRing, edge[p + 1], ts[p + 1], path, 2);
      const arcA = boundary.arcOn(ra, edge[p] - ringStart[ra], ts[p]);
      const arcB = boundary.arcOn(rb, edge[p + 1] - ringStart[rb], ts[p + 1]);
      out.add(path, ra, arcA, rb, arcB, family, k + rows.kMin, xs[p], xs[p + 1]);
    }
  }
}

function placeRows(placement: RowPlacement, minY: number, maxY: number): Rows | null {
  if (!(maxY >= minY)) return null;
  const step = placement.step;
  if (placement.kind === 'fit') {
    const extent = maxY - minY;
    const n = Math.round(extent / step);
    if (n < 1) return { origin: (minY + maxY) / 2, step: 1, kMin: 0, kMax: 0 };
    const inset = Math.min(FIT_INSET, extent / 4);
    return { origin: minY + inset, step: (extent - 2 * inset) / n, kMin: 0, kMax: n };
  }
  let kMin = Math.ceil(minY / step) - 1;
  while (kMin * step < minY) kMin++;
  let kMax = Math.floor(maxY / step) + 1;
  while (kMax * step > maxY) kMax--;
  return kMax >= kMin ? { origin: 0, step, kMin, kMax } : null;
}

/** Writes the world position of a crossing into path[o], path[o+1]; returns its ring. */
function endPoint(
  rings: readonly Float64Array[],
  ringStart: Int32Array,
  vRing: Int32Array,
  e: number,
  t: number,
  path: Float64Array,
  o: number,
): number {
  const r = vRing[e];
  const ring = rings[r];
  const i = e - ringStart[r];
  const j = (i + 1) * 2 < ring.length ? i + 1 : 0;
  path[o] = ring[i * 2] + t * (ring[j * 2] - ring[i * 2]);
  path[o + 1] = ring[i * 2 + 1] + t * (ring[j * 2 + 1] - ring[i * 2 + 1]);
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
  const order = Array.from({ length: b - a }, (_, i) => a + i).sort((p, q) => xs[p] - xs[q]);
  const x2 = order.map((p) => xs[p]);
  const t2 = order.map((p) => ts[p]);
  const e2 = order.map((p) => edge[p]);
  for (let i = 0; i < order.length; i++) {
    xs[a + i] = x2[i];
    ts[a + i] = t2[i];
    edge[a + i] = e2[i];
  }
}
