/**
 * Whether a Clipper offset was event-free: every edge of the region moved by the distance, no edge
 * shrank away, no ring split, merged or closed. Then every offset by less is the region with its
 * edges moved too, known without another call into Clipper: the variable walls use this to skip
 * the offsets of an opening that takes nothing away (most openings of a scanned part's thick rings).
 *
 * The proof is a comparison: the rings with every edge's line moved and each corner where the two
 * moved lines meet (`movedRings`) against Clipper's result, point for point (to `SAME_POINT`).
 * Where they match, the moved rings are the offset; any event leaves Clipper a point more or fewer
 * or a ring more or fewer. Corners sharper than Clipper's miter limit (which squares them off) are
 * refused up front.
 */
import type { ExPolygon, Polygon } from '../geometry/types.js';

/** Least 1 + cos of the angle between two edges' normals: turns over 134° are refused (Clipper's miter limit of 3 squares them at 141°). */
const MIN_MITER_DENOMINATOR = 0.3;
/**
 * How far (mm) a point of Clipper's result may lie from the moved corner. Clipper snaps the input
 * to its 0.1 µm grid before offsetting, which turns a short edge's normal a little and a corner's
 * miter multiplies that. Kept tight: at 2 µm the corpus's gearwheel had its openings taken for
 * event-free where the inner edge they give differs from Clipper's by a few µm at the tips of its
 * teeth, enough to join gap pieces there and print 12 more short gap lines a layer (+1 minute).
 */
const SAME_POINT = 5e-4;

/**
 * A ring (contour counter-clockwise or hole clockwise) with each edge's line moved by `delta`
 * (positive grows the region) and the corners where they meet; null where a corner is too sharp
 * or an edge shrinks away (turns round).
 */
export function movedRing(ring: Polygon, delta: number): Polygon | null {
  const n = ring.length >> 1;
  const out = new Float64Array(ring.length);
  // The region lies left of each edge: (dy, -dx) points out of it.
  let [px, py] = outwardNormal(ring, n - 1, n);
  for (let i = 0; i < n; i++) {
    const [qx, qy] = outwardNormal(ring, i, n);
    const denominator = 1 + px * qx + py * qy;
    if (!(denominator >= MIN_MITER_DENOMINATOR)) return null;
    out[2 * i] = ring[2 * i] + ((px + qx) * delta) / denominator;
    out[2 * i + 1] = ring[2 * i + 1] + ((py + qy) * delta) / denominator;
    px = qx;
    py = qy;
  }
  // An edge that turned round has shrunk away: an event, whatever Clipper's points say.
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const along = (out[2 * j] - out[2 * i]) * (ring[2 * j] - ring[2 * i]) + (out[2 * j + 1] - out[2 * i + 1]) * (ring[2 * j + 1] - ring[2 * i + 1]);
    if (!(along > 0)) return null;
  }
  return out;
}

function outwardNormal(ring: Polygon, k: number, n: number): [number, number] {
  const j = (k + 1) % n;
  const dx = ring[2 * j] - ring[2 * k];
  const dy = ring[2 * j + 1] - ring[2 * k + 1];
  const l = Math.hypot(dx, dy);
  return [dy / l, -dx / l];
}

/** `movedRing` for each ring of each piece, or null where any corner is too sharp. */
export function movedRings(list: readonly ExPolygon[], delta: number): ExPolygon[] | null {
  const out: ExPolygon[] = [];
  for (const ex of list) {
    const contour = movedRing(ex.contour, delta);
    if (!contour) return null;
    const holes: Polygon[] = [];
    for (const hole of ex.holes) {
      const moved = movedRing(hole, delta);
      if (!moved) return null;
      holes.push(moved);
    }
    out.push({ contour, holes });
  }
  return out;
}

/**
 * Whether Clipper's offset `result` of a region is the region's `moved` rings: as many pieces and
 * rings, each ring of the result one of the moved rings point for point (from whichever point it
 * starts). Then the offset was event-free.
 */
export function isMovedRegion(result: readonly ExPolygon[], moved: readonly ExPolygon[]): boolean {
  if (result.length !== moved.length) return false;
  const candidates = moved.flatMap((ex) => [ex.contour, ...ex.holes]);
  const rings = result.flatMap((ex) => [ex.contour, ...ex.holes]);
  if (rings.length !== candidates.length) return false;
  const used = new Uint8Array(candidates.length);
  for (const ring of rings) {
    const k = candidates.findIndex((c, i) => used[i] === 0 && sameRing(ring, c));
    if (k < 0) return false;
    used[k] = 1;
  }
  return true;
}

/** The same closed ring, in the same direction, whatever point each starts at. */
function sameRing(a: Polygon, b: Polygon): boolean {
  if (a.length !== b.length) return false;
  const n = a.length >> 1;
  let start = -1;
  for (let i = 0; i < n && start < 0; i++) {
    if (Math.abs(b[2 * i] - a[0]) <= SAME_POINT && Math.abs(b[2 * i + 1] - a[1]) <= SAME_POINT) start = i;
  }
  if (start < 0) return false;
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    if (Math.abs(b[2 * i] - a[2 * k]) > SAME_POINT || Math.abs(b[2 * i + 1] - a[2 * k + 1]) > SAME_POINT) return false;
  }
  return true;
}
