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
        if (edgeNearRing(ax, ay, bx, by, ring)) return null;
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

/** Whether segment a-b crosses or comes within `NEAR` of any edge of the closed ring. */
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
