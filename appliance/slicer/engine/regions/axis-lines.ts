/**
 * Lines along the medial axis of narrow pieces (`medial-axis.ts`), as wide as the piece, for the
 * variable-width walls (`variable-walls.ts`): thin walls next to the outline and gap fill between
 * loops. A variable-width line is written as consecutive constant-width extrusions (a new one where
 * the width drifts by more than `WIDTH_TOLERANCE` over at least `MIN_PIECE`), so the G-code
 * writer's rule, E = length × the extrusion's cross-section, holds for every move without a width
 * per point. Where one line would be too wide, two run side by side.
 */
import { clipPolylines, offsetEx } from '../geometry/clipper.js';
import { exArea, length2, pointInExPolygon, polygonLength, simplifyPolyline } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import { crossSection } from './flow.js';
import { type Corner, sharpCorners, mitreCorners, withoutCoveredStubs } from './corner-mitres.js';
import { medialAxis, type MedialPath } from './medial-axis.js';
import { partOf, pinchedParts } from './pinches.js';
import { centreLine } from './perimeters.js';
import { stripAxis } from './strip-axis.js';

/** Width drift (share of the line width) that starts a new constant-width piece. */
const WIDTH_TOLERANCE = 0.1;
/** Shortest constant-width piece (mm) while the width drifts: a gear's teeth otherwise gave tens of thousands of tiny moves. */
const MIN_PIECE = 1;
/** Axis points each side that the thickness is averaged over: the sampled boundary makes it jitter by a few µm. */
const SMOOTHING = 3;
/** How far (mm) a line of two side by side may reach past the outline before it is cut there. */
const OUTLINE_TOLERANCE = 0.02;

/** Pieces with a mean width (2 · area / perimeter) of at least `minWidth`: boolean leftovers along edges are not gaps. */
export function withWidth(list: ExPolygon[], minWidth: number): ExPolygon[] {
  return list.filter((ex) => {
    let perimeter = polygonLength(ex.contour);
    for (const h of ex.holes) perimeter += polygonLength(h);
    return perimeter > 0 && (2 * exArea(ex)) / perimeter >= minWidth;
  });
}

/** The length of a path's axis (mm). */
function pathLength(path: MedialPath): number {
  let length = 0;
  const p = path.points;
  for (let k = 2; k < p.length; k += 2) length += length2(p[k] - p[k - 2], p[k + 1] - p[k - 1]);
  return length;
}

/** Share of a piece its axis lines must cover for them to print it. */
const AXIS_SHARE = 0.5;

/** The area lines along these paths cover: length × thickness. */
function axisArea(paths: MedialPath[]): number {
  let area = 0;
  for (const { points, thickness } of paths) {
    for (let k = 1; k < thickness.length; k++) {
      area += length2(points[2 * k] - points[2 * k - 2], points[2 * k + 1] - points[2 * k - 1]) * (thickness[k] + thickness[k - 1]) * 0.5;
    }
  }
  return area;
}

export interface AxisOptions {
  minThickness: number;
  /**
   * Paths shorter than this (mm) in a piece whose axis is shorter than four of them, and pieces
   * with no axis smaller than its square's quarter, are not printed.
   */
  minLength: number;
  maxThickness: number;
  /** Lines side by side that fill a part of this thickness: 1, or 2 where one would be too wide for the nozzle. */
  beadsOf: (thickness: number) => 1 | 2;
  /** The spacing a part of this thickness takes: lines side by side share it. */
  spacingFor: (thickness: number) => number;
  /** The width of each of `beads` lines that fill a part of this thickness. */
  widthOf: (thickness: number, beads: 1 | 2) => number;
}

/**
 * Lines along the axis of each narrow piece, as wide as it is. A piece whose axis covers little of
 * it (a small round or square blob: its discs touch two sides at an angle, not opposite) gets the
 * classic centre line.
 */
export function axisLines(region: ExPolygon[], island: ExPolygon, role: 'thin-wall' | 'gap-fill', height: number, o: AxisOptions): Extrusion[] {
  const out: Extrusion[] = [];
  const step = Math.min(0.05, o.minThickness / 2);
  // Where the centre of a line of each width may run without sticking out of the island, by width in hundredths.
  const room = new Map<number, ExPolygon[]>();
  const inside = (width: number): ExPolygon[] => {
    const key = Math.round(width * 100);
    let area = room.get(key);
    if (!area) {
      area = offsetEx([island], -(key / 200 - OUTLINE_TOLERANCE));
      room.set(key, area);
    }
    return area;
  };
  for (const piece of withWidth(region, o.minThickness / 4)) {
    const axisOptions = { step, minThickness: o.minThickness, maxThickness: o.maxThickness };
    const paths = stripAxis(piece, axisOptions) ?? medialAxis([piece], axisOptions);
    if (axisArea(paths) < AXIS_SHARE * exArea(piece)) {
      const line = exArea(piece) >= o.minLength ** 2 / 4 ? centreLine(piece, o.widthOf(o.maxThickness, 1), height, role) : null;
      if (line) out.push(line);
      continue;
    }
    // Short paths of a small piece are left out (a few in each tooth of a gear); a large piece keeps
    // them: they are its corners and junctions.
    const lengths = paths.map(pathLength);
    const small = smallParts(piece, paths, lengths, 4 * o.minLength);
    const corners = sharpCorners(piece);
    const lines: Extrusion[] = [];
    paths.forEach((path, k) => {
      if (!small[k] || lengths[k] >= o.minLength) lines.push(...constantWidthPieces(extendEnds(path, island), role, height, o, inside, corners));
    });
    out.push(...(corners.length ? withoutCoveredStubs(lines, corners) : lines));
  }
  return out;
}

