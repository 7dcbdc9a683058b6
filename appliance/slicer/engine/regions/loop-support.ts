/**
 * Whether a wall loop lies clear of the edges of the supported area (the layer below, grown), and
 * on which side: most loops do, and then the share of the loop over air is all or nothing without
 * clipping it. Clipping each outer loop against its neighbourhood took a fifth of the wall time of
 * the corpus's Menger sponge, whose layers hold hundreds of loops over a layer below of hundreds
 * of holes.
 */
import { bboxOf, distToSegmentSq, pointInExPolygon } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';

/**
 * Closer than this (mm) to an edge of the supported area, a loop is in doubt: Clipper snaps to
 * 0.1 µm, and a loop along the edge (a hole the same as the one below, whose outer wall lies
 * exactly on the grown outline) counts as inside or outside by that snapping alone.
 */
const NEAR = 1e-3;
/** Pairs of edges compared at most before the loop is left to Clipper (a large outline over a detailed layer). */
const MAX_PAIRS = 20000;

/** 'inside' or 'outside' the supported pieces when no edge of theirs comes near the loop, else null. */
export function sideOfSupport(ring: Polygon, pieces: readonly ExPolygon[]): 'inside' | 'outside' | null {
  const n = ring.length;
  const box = bboxOf([ring]);
  const minX = box.minX - NEAR;
  const minY = box.minY - NEAR;
  const maxX = box.maxX + NEAR;
  const maxY = box.maxY + NEAR;
  let pairs = 0;
  let index: RingEdges | null = null;
  for (const piece of pieces) {
    for (const edgeRing of [piece.contour, ...piece.holes]) {
      const m = edgeRing.length;
      for (let k = 0; k < m; k += 2) {
        const ax = edgeRing[k];
        const ay = edgeRing[k + 1];
        const bx = edgeRing[(k + 2) % m];
        const by = edgeRing[(k + 3) % m];
        if (segmentMissesBox(ax, ay, bx, by, minX, minY, maxX, maxY)) continue;
        pairs += n >> 1;
        if (pairs > MAX_PAIRS) return null;
        if (n < 2 * INDEXED_POINTS) {
          if (edgeNearRing(ax, ay, bx, by, ring)) return null;
          continue;
        }
        index ??= new RingEdges(ring, minX, minY, maxX, maxY);
        if (index.near(ax, ay, bx, by)) return null;
      }
    }
  }
  return pieces.some((piece) => pointInExPolygon(ring[0], ring[1], piece)) ? 'inside' : 'outside';
}

/**
 * Whether the loop lies inside the pieces, clear of their edges (`sideOfSupport` says 'inside'). The
 * one-point test comes first: it settles a loop outside them for the cost of one pass around the
 * pieces, where the edge scan compares every edge near the loop with every edge of it.
 */
export function clearlyInside(ring: Polygon, pieces: readonly ExPolygon[]): boolean {
  if (!pieces.some((piece) => pointInExPolygon(ring[0], ring[1], piece))) return false;
  return sideOfSupport(ring, pieces) === 'inside';
}

/** Whether segment a-b crosses or comes within `NEAR` of any edge of the closed ring (a small one: every edge is compared). */
function edgeNearRing(ax: number, ay: number, bx: number, by: number, ring: Polygon): boolean {
  const n = ring.length;
  const loX = Math.min(ax, bx) - NEAR;
  const hiX = Math.max(ax, bx) + NEAR;
  const loY = Math.min(ay, by) - NEAR;
  const hiY = Math.max(ay, by) + NEAR;
  for (let k = 0; k < n; k += 2) {
    const px = ring[k];
    const py = ring[k + 1];
    const qx = ring[(k + 2) % n];
    const qy = ring[(k + 3) % n];
    if (segmentMissesBox(px, py, qx, qy, loX, loY, hiX, hiY)) continue;
    if (segmentsNear(ax, ay, bx, by, px, py, qx, qy)) return true;
  }
  return false;
}

/** Points of a loop from which its edges are put in a grid: a smaller loop is compared edge by edge (cheaper than the grid). */
const INDEXED_POINTS = 64;

/** Cells a side of the ring's edge index, at most: a ring of n edges gets about √n. */
const MAX_CELLS = 64;

/**
 * The edges of a closed ring in a grid of cells over its box, each listed in every cell its grown
 * box meets: a segment near the ring is compared with the edges of the cells it
 * crosses, not with every edge (on the bearing, comparing every edge was 1.3 % of the slice).
 */
class RingEdges {
  private readonly cols: number;
  private readonly rows: number;
  private readonly cellW: number;
  private readonly cellH: number;
  /** Edge k (from point k to point k + 1) of the ring, listed for cell c at `edges[start[c]..start[c + 1])`. */
  private readonly start: Int32Array;
  private readonly edges: Int32Array;

