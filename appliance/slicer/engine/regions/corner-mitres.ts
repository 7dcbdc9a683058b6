/**
 * Square corners for lines that run side by side along a medial axis (`axis-lines.ts`).
 *
 * The axis of a strip rounds a convex corner of the strip well inside it: the discs that would
 * reach into the corner touch its two sides at an angle, not opposite, and are pruned. A line
 * offset from the axis towards the corner follows that curve (or cuts straight across where the
 * axis jumps), while the loop or outline beside it turns sharp, and a pocket of 0.2 mm stays open
 * there. Each line runs at a fixed distance from the side it is nearer to; here it is made to keep
 * that distance through a corner, as a mitre: the points between its last one along the first side
 * and its first one along the second move to the point at that distance from both sides. That is
 * done at convex corners (the outer line) and at notches (the inner line, which otherwise cuts
 * across the notch and leaves the middle of the corner open). Points keep their indices, so the
 * caller can still cut the line into pieces by the axis's point numbers.
 */
import { distToSegmentSq, length2, polylineLength, signedArea } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';

/** A corner of a region: its point and the inward unit normals of the sides before and after it. */
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
/** Shortest side (mm) of a corner: a line does not run along the jags of a scanned outline. */
const MIN_SIDE = 0.2;

/** The corners of a region (of its outline and of its holes) that turn either way by `MIN_TURN` to `MAX_TURN`. */
export function sharpCorners(region: ExPolygon): Corner[] {
  const corners: Corner[] = [];
  const sign = signedArea(region.contour) > 0 ? 1 : -1;
  cornersOf(region.contour, sign, corners);
  for (const hole of region.holes) cornersOf(hole, signedArea(hole) < 0 ? 1 : -1, corners);
  return corners;
}

/** Adds the sharp corners of one ring; `sign` is 1 where the region lies to the left of the ring's direction. */
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
    const la = length2(ax, ay);
    const lb = length2(bx, by);
    if (la < MIN_SIDE || lb < MIN_SIDE) continue;
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

/** Points of a line per block whose box is tested against a corner before its points are. */
const BLOCK = 16;
/*
 * Working arrays of mitreCorners, kept from call to call (it never runs inside itself): each point's
 * side of the corner being looked at, the blocks' boxes (5 numbers each), and the run of points near
 * the corner. Made per call and per run they were among the larger sources of garbage of the walls.
 */
let sides = new Int8Array(256);
let blockBoxes = new Float64Array(80);
const corner: number[] = [];

/**
 * Puts the points of `line` (x,y pairs; closed: its last point repeats its first) that round a
 * corner, from running along one of its sides to running along the other, onto the corner's mitre.
 * `distance[k]` is how far from the sides point k runs where the region is straight; points within
 * `reach[k]` of a corner are looked at.
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
  if (sides.length < size) sides = new Int8Array(Math.max(size, 2 * sides.length));
  const side = sides;
  // The box of each block of points, widened by the largest reach in it: a corner further from it
  // than that has none of the block's points near it, and most blocks of a line are far from a corner.
  const blocks = Math.ceil(size / BLOCK);
  if (blockBoxes.length < 5 * blocks) blockBoxes = new Float64Array(Math.max(5 * blocks, 2 * blockBoxes.length));
  const boxes = blockBoxes;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let maxReach = 0;
  for (let b = 0; b < blocks; b++) {
    let bMinX = Number.POSITIVE_INFINITY;
    let bMinY = Number.POSITIVE_INFINITY;
    let bMaxX = Number.NEGATIVE_INFINITY;
    let bMaxY = Number.NEGATIVE_INFINITY;
    let bReach = 0;
    for (let k = b * BLOCK, to = Math.min(k + BLOCK, size); k < to; k++) {
      bMinX = Math.min(bMinX, line[2 * k]);
      bMaxX = Math.max(bMaxX, line[2 * k]);
      bMinY = Math.min(bMinY, line[2 * k + 1]);
      bMaxY = Math.max(bMaxY, line[2 * k + 1]);
      bReach = Math.max(bReach, reach[k]);
    }
    boxes[5 * b] = bMinX;
    boxes[5 * b + 1] = bMinY;
    boxes[5 * b + 2] = bMaxX;
    boxes[5 * b + 3] = bMaxY;
    boxes[5 * b + 4] = bReach;
    minX = Math.min(minX, bMinX);
    minY = Math.min(minY, bMinY);
    maxX = Math.max(maxX, bMaxX);
    maxY = Math.max(maxY, bMaxY);
    maxReach = Math.max(maxReach, bReach);
  }
  for (const c of corners) {
    if (minX - c.x > maxReach || c.x - maxX > maxReach || minY - c.y > maxReach || c.y - maxY > maxReach) continue;
    // Each point near the corner: bit 1 along the first side, bit 2 along the second, 0 along neither; -1 not near.
    let far = -1;
    for (let b = 0; b < blocks; b++) {
      const from = b * BLOCK;
      const to = Math.min(from + BLOCK, size);
      const r = boxes[5 * b + 4];
      if (boxes[5 * b] - c.x > r || c.x - boxes[5 * b + 2] > r || boxes[5 * b + 1] - c.y > r || c.y - boxes[5 * b + 3] > r) {
        side.fill(-1, from, to);
        far = to - 1;
        continue;
      }
      for (let k = from; k < to; k++) {
        const x = line[2 * k] - c.x;
        const y = line[2 * k + 1] - c.y;
        side[k] = -1;
        // The distance is at least the larger of x and y: most points are rejected without it.
        if (Math.abs(x) > reach[k] || Math.abs(y) > reach[k] || length2(x, y) > reach[k]) {
          far = k;
          continue;
        }
        const d1 = x * c.n1x + y * c.n1y;
        const d2 = x * c.n2x + y * c.n2y;
        const tolerance = ALONG_TOLERANCE * distance[k];
        // Along a side means at the line's distance from it, and on that side's half of the corner: short
        // of the other side's mitre line at a convex corner, past it at a notch.
        const before1 = c.convex ? d1 > distance[k] - tolerance : d1 < distance[k] + tolerance;
        const before2 = c.convex ? d2 > distance[k] - tolerance : d2 < distance[k] + tolerance;
        side[k] = (Math.abs(d1 - distance[k]) <= tolerance && before2 ? 1 : 0) + (Math.abs(d2 - distance[k]) <= tolerance && before1 ? 2 : 0);
      }
    }
    // A closed line is walked from a point away from the corner, so that no run of near points wraps round.
    if (closed && far < 0) continue;
    const start = closed ? far + 1 : 0;
    const run = corner;
    run.length = 0;
    for (let step = 0; step <= size; step++) {
      const k = step < size ? (start + step) % size : -1;
      if (k >= 0 && side[k] >= 0) {
        run.push(k);
        continue;
      }
      if (run.length) {
        squareOff(line, run, side, c, distance);
        run.length = 0;
      }
    }
  }
  if (closed) {
    line[2 * size] = line[0];
    line[2 * size + 1] = line[1];
  }
}

/**
 * A run of points near a corner that goes from along one side to along the other: the points from
 * the first along a side to the last are put on the mitre, the line at their distance from the side
 * on whose half they lie, in order along it (where the axis doubled back round the corner, a point
 * that would step back stays where the last one was), and the first on the second half at the
 * point at that distance from both sides, so the line turns there even where it jumped the corner.
 */