/**
 * For each path, whether the part of the piece it lies in has less than `limit` of axis in all:
 * a piece pinched into parts (`pinches.ts`) is judged part by part, else as a whole.
 */
function smallParts(piece: ExPolygon, paths: MedialPath[], lengths: number[], limit: number): boolean[] {
  const parts = pinchedParts(piece.contour);
  const whole = lengths.reduce((a, b) => a + b, 0) < limit;
  if (parts.length < 2) return paths.map(() => whole);
  const owner = paths.map((path) => partOf(parts, path.points[0], path.points[1]));
  const axis = new Float64Array(parts.length);
  owner.forEach((k, i) => {
    if (k >= 0) axis[k] += lengths[i];
  });
  return owner.map((k) => (k >= 0 ? axis[k] < limit : whole));
}

/**
 * An axis stops where its discs stop touching both sides: at a free end of a strip, half its
 * thickness short of the end (the line's round end covers that), but also where a thin part or a
 * gap meets the loops, which leaves a hole there as wide as the part. An end the island goes on
 * beyond (a point its thickness further is still inside) is such a junction: the path is carried on
 * by half its thickness, so the line reaches the loops.
 */
function extendEnds(path: MedialPath, island: ExPolygon): MedialPath {
  const n = path.thickness.length;
  if (n < 2) return path;
  const p = path.points;
  if (length2(p[0] - p[2 * n - 2], p[1] - p[2 * n - 1]) < path.thickness[0]) return path;
  const beyond = (end: number, inner: number): number[] | null => {
    const dx = p[2 * end] - p[2 * inner];
    const dy = p[2 * end + 1] - p[2 * inner + 1];
    const len = length2(dx, dy);
    const t = path.thickness[end];
    if (len < 1e-9 || !pointInExPolygon(p[2 * end] + (dx / len) * t, p[2 * end + 1] + (dy / len) * t, island)) return null;
    return [p[2 * end] + (dx / len) * (t / 2), p[2 * end + 1] + (dy / len) * (t / 2)];
  };
  // The direction at an end comes from a point a little way in, not the last step, which is noisy.
  const back = Math.min(n - 1, 4);
  const head = beyond(0, back);
  const tail = beyond(n - 1, n - 1 - back);
  if (!head && !tail) return path;
  // Joined with concat, not spread: a spread walks each array with an iterator, an object per point until optimised.
  return {
    points: (head ?? []).concat(p, tail ?? []),
    thickness: (head ? [path.thickness[0]] : []).concat(path.thickness, tail ? [path.thickness[n - 1]] : []),
  };
}

/**
 * A medial path as consecutive extrusions of constant width (closed when its ends meet). Where the
 * part takes two lines, they run a quarter of its spacing to each side of the axis, squared off
 * in the piece's sharp `corners` (`corner-mitres.ts`).
 */
function constantWidthPieces(
  path: MedialPath,
  role: 'thin-wall' | 'gap-fill',
  height: number,
  o: AxisOptions,
  inside: (width: number) => ExPolygon[],
  corners: readonly Corner[],
): Extrusion[] {
  const n = path.thickness.length;
  const pts = path.points.slice();
  const thickness = smoothed(path.thickness);
  const closes = n > 3 && length2(pts[0] - pts[2 * n - 2], pts[1] - pts[2 * n - 1]) < Math.max(thickness[0], thickness[n - 1]);
  if (closes) {
    pts.push(pts[0], pts[1]);
    thickness.push(thickness[0]);
  }
  const beads = thickness.map(o.beadsOf);
  const widths = thickness.map((t, k) => o.widthOf(t, beads[k]));
  const count = widths.length;
  const sides = beads.includes(2) ? sideLines(pts, thickness, o, closes, corners) : null;
  const out: Extrusion[] = [];
  let start = 0;
  while (start < count - 1) {
    let end = start + 1;
    const ref = widths[start];
    let run = 0;
    while (end < count && beads[end] === beads[start] && (run < MIN_PIECE || Math.abs(widths[end] - ref) <= WIDTH_TOLERANCE * ref)) {
      run += length2(pts[2 * end] - pts[2 * end - 2], pts[2 * end + 1] - pts[2 * end - 1]);
      end++;
    }
    const last = Math.min(end, count - 1);
    let lengthSum = 0;
    let widthSum = 0;
    for (let k = start; k < last; k++) {
      const len = length2(pts[2 * k + 2] - pts[2 * k], pts[2 * k + 3] - pts[2 * k + 1]);
      lengthSum += len;
      widthSum += len * (widths[k] + widths[k + 1]) * 0.5;
    }
    const width = lengthSum > 0 ? widthSum / lengthSum : ref;
    const whole = closes && start === 0 && last === count - 1;
    const lines = (beads[start] === 1 || !sides ? [pts] : sides).map((line) => pointsBetween(line, start, last));
    // Two lines are placed by the axis's direction, which turns sharply where arms of the part meet:
    // what would stick out of the island there is cut off.
    const placed = beads[start] === 1 ? lines : clipPolylines(lines, inside(width));
    for (const line of placed) {
      if (line.length < 4) continue;
      out.push({
        role,
        points: simplifyPolyline(line, 0.01),
        loop: whole && beads[start] === 1,
        width,
        height,
        mm3PerMm: crossSection(width, height),
      });
    }
    start = last;
  }
  return out;
}

