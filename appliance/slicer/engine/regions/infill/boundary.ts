/**
 * One island's boundary rings measured by arc length, so that the ends of fill lines can be
 * placed on it, sorted along it and joined by walking along it.
 */
import { firstAbove } from '../../geometry/search.js';
import type { ExPolygon } from '../../geometry/types.js';
import type { PathBuilder } from '../../geometry/lines.js';

export interface BoundaryPoint {
  ring: number;
  arc: number;
}

export class Boundary {
  /** The contour first, then the holes, as given. */
  readonly rings: Float64Array[];
  /** cum[r][i] is the arc length from vertex 0 to vertex i of ring r; cum[r][n] is the ring's length. */
  readonly cum: Float64Array[];
  private edgeIndex: EdgeIndex | null = null;

  constructor(ex: ExPolygon) {
    this.rings = [ex.contour, ...ex.holes];
    this.cum = this.rings.map(cumulativeLengths);
  }

  ringLength(r: number): number {
    const c = this.cum[r];
    return c[c.length - 1];
  }

  /** Arc position of the point at parameter t (0..1) along edge `edge` of ring r. */
  arcOn(r: number, edge: number, t: number): number {
    const c = this.cum[r];
    return c[edge] + t * (c[edge + 1] - c[edge]);
  }

  /**
   * Appends the ring vertices met when walking along ring r from arc position `from` to `to`,
   * in vertex order (forward) or against it. The two end positions themselves are not appended.
   */
  appendWalk(out: PathBuilder, r: number, from: number, to: number, forward: boolean): void {
    const ring = this.rings[r];
    const c = this.cum[r];
    const n = ring.length >> 1;
    const len = c[n];
    if (forward) {
      let dist = to - from;
      if (dist < 0) dist += len;
      const stop = from + dist;
      const first = firstAbove(c, from);
      for (let j = 0; j < n; j++) {
        const i = first + j;
        const arc = i <= n ? c[i] : len + c[i - n];
        if (arc >= stop) break;
        const v = i % n;
        out.push(ring[v * 2], ring[v * 2 + 1]);
      }
    } else {
      let dist = from - to;
      if (dist < 0) dist += len;
      const stop = from - dist;
      const first = firstAbove(c, from) - 1;
      const start = c[first] < from ? first : first - 1;
      for (let j = 0; j < n; j++) {
        const i = start - j;
        const arc = i >= 0 ? c[i] : c[i + n] - len;
        if (arc <= stop) break;
        const v = (i + n) % n;
        out.push(ring[v * 2], ring[v * 2 + 1]);
      }
    }
  }

  /** Where a point lying on the boundary (within `tol` mm) is, or null when it is off every ring. */
  locate(x: number, y: number, tol: number): BoundaryPoint | null {
    this.edgeIndex ??= new EdgeIndex(this.rings);
    const hit = this.edgeIndex.nearest(x, y, tol);
    if (hit < 0) return null;
    const idx = this.edgeIndex;
    return { ring: idx.edgeRing[hit], arc: this.arcOn(idx.edgeRing[hit], idx.edgeVertex[hit], idx.lastT) };
  }
}

function cumulativeLengths(ring: Float64Array): Float64Array {
  const n = ring.length >> 1;
  const c = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    const dx = ring[j * 2] - ring[i * 2];
    const dy = ring[j * 2 + 1] - ring[i * 2 + 1];
    c[i + 1] = c[i] + Math.sqrt(dx * dx + dy * dy);
  }
  return c;
}

function clamp01(t: number): number {
  if (t < 0) return 0;
  return t > 1 ? 1 : t;
}

/** A uniform grid over the ring edges for nearest-edge queries near the boundary. */
class EdgeIndex {
  readonly edgeRing: Int32Array;
  readonly edgeVertex: Int32Array;
  /** Parameter along the edge of the last `nearest` hit. */
  lastT = 0;
  private readonly coords: Float64Array;
  private readonly minX: number;
  private readonly minY: number;
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly cellStart: Int32Array;
  private readonly cellEdges: Int32Array;

