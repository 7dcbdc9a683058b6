/**
 * Gap fill for top skins: what the fill lines of a top surface leave uncovered gets a line along
 * its middle. Straight fill lines cannot follow a curved edge: where the lines run along the wall
 * of a round top (a dome, a lens, the rim of a dish) the last line lies anywhere up to a spacing
 * from it and leaves a crescent open, and where the lines meet a corner at 45° (steps, terraces)
 * a triangle stays open. PrusaSlicer 2.6 and OrcaSlicer fill such gaps after the infill with thin
 * lines ("fill gaps" of solid surfaces); CuraEngine connects its skin lines along the boundary.
 */
import { clipPolylines, differenceEx, piecesKeepingCore, subtractFromPolylines } from '../geometry/clipper.js';
import { exArea, length2 } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import { segmentCapsules } from './capsules.js';
import { crossSection } from './flow.js';
import { insetArea } from './rectangle-inset.js';

/**
 * Gaps narrower than this (mm) at their widest are left open: the cusps between neighbouring line
 * ends along a slanted edge are about this wide everywhere. Somewhat wider cusps, where the lines
 * meet a curved edge at a shallow angle, are filled (on a Ø60 disc some fifty dabs 0.3-1.5 mm long
 * besides the two crescents; at 0.15 mm the triangles where 45° lines meet a step's corner stay open).
 */
const MIN_GAP_WIDTH = 0.1;
/** How far in from the area's edge (in line widths) a gap may lie: the last line is at most a spacing in. */
const EDGE_BAND = 2;
/** Thinnest gap-fill line (share of the fill's width); a narrower gap is filled at this width along its length. */
const MIN_WIDTH_SHARE = 0.25;

/**
 * Gap-fill lines for what `lines` (the fill of `area`, each `width` wide) leave uncovered of it.
 * Each open piece gets one line from end to end along its middle, at the width that puts its
 * area's worth of plastic there (never wider than the fill's lines).
 */
export function skinGapFill(area: readonly ExPolygon[], lines: readonly Extrusion[], width: number, height: number): Extrusion[] {
  if (area.length === 0 || lines.length === 0) return [];
  // Inside, neighbouring lines overlap: a gap can only be near the edge. Only the band along it is
  // compared, with the pieces of line that reach it: thickening and uniting every full line, which
  // overlap their neighbours along their whole length, took two to four times the CPU time (a
  // 100 mm square: 45-75 ms against 18, where its fill takes 5). The pieces are what lies outside
  // the band's inner edge moved half a width further in; their capsules and the band's inner region
  // are subtracted from the area in one boolean, which unites them as it goes (uniting the capsules
  // first, then subtracting, swept them twice).
  const inner = insetArea(area, EDGE_BAND * width);
  const paths = lines.map((e) => e.points);
  const near = inner.length ? subtractFromPolylines(paths, insetArea(inner, width / 2)) : paths;
  const cover: ExPolygon[] = inner.slice();
  for (const capsule of segmentCapsules(near, width)) cover.push({ contour: capsule, holes: [] });
  const open = differenceEx(area, cover).filter((piece) => exArea(piece) >= MIN_GAP_WIDTH * MIN_GAP_WIDTH);
  const out: Extrusion[] = [];
  // Only gaps wider than MIN_GAP_WIDTH somewhere survive shrinking by half of it.
  for (const piece of piecesKeepingCore(open, MIN_GAP_WIDTH / 2)) {
    // A gap around an island of cover (one with a hole) has its middle cut where it crosses the hole.
    const middle = piece.holes.length ? clipPolylines([midline(piece.contour)], [piece]) : [midline(piece.contour)];
    const length = middle.reduce((sum, path) => sum + pathLength(path), 0);
    if (length < MIN_GAP_WIDTH) continue;
    const lineWidth = Math.min(Math.max(exArea(piece) / length, MIN_WIDTH_SHARE * width), width);
    const mm3PerMm = crossSection(Math.max(lineWidth, height), height);
    for (const points of middle) out.push({ role: 'gap-fill', points, loop: false, width: lineWidth, height, mm3PerMm });
  }
  return out;
}

/**
 * The middle of a long thin ring (a crescent, a curved strip, a small triangle): its two farthest
 * vertices are its ends, and the points halfway between the two sides, taken at equal shares of
 * each side's length, run from one end to the other.
 */
export function midline(ring: Float64Array): Float64Array {
  const n = ring.length >> 1;
  const a = farthestFrom(ring, ring[0], ring[1]);
  const b = farthestFrom(ring, ring[a * 2], ring[a * 2 + 1]);
  if (a === b) return ring.slice(0, 2);
  const sideOne = chain(ring, a, b, 1);
  const sideTwo = chain(ring, a, b, n - 1);
  const lengthOne = pathLength(sideOne);
  const lengthTwo = pathLength(sideTwo);
  const samples = Math.max(2, Math.ceil(Math.max(lengthOne, lengthTwo) / MIDLINE_STEP) + 1);
  const one = resample(sideOne, lengthOne, samples);
  const two = resample(sideTwo, lengthTwo, samples);
  for (let i = 0; i < one.length; i++) one[i] = (one[i] + two[i]) / 2;
  return one;
}

/** Distance (mm) between the midline's points: fine enough for a crescent's curve. */
const MIDLINE_STEP = 0.2;

function farthestFrom(ring: Float64Array, x: number, y: number): number {
  let best = 0;
  let bestD = -1;
  for (let i = 0; i < ring.length >> 1; i++) {
    const d = (ring[i * 2] - x) ** 2 + (ring[i * 2 + 1] - y) ** 2;
    if (d > bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** The ring's vertices from `from` to `to`, walking forward (`step` 1) or backward (`step` n − 1). */
function chain(ring: Float64Array, from: number, to: number, step: number): Float64Array {
  const n = ring.length >> 1;
  const points: number[] = [];
  for (let i = from; ; i = (i + step) % n) {
    points.push(ring[i * 2], ring[i * 2 + 1]);
    if (i === to) break;
  }
  return Float64Array.from(points);
}

function pathLength(path: Float64Array): number {
  let length = 0;
  for (let i = 2; i < path.length; i += 2) length += length2(path[i] - path[i - 2], path[i + 1] - path[i - 1]);
  return length;
}

/** `samples` points at equal distances along `path` (of length `length`), its ends included. */
function resample(path: Float64Array, length: number, samples: number): Float64Array {
  const out = new Float64Array(samples * 2);
  let i = 2;
  let walked = 0;
  for (let k = 0; k < samples; k++) {
    const target = (length * k) / (samples - 1);
    let step = length2(path[i] - path[i - 2], path[i + 1] - path[i - 1]);
    while (walked + step < target && i + 2 < path.length) {
      walked += step;
      i += 2;
      step = length2(path[i] - path[i - 2], path[i + 1] - path[i - 1]);
    }
    const t = step > 0 ? Math.min(Math.max((target - walked) / step, 0), 1) : 0;
    out[k * 2] = path[i - 2] + t * (path[i] - path[i - 2]);
    out[k * 2 + 1] = path[i - 1] + t * (path[i + 1] - path[i - 1]);
  }
  return out;
}