  constructor(
    private readonly ring: Polygon,
    private readonly minX: number,
    private readonly minY: number,
    maxX: number,
    maxY: number,
  ) {
    const n = ring.length >> 1;
    const side = Math.max(1, Math.min(MAX_CELLS, Math.round(Math.sqrt(n))));
    this.cols = side;
    this.rows = side;
    this.cellW = (maxX - minX) / side || 1;
    this.cellH = (maxY - minY) / side || 1;
    const count = new Int32Array(side * side + 1);
    this.forEachCell(n, (cell) => count[cell + 1]++);
    for (let c = 0; c < side * side; c++) count[c + 1] += count[c];
    this.start = count.slice();
    this.edges = new Int32Array(count[side * side]);
    this.forEachCell(n, (cell, k) => {
      this.edges[count[cell]++] = k;
    });
  }

  /** Calls `visit` for every cell of every edge's grown box. */
  private forEachCell(n: number, visit: (cell: number, edge: number) => void): void {
    const ring = this.ring;
    for (let k = 0; k < n; k++) {
      const j = k + 1 === n ? 0 : k + 1;
      this.cellsOf(ring[2 * k], ring[2 * k + 1], ring[2 * j], ring[2 * j + 1], (cell) => visit(cell, k));
    }
  }

  /** The cells that the box of segment a-b, grown by twice `NEAR` (beyond any rounding of the distance test), meets (clamped to the grid). */
  private cellsOf(ax: number, ay: number, bx: number, by: number, visit: (cell: number) => void): void {
    const a0 = this.column(Math.min(ax, bx) - 2 * NEAR);
    const a1 = this.column(Math.max(ax, bx) + 2 * NEAR);
    const b0 = this.row(Math.min(ay, by) - 2 * NEAR);
    const b1 = this.row(Math.max(ay, by) + 2 * NEAR);
    for (let b = b0; b <= b1; b++) for (let a = a0; a <= a1; a++) visit(b * this.cols + a);
  }

  private column(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cellW)));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cellH)));
  }

  /**
   * Whether segment a-b crosses or comes within `NEAR` of any edge of the ring. An edge that could
   * be that near shares a cell with the segment: both boxes, grown, meet in it. The
   * cells are clamped to the grid, so edges and segments beyond the box still meet in its border cells.
   */
  near(ax: number, ay: number, bx: number, by: number): boolean {
    const ring = this.ring;
    const n = ring.length >> 1;
    const loX = Math.min(ax, bx) - NEAR;
    const hiX = Math.max(ax, bx) + NEAR;
    const loY = Math.min(ay, by) - NEAR;
    const hiY = Math.max(ay, by) + NEAR;
    let found = false;
    this.cellsOf(ax, ay, bx, by, (cell) => {
      for (let e = this.start[cell]; e < this.start[cell + 1] && !found; e++) {
        const k = this.edges[e];
        const j = k + 1 === n ? 0 : k + 1;
        const px = ring[2 * k];
        const py = ring[2 * k + 1];
        const qx = ring[2 * j];
        const qy = ring[2 * j + 1];
        if (segmentMissesBox(px, py, qx, qy, loX, loY, hiX, hiY)) continue;
        found = segmentsNear(ax, ay, bx, by, px, py, qx, qy);
      }
    });
    return found;
  }
}

/** Whether segment a-b lies wholly to one side of the box (the cheap rejection before a distance test). */
function segmentMissesBox(ax: number, ay: number, bx: number, by: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return Math.max(ax, bx) < minX || Math.min(ax, bx) > maxX || Math.max(ay, by) < minY || Math.min(ay, by) > maxY;
}

function segmentsNear(ax: number, ay: number, bx: number, by: number, px: number, py: number, qx: number, qy: number): boolean {
  const d1 = cross(px, py, qx, qy, ax, ay);
  const d2 = cross(px, py, qx, qy, bx, by);
  const d3 = cross(ax, ay, bx, by, px, py);
  const d4 = cross(ax, ay, bx, by, qx, qy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const near2 = NEAR * NEAR;
  return (
    distToSegmentSq(ax, ay, px, py, qx, qy) <= near2 ||
    distToSegmentSq(bx, by, px, py, qx, qy) <= near2 ||
    distToSegmentSq(px, py, ax, ay, bx, by) <= near2 ||
    distToSegmentSq(qx, qy, ax, ay, bx, by) <= near2
  );
}

/** Which side of line p-q point r lies on (twice the signed area of p, q, r). */
function cross(px: number, py: number, qx: number, qy: number, rx: number, ry: number): number {
  return (qx - px) * (ry - py) - (qy - py) * (rx - px);
}