/** Points `first..last` of a path, copied straight into a typed array (not through a slice and an iterator). */
function pointsBetween(pts: number[], first: number, last: number): Float64Array {
  const out = new Float64Array(2 * (last - first + 1));
  for (let k = 0; k < out.length; k++) out[k] = pts[2 * first + k];
  return out;
}

/**
 * The two lines side by side along a whole path (where it takes one line, they are not used),
 * squared off into the piece's sharp corners: each keeps through a corner the distance from the
 * piece's sides it has along them, half the thickness less a quarter of the spacing.
 */
function sideLines(pts: number[], thickness: number[], o: AxisOptions, closed: boolean, corners: readonly Corner[]): number[][] {
  const spacing = thickness.map(o.spacingFor);
  const lines = sideBySide(pts, spacing, 0, spacing.length - 1, closed, { head: !closed, tail: !closed });
  if (corners.length === 0) return lines;
  const distance = thickness.map((t, k) => t / 2 - spacing[k] / 4);
  const reach = thickness.map((t) => CORNER_REACH * t);
  for (const line of lines) mitreCorners(line, closed, corners, distance, reach);
  return lines;
}

/** How far from a corner (in the part's thicknesses) a line may start to round it. */
const CORNER_REACH = 1.5;

/** Each value averaged with up to `SMOOTHING` neighbours on each side. */
function smoothed(values: number[]): number[] {
  return values.map((_, k) => {
    const from = Math.max(0, k - SMOOTHING);
    const to = Math.min(values.length - 1, k + SMOOTHING);
    let sum = 0;
    for (let j = from; j <= to; j++) sum += values[j];
    return sum / (to - from + 1);
  });
}

/**
 * Two paths a quarter of the local spacing to each side of points `first..last` of an axis: each
 * fills half of it. At the ends of the axis (`ends`) they go on by another quarter: the axis stops
 * half the thickness short of a strip's end, where one line's round end reaches it and two
 * narrower ones' do not.
 */
function sideBySide(
  pts: number[],
  spacing: number[],
  first: number,
  last: number,
  closed: boolean,
  ends: { head: boolean; tail: boolean },
): number[][] {
  const left: number[] = [];
  const right: number[] = [];
  for (let k = first; k <= last; k++) {
    neighbours(pts, k, closed, 2 * spacing[k]);
    const prev = around[0];
    const next = around[1];
    const dx = pts[2 * next] - pts[2 * prev];
    const dy = pts[2 * next + 1] - pts[2 * prev + 1];
    const len = length2(dx, dy) || 1;
    const off = spacing[k] / 4;
    const along = (k === first && ends.head ? -off : 0) + (k === last && ends.tail ? off : 0);
    const x = pts[2 * k] + (dx / len) * along;
    const y = pts[2 * k + 1] + (dy / len) * along;
    left.push(x - (dy / len) * off, y + (dx / len) * off);
    right.push(x + (dy / len) * off, y - (dx / len) * off);
  }
  return [left, right];
}

/** The neighbours `neighbours` found last: before, after. */
const around = new Int32Array(2);

/**
 * The points before and after point `k` of a path (a closed path's last point is its first: it wraps
 * round), for its direction there, into `around`: a pair per point is garbage for every point of
 * every axis. A neighbour further than `reach` is across a jump of the path (a junction of the axis)
 * and does not count.
 */
function neighbours(pts: number[], k: number, closed: boolean, reach: number): void {
  const count = pts.length >> 1;
  let prev = k - 1;
  let next = k + 1;
  if (prev < 0) prev = closed ? count - 2 : k;
  if (next > count - 1) next = closed ? 1 : k;
  if (length2(pts[2 * prev] - pts[2 * k], pts[2 * prev + 1] - pts[2 * k + 1]) > reach) prev = k;
  if (length2(pts[2 * next] - pts[2 * k], pts[2 * next + 1] - pts[2 * k + 1]) > reach) next = k;
  around[0] = prev;
  around[1] = next;
}
