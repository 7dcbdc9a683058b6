/**
 * Offsets of one convex ring worked out directly, without Clipper: each edge's line moved by the
 * distance, each corner where the moved lines of its two edges meet (`offset-events.ts`'s `movedRing`). The variable walls offset an
 * island five to ten times (openings, inner edges, gap bounds); a plain convex island (a bar, a
 * pin, a plate: every island of the corpus's rigid3d platform) is where that is most of the cost
 * and where the answer is known exactly.
 *
 * This gives Clipper's result, up to its 0.1 µm grid, only where Clipper's miter joins are true
 * miters (no corner sharper than `MIN_CORNER`: the miter limit of 3 squares off corners under 39°)
 * and, for an inset, where no edge shrinks away (then the ring is the intersection of the moved
 * edges' half-planes); elsewhere it answers null and the caller uses Clipper.
 */
import type { ExPolygon, Polygon } from '../geometry/types.js';
import { movedRing } from './offset-events.js';

/** Cosine of the largest turn between two edges: corners of at least 45° are mitred, never squared. */
const MAX_TURN_COS = -Math.SQRT1_2;
/** Shortest edge (mm) an inset may leave: shorter, an edge is too near vanishing to be sure of the shape. */
const MIN_EDGE = 1e-3;

/** The ring of a list that is one convex piece without holes (counter-clockwise, no sharp or straight corner), else null. */
export function soleConvexRing(list: readonly ExPolygon[]): Polygon | null {
  if (list.length !== 1 || list[0].holes.length !== 0) return null;
  const ring = list[0].contour;
  const n = ring.length >> 1;
  if (n < 3) return null;
  for (let i = 0; i < n; i++) {
    const a = (i + n - 1) % n;
    const b = (i + 1) % n;
    const ux = ring[2 * i] - ring[2 * a];
    const uy = ring[2 * i + 1] - ring[2 * a + 1];
    const vx = ring[2 * b] - ring[2 * i];
    const vy = ring[2 * b + 1] - ring[2 * i + 1];
    const lu = Math.hypot(ux, uy);
    const lv = Math.hypot(vx, vy);
    if (lu < MIN_EDGE || lv < MIN_EDGE) return null;
    // A left turn (convex, counter-clockwise) of a clear angle, not so sharp that the miter is limited.
    if ((ux * vy - uy * vx) / (lu * lv) < 1e-6 || (ux * vx + uy * vy) / (lu * lv) < MAX_TURN_COS) return null;
  }
  return ring;
}

/**
 * The ring offset by `delta` (positive grows) with mitred corners (`movedRing`), or null where an
 * inset would make an edge vanish (or come within `MIN_EDGE` of it). `ring` must be `soleConvexRing`'s.
 */
export function offsetConvexRing(ring: Polygon, delta: number): Polygon | null {
  const out = movedRing(ring, delta);
  if (!out || delta >= 0) return out;
  const n = ring.length >> 1;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const along = (out[2 * j] - out[2 * i]) * (ring[2 * j] - ring[2 * i]) + (out[2 * j + 1] - out[2 * i + 1]) * (ring[2 * j + 1] - ring[2 * i + 1]);
    const before = Math.hypot(ring[2 * j] - ring[2 * i], ring[2 * j + 1] - ring[2 * i + 1]);
    if (along < MIN_EDGE * before) return null;
  }
  return out;
}