function squareOff(line: number[], run: number[], side: Int8Array, c: Corner, distance: readonly number[]): void {
  let first = -1;
  let last = -1;
  let sides = 0;
  run.forEach((k, i) => {
    if (side[k] === 0) return;
    if (first < 0) first = i;
    last = i;
    sides |= side[k];
  });
  if (sides !== 3) return;
  // Unit directions along each side's mitre line, away from the mitre point.
  const away = (nx: number, ny: number, ox: number, oy: number): [number, number] => {
    const flip = (c.convex ? 1 : -1) * (ny * ox - nx * oy) > 0 ? 1 : -1;
    return [flip * ny, -flip * nx];
  };
  const [e1x, e1y] = away(c.n1x, c.n1y, c.n2x, c.n2y);
  const [e2x, e2y] = away(c.n2x, c.n2y, c.n1x, c.n1y);
  const bx = c.n1x + c.n2x;
  const by = c.n1y + c.n2y;
  const bl = length2(bx, by);
  // Position along the mitre: negative on side 1's half, positive on side 2's, 0 at the mitre point.
  const forward = side[run[first]] === 1 ? 1 : -1;
  let reached = Number.NEGATIVE_INFINITY;
  let turned = false;
  for (let i = first; i <= last; i++) {
    const k = run[i];
    const x = line[2 * k] - c.x;
    const y = line[2 * k + 1] - c.y;
    const d1 = x * c.n1x + y * c.n1y;
    const d2 = x * c.n2x + y * c.n2y;
    // A point lies on side 1's half when it is further from side 2 than from side 1 at a convex corner, nearer at a notch.
    const onFirst = c.convex ? d1 < d2 : d1 > d2;
    const mx = (bx / bl) * distance[k] * c.mitre;
    const my = (by / bl) * distance[k] * c.mitre;
    const along = Math.max(0, onFirst ? (x - mx) * e1x + (y - my) * e1y : (x - mx) * e2x + (y - my) * e2y);
    let at = forward * (onFirst ? -along : along);
    at = Math.max(at, reached);
    if (!turned && at >= 0) {
      at = 0;
      turned = true;
    }
    reached = at;
    const position = forward * at;
    const [ex, ey] = position < 0 ? [e1x, e1y] : [e2x, e2y];
    line[2 * k] = c.x + mx + ex * Math.abs(position);
    line[2 * k + 1] = c.y + my + ey * Math.abs(position);
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
    if (!corners.some((c) => length2(p[0] - c.x, p[1] - c.y) < reach)) return true;
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
  if (points.length < 4) return length2(points[0] - x, points[1] - y);
  let best = Number.POSITIVE_INFINITY;
  for (let k = 2; k < points.length; k += 2) best = Math.min(best, distToSegmentSq(x, y, points[k - 2], points[k - 1], points[k], points[k + 1]));
  return Math.sqrt(best);
}
