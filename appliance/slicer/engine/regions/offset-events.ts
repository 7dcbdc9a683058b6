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
 * refused up front. On the corpus's bearing (a scan) only 1 of 585 openings' insets matched point
 * for point, though none had a point or a ring more or fewer: Clipper's corners lay within 0.15 µm
 * of both moved lines but up to 3 µm along them, at turns of 1.5-10°, where two lines that are
 * nearly parallel meet. Such a result is the moved region to `SAME_POINT` as well, edge for edge
 * ('along'): event-free, though its corners are not the moved ones.
 */
import type { ExPolygon, Polygon } from '../geometry/types.js';

/** Least 1 + cos of the angle between two edges' normals: turns over 134° are refused (Clipper's miter limit of 3 squares them at 141°). */
const MIN_MITER_DENOMINATOR = 0.3;
/**
 * How far (mm) a point of Clipper's result may lie from the moved corner (or, for 'along', from
 * the moved lines). Clipper snaps the input to its 0.1 µm grid before offsetting and rounds the
 * corners it finds where two offset edges cross.
 */
const SAME_POINT = 5e-4;
/**
 * How far (mm) a point of Clipper's result may lie from the moved corner along the moved lines
 * ('along'). Where two edges meet at a nearly straight angle, their lines cross at a shallow angle:
 * a point within `SAME_POINT` of both slides along them by up to that over the sine of the turn.
 */
const SAME_CORNER = 1e-2;

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
 * How Clipper's offset `result` of a region compares with the region's `moved` rings: 'same' where
 * it has as many pieces and rings and each ring is one of the moved rings point for point (to
 * `SAME_POINT`, from whichever point it starts); 'along' where each point of a ring lies instead
 * within `SAME_POINT` of both moved edge lines through its corner and within `SAME_CORNER` of the
 * corner (then every edge of the result lies within `SAME_POINT` of its moved edge's line); else
 * null. Either way the offset was event-free: an event leaves Clipper a point or a ring more or fewer.
 */
export function movedMatch(result: readonly ExPolygon[], moved: readonly ExPolygon[]): 'same' | 'along' | null {
  if (result.length !== moved.length) return null;
  const candidates = moved.flatMap((ex) => [ex.contour, ...ex.holes]);
  const rings = result.flatMap((ex) => [ex.contour, ...ex.holes]);
  if (rings.length !== candidates.length) return null;
  if (matchRings(rings, candidates, sameRing)) return 'same';
  return matchRings(rings, candidates, alongRing) ? 'along' : null;
}

/** Whether each ring is matched by a candidate of its own. */
function matchRings(rings: readonly Polygon[], candidates: readonly Polygon[], same: (a: Polygon, b: Polygon) => boolean): boolean {
  const used = new Uint8Array(candidates.length);
  for (const ring of rings) {
    const k = candidates.findIndex((c, i) => used[i] === 0 && same(ring, c));
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

/**
 * The same closed ring up to corners slid along their lines: the points of `a` in order, each
 * within `SAME_POINT` of both lines of `b` through its corner and within `SAME_CORNER` of the
 * corner. A corner may be two or more points of `a` within `SAME_POINT` of one another: Clipper
 * rounds the crossing of two nearly parallel offset edges to a step of its grid (10 of 585 of the
 * bearing's openings).
 */
function alongRing(a: Polygon, b: Polygon): boolean {
  const n = a.length >> 1;
  const m = b.length >> 1;
  if (n < m) return false;
  // Start at a point that begins its corner: one not within `SAME_POINT` of the point before it.
  let first = -1;
  for (let k = 0; k < n && first < 0; k++) {
    const h = (k + n - 1) % n;
    if (!near(a[2 * k], a[2 * k + 1], a[2 * h], a[2 * h + 1], SAME_POINT)) first = k;
  }
  if (first < 0) return false;
  let start = -1;
  let nearest = SAME_CORNER * SAME_CORNER;
  for (let i = 0; i < m; i++) {
    const d = (b[2 * i] - a[2 * first]) ** 2 + (b[2 * i + 1] - a[2 * first + 1]) ** 2;
    if (d <= nearest) {
      nearest = d;
      start = i;
    }
  }
  if (start < 0) return false;
  let k = 0;
  for (let c = 0; c < m; c++) {
    const i = (start + c) % m;
    // The corner's first point, then any within `SAME_POINT` of the one before.
    do {
      const at = (first + k) % n;
      if (!onCorner(a[2 * at], a[2 * at + 1], b, i, m)) return false;
      k++;
    } while (k < n && n - k > m - c - 1 && nearNext(a, (first + k - 1) % n, n));
  }
  return k === n;
}

/** Whether a's point `k` has the next point within `SAME_POINT`. */
function nearNext(a: Polygon, k: number, n: number): boolean {
  const j = (k + 1) % n;
  return near(a[2 * k], a[2 * k + 1], a[2 * j], a[2 * j + 1], SAME_POINT);
}

function near(x: number, y: number, px: number, py: number, distance: number): boolean {
  return (x - px) ** 2 + (y - py) ** 2 <= distance * distance;
}

/** Whether (x, y) is within `SAME_CORNER` of corner `i` of ring `b` and within `SAME_POINT` of both its lines. */
function onCorner(x: number, y: number, b: Polygon, i: number, m: number): boolean {
  const bx = b[2 * i];
  const by = b[2 * i + 1];
  if (!near(x, y, bx, by, SAME_CORNER)) return false;
  const h = (i + m - 1) % m;
  const j = (i + 1) % m;
  return distanceToLine(x, y, b[2 * h], b[2 * h + 1], bx, by) <= SAME_POINT && distanceToLine(x, y, bx, by, b[2 * j], b[2 * j + 1]) <= SAME_POINT;
}

/** Distance from (x, y) to the line through p and q (apart: `movedRing` keeps every edge's length above 0). */
function distanceToLine(x: number, y: number, px: number, py: number, qx: number, qy: number): number {
  const dx = qx - px;
  const dy = qy - py;
  return Math.abs(dx * (y - py) - dy * (x - px)) / Math.hypot(dx, dy);
}
