/**
 * Square corners for lines that run side by side along a medial axis (`axis-lines.ts`).
 *
 * The axis of a strip rounds a convex corner of the strip well inside it: the discs that would
 * reach into the corner touch its two sides at an angle, not opposite, and are pruned. A line
 * offset from the axis towards the corner follows that curve (or cuts straight across where the
 * axis jumps), while the loop or outline beside it turns sharp, and a pocket of 0.2 mm stays open
 * there. The line on the corner's side runs at a fixed distance from each of the corner's two
 * sides before and after it; here it is made to keep that distance through the corner, as a
 * mitre: the points between its last one along the first side and its first one along the second
 * move to the point at that distance from both sides. Points keep their indices, so the caller can
 * still cut the line into pieces by the axis's point numbers.
 */
import { distToSegmentSq, polylineLength, signedArea } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';

/** A convex corner of a region: its point and the inward unit normals of the sides before and after it. */
export interface Corner {
  x: number;
  y: number;
  n1x: number;
  n1y: number;
  n2x: number;
  n2y: number;
  /** Distance from the corner along its bisector per mm of distance from its sides: 1 / sin(half the inner angle). */
  mitre: number;
  /** Whether the region turns outward here (a convex corner) or inward (a notch). */
  convex: boolean;
}

/**
 * Turns (radians) of a corner to square off: gentler ones are facets of a curve that the axis
 * follows closely; sharper ones would put the mitre so deep into a narrowing tip that the two
 * lines would overlap there.
 */
const MIN_TURN = Math.PI / 6;
const MAX_TURN = (2 * Math.PI) / 3;

/** The convex corners of a region (of its outline and of its holes) that turn between `MIN_TURN` and `MAX_TURN`. */
export function convexCorners(region: ExPolygon): Corner[] {
  const corners: Corner[] = [];
  const sign = signedArea(region.contour) > 0 ? 1 : -1;
  cornersOf(region.contour, sign, corners);
  for (const hole of region.holes) cornersOf(hole, signedArea(hole) < 0 ? 1 : -1, corners);
  return corners;
}

/** Adds the convex corners of one ring; `sign` is 1 where the region lies to the left of the ring's direction. */
function cornersOf(ring: Polygon, sign: number, out: Corner[]): void {
  const n = ring.length >> 1;
  if (n < 3) return;
  for (let k = 0; k < n; k++) {
    const p = (k + n - 1) % n;
    const q = (k + 1) % n;
    const ax = ring[2 * k] - ring[2 * p];
    const ay = ring[2 * k + 1] - ring[2 * p + 1];
    const bx = ring[2 * q] - ring[2 * k];
    const by = ring[2 * q + 1] - ring[2 * k + 1];
    const la = Math.hypot(ax, ay);
    const lb = Math.hypot(bx, by);
    if (la < 1e-9 || lb < 1e-9) continue;
    const turn = Math.atan2(sign * (ax * by - ay * bx), ax * bx + ay * by);
    if (Math.abs(turn) < MIN_TURN || Math.abs(turn) > MAX_TURN) continue;
    out.push({
      x: ring[2 * k],
      y: ring[2 * k + 1],
      n1x: (-ay / la) * sign,
      n1y: (ax / la) * sign,
      n2x: (-by / lb) * sign,
      n2y: (bx / lb) * sign,
      mitre: 1 / Math.cos(turn / 2),
      convex: turn > 0,
    });
  }
}

/** Share of its distance from a side that a point may be off and still count as running along that side. */
const ALONG_TOLERANCE = 0.25;

/**
 * Moves the points of `line` (x,y pairs; closed: its last point repeats its first) that round a
 * corner between running along its two sides onto the corner's mitre. `distance[k]` is how far
 * from the sides point k runs where the region is straight; points within `reach[k]` of a corner
 * are looked at.
 */