  constructor(rings: readonly Float64Array[]) {
    let edges = 0;
    for (const r of rings) edges += r.length >> 1;
    this.edgeRing = new Int32Array(edges);
    this.edgeVertex = new Int32Array(edges);
    this.coords = new Float64Array(edges * 4);
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    let e = 0;
    rings.forEach((ring, r) => {
      const n = ring.length >> 1;
      for (let i = 0; i < n; i++, e++) {
        const j = i + 1 < n ? i + 1 : 0;
        this.edgeRing[e] = r;
        this.edgeVertex[e] = i;
        const o = e * 4;
        this.coords[o] = ring[i * 2];
        this.coords[o + 1] = ring[i * 2 + 1];
        this.coords[o + 2] = ring[j * 2];
        this.coords[o + 3] = ring[j * 2 + 1];
        minX = Math.min(minX, ring[i * 2]);
        maxX = Math.max(maxX, ring[i * 2]);
        minY = Math.min(minY, ring[i * 2 + 1]);
        maxY = Math.max(maxY, ring[i * 2 + 1]);
      }
    });
    const w = Math.max(maxX - minX, 1e-6);
    const h = Math.max(maxY - minY, 1e-6);
    this.cell = Math.max(Math.sqrt((w * h) / Math.max(edges, 1)), 1e-3);
    this.minX = minX;
    this.minY = minY;
    this.cols = Math.min(Math.floor(w / this.cell) + 1, 4096);
    this.rows = Math.min(Math.floor(h / this.cell) + 1, 4096);
    const counts = new Int32Array(this.cols * this.rows + 1);
    this.forEachCell((cell) => {
      counts[cell + 1]++;
    });
    for (let k = 1; k < counts.length; k++) counts[k] += counts[k - 1];
    this.cellStart = counts.slice();
    this.cellEdges = new Int32Array(counts[counts.length - 1]);
    this.forEachCell((cell, edge) => {
      this.cellEdges[counts[cell]++] = edge;
    });
  }

  /** The edge nearest to (x, y) within tol, or -1; sets lastT. */
  nearest(x: number, y: number, tol: number): number {
    const c0 = this.colOf(x - tol),
      c1 = this.colOf(x + tol);
    const r0 = this.rowOf(y - tol),
      r1 = this.rowOf(y + tol);
    let best = -1;
    let bestD = tol * tol;
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const cell = row * this.cols + col;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const e = this.cellEdges[k];
          const o = e * 4;
          const ax = this.coords[o],
            ay = this.coords[o + 1];
          const dx = this.coords[o + 2] - ax,
            dy = this.coords[o + 3] - ay;
          const len2 = dx * dx + dy * dy;
          const t = clamp01(len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0);
          const d = (ax + t * dx - x) ** 2 + (ay + t * dy - y) ** 2;
          if (d <= bestD) {
            bestD = d;
            best = e;
            this.lastT = t;
          }
        }
      }
    }
    return best;
  }

  private colOf(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cell)));
  }

  private rowOf(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cell)));
  }

  private forEachCell(visit: (cell: number, edge: number) => void): void {
    const n = this.edgeRing.length;
    for (let e = 0; e < n; e++) {
      const o = e * 4;
      const c0 = this.colOf(Math.min(this.coords[o], this.coords[o + 2]));
      const c1 = this.colOf(Math.max(this.coords[o], this.coords[o + 2]));
      const r0 = this.rowOf(Math.min(this.coords[o + 1], this.coords[o + 3]));
      const r1 = this.rowOf(Math.max(this.coords[o + 1], this.coords[o + 3]));
      for (let row = r0; row <= r1; row++) for (let col = c0; col <= c1; col++) visit(row * this.cols + col, e);
    }
  }
}