export function mitreCorners(
  line: number[],
  closed: boolean,
  corners: readonly Corner[],
  distance: readonly number[],
  reach: readonly number[],
): void {
  const count = line.length >> 1;
  const size = closed ? count - 1 : count;
  if (size < 2) return;
  for (const c of corners) {
    // Each point near the corner: 1 along the first side, 2 along the second, 3 at the corner already, 0 between.
    const state = new Int8Array(size).fill(-1);
    let near = 0;
    for (let k = 0; k < size; k++) {
      const x = line[2 * k] - c.x;
      const y = line[2 * k + 1] - c.y;
      if (Math.hypot(x, y) > reach[k]) continue;
      near++;
      const d1 = x * c.n1x + y * c.n1y;
      const d2 = x * c.n2x + y * c.n2y;
      const tolerance = ALONG_TOLERANCE * distance[k];
      // Along a side means at the line's distance from it, and on that side's half of the corner: short
      // of the other side's mitre line at a convex corner, past it at a notch.
      const before = (d: number) => (c.convex ? d > distance[k] - tolerance : d < distance[k] + tolerance);
      const along1 = Math.abs(d1 - distance[k]) <= tolerance && before(d2);
      const along2 = Math.abs(d2 - distance[k]) <= tolerance && before(d1);
      state[k] = (along1 ? 1 : 0) + (along2 ? 2 : 0);
    }
    if (near === 0 || state.includes(3)) continue;
    squareOff(line, closed, size, state, c, distance);
  }
  if (closed) {
    line[2 * size] = line[0];
    line[2 * size + 1] = line[1];
  }
}

/**
 * Finds a run of the line from a point along one side of the corner, through points along neither,
 * to a point along the other, and moves the points between onto the mitre (or, where there are
 * none between, the last point along the first side: the line then runs along that side into the
 * mitre and turns there).
 */
function squareOff(line: number[], closed: boolean, size: number, state: Int8Array, c: Corner, distance: readonly number[]): void {
  const at = (k: number) => (closed ? (k + size) % size : k);
  const steps = closed ? size : size - 1;
  for (let first = 0; first < size; first++) {
    const side = state[first];
    if (side !== 1 && side !== 2) continue;
    let k = first + 1;
    while (k - first <= steps && (closed || k < size) && state[at(k)] === 0) k++;
    if (k - first > steps || (!closed && k >= size)) return;
    const other = state[at(k)];
    if (other !== 3 - side) continue;
    const to = (from: number) => {
      const d = distance[from] * c.mitre;
      const bx = c.n1x + c.n2x;
      const by = c.n1y + c.n2y;
      const len = Math.hypot(bx, by);
      line[2 * from] = c.x + (bx / len) * d;
      line[2 * from + 1] = c.y + (by / len) * d;
    };
    if (k === first + 1) to(first);
    else for (let j = first + 1; j < k; j++) to(at(j));
    return;
  }
}

/** Lines shorter than this many widths are stubs. */
const STUB_LENGTH = 3;

/**
 * The lines without stubs near a corner that a longer line now covers: where the axis jumps a
 * corner, a short path across the corner's round gives lines of its own, and the squared-off line
 * runs over the outer one.
 */
export function withoutCoveredStubs(lines: Extrusion[], corners: readonly Corner[]): Extrusion[] {
  const lengths = lines.map((e) => polylineLength(e.points));
  return lines.filter((stub, s) => {
    if (stub.loop || lengths[s] >= STUB_LENGTH * stub.width) return true;
    const p = stub.points;
    const reach = STUB_LENGTH * stub.width;
    if (!corners.some((c) => Math.hypot(p[0] - c.x, p[1] - c.y) < reach)) return true;
    const covered = (x: number, y: number) =>
      lines.some((other, k) => k !== s && lengths[k] > lengths[s] && distanceToLine(x, y, other.points) <= other.width / 2);
    for (let k = 0; k < p.length; k += 2) {
      if (!covered(p[k], p[k + 1])) return true;
      if (k > 0 && !covered((p[k] + p[k - 2]) / 2, (p[k + 1] + p[k - 1]) / 2)) return true;
    }
    return false;
  });
}

/** Distance from a point to a polyline. */
function distanceToLine(x: number, y: number, points: ArrayLike<number>): number {
  if (points.length < 4) return Math.hypot(points[0] - x, points[1] - y);
  let best = Number.POSITIVE_INFINITY;
  for (let k = 2; k < points.length; k += 2) best = Math.min(best, distToSegmentSq(x, y, points[k - 2], points[k - 1], points[k], points[k + 1]));
  return Math.sqrt(best);
}
