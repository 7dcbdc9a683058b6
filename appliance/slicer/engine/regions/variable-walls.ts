/**
 * Variable-width walls (`wall_generator = arachne`): loops where whole lines fit, and lines whose
 * width follows the part along the medial axis (`medial-axis.ts`) where they do not, so a wall two
 * to three lines wide prints solid instead of as two loops with a gap between them.
 *
 * Each loop's centre region is opened by half a spacing: parts where its two sides would lie
 * closer than one spacing (the lines would overlap) are taken out of the loops. What that leaves
 * uncovered is filled along its axis: next to the outline as a thin wall as wide as the part,
 * between loops and inside the innermost one as gap fill as wide as the gap. Inside the innermost
 * loop only what is two spacings wide stays infill. A part too wide for one line of a sensible width
 * gets two side by side, as Arachne splits a bead that grows too wide. Where Arachne (PrusaSlicer 2.6+,
 * CuraEngine) spreads the width over every bead of a thin part, this keeps the loops at their
 * width and puts the difference into one line on the axis; the area covered is the same.
 *
 * A variable-width line is written as consecutive constant-width extrusions (a new one where the
 * width drifts by more than `WIDTH_TOLERANCE` over at least `MIN_PIECE`), so the G-code writer's rule, E = length × the
 * extrusion's cross-section, holds for every move without a width per point.
 */
import { clipPolylines, differenceEx, offsetEx } from '../geometry/clipper.js';
import { emptyBBox, exArea, extendBBox, pointInExPolygon, polygonLength, reversed, simplifyPolyline } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import { crossSection, spacingOf, widthForSpacing } from './flow.js';
import { NearestGrid } from './infill/nearest.js';
import { medialAxis, type MedialPath } from './medial-axis.js';
import { centreLine, loopsOf, order, type IslandWalls, type WallParams } from './perimeters.js';

/** Width drift (share of the line width) that starts a new constant-width piece. */
const WIDTH_TOLERANCE = 0.1;
/** Shortest constant-width piece (mm) while the width drifts: a gear's teeth otherwise gave tens of thousands of tiny moves. */
const MIN_PIECE = 1;
/** Axis points each side that the thickness is averaged over: the sampled boundary makes it jitter by a few µm. */
const SMOOTHING = 3;
/** PrusaSlicer's Arachne defaults: features under 25 % of the nozzle are left out, thinner lines are widened to 85 %. */
const MIN_FEATURE = 0.25;
const MIN_BEAD = 0.85;
/**
 * Inside the innermost loop only parts at least this many spacings wide stay infill: a narrower
 * strip holds no sparse infill line worth the name (PrusaSlicer's classic walls draw the same line
 * between infill and gap fill), so it is filled along its axis.
 */
const INFILL_MIN_WIDTH = 2;
/** A gap wider than this many spacings is filled with two lines side by side, as Arachne splits a bead that grows too wide. */
const TWO_GAP_LINES = 1.5;
/**
 * A short gap (axis shorter than this many nozzle widths, in a small piece) is left open: a gear
 * has a few in each tooth, and printing them (each with its travel, many with a retraction) took
 * the gearwheel from 25 to 33 minutes for about 0.1 mm² a tooth.
 */
const MIN_GAP_LENGTH = 2.5;
/**
 * Inner loops around less than this many square spacings are left to the gap fill: where a part is
 * just about thick enough for one more loop, the loop survives only in scraps (at the vertices of a
 * faceted ring, in the corners of a letter), and lines around scraps leave gaps beside them.
 */
const MIN_LOOP_AREA = 3;
/** Gaps narrower than this share of a spacing are left: the lines beside them already touch. */
const MIN_GAP = 0.2;

/**
 * A region's parts narrower than `2 × radius` removed, after insetting it by `inset`. Parts within
 * `SCRAP` of that width are removed too: where a part is just as thick as the limit, the facets of
 * a curved outline leave scraps of it here and there, and lines around scraps leave gaps beside them.
 */
function opening(list: ExPolygon[], inset: number, radius: number): ExPolygon[] {
  const shrunk = offsetEx(list, -(inset + radius));
  if (shrunk.length === 0) return [];
  const cores = offsetEx(shrunk, -SCRAP);
  const solid = shrunk.filter((piece) => cores.some((core) => pointInExPolygon(core.contour[0], core.contour[1], piece)));
  return solid.length ? offsetEx(solid, radius) : [];
}

/** How far (mm) a line of two side by side may reach past the outline before it is cut there. */
const OUTLINE_TOLERANCE = 0.02;
/** Thickness margin (mm) that tells a part thick enough for a loop or infill from a scrap left at the limit. */
const SCRAP = 0.01;

/** Pieces with a mean width (2 · area / perimeter) of at least `minWidth`: boolean leftovers along edges are not gaps. */
function withWidth(list: ExPolygon[], minWidth: number): ExPolygon[] {
  return list.filter((ex) => {
    let perimeter = polygonLength(ex.contour);
    for (const h of ex.holes) perimeter += polygonLength(h);
    return perimeter > 0 && (2 * exArea(ex)) / perimeter >= minWidth;
  });
}

/** The walls of one island: loops, thin walls along the outline, gap fill between and inside the loops (see above). */
export function buildVariableWalls(island: ExPolygon, p: WallParams): IslandWalls {
  const outerSpacing = spacingOf(p.outerWidth, p.height);
  const innerSpacing = spacingOf(p.innerWidth, p.height);
  const nozzle = p.nozzle;
  const thin = (region: ExPolygon[]): Extrusion[] =>
    p.detectThinWalls
      ? axisLines(region, island, 'thin-wall', p.height, {
          minThickness: MIN_FEATURE * nozzle,
          minLength: 0,
          maxThickness: 1.5 * (p.outerWidth + outerSpacing),
          beadsOf: (t) => (t >= 2 * MIN_BEAD * nozzle ? 2 : 1),
          spacingFor: (t) => spacingOf(t, p.height),
          widthOf: (t, beads) => (beads === 1 ? Math.max(t, MIN_BEAD * nozzle) : widthForSpacing(spacingOf(t, p.height) / 2, p.height)),
        })
      : [];

  let centre = opening([island], p.outerWidth / 2, outerSpacing / 2);
  if (centre.length === 0) return { walls: thin([island]), innerEdge: [], innerSpacing: outerSpacing };
  const rings = [centre];
  const covered = offsetEx(centre, p.outerWidth / 2);
  const thinWalls = exArea(island) - covered.reduce((a, ex) => a + exArea(ex), 0) > 1e-3 ? thin(differenceEx([island], covered)) : [];

  const gaps: ExPolygon[] = [];
  let edge = offsetEx(centre, -outerSpacing / 2);
  let lastSpacing = outerSpacing;
  for (let depth = 1; depth < p.loops && edge.length; depth++) {
    centre = opening(edge, innerSpacing / 2, innerSpacing / 2).filter((ex) => exArea(ex) >= MIN_LOOP_AREA * innerSpacing * innerSpacing);
    if (centre.length === 0) break;
    gaps.push(...differenceEx(edge, offsetEx(centre, innerSpacing / 2)));
    rings.push(centre);
    edge = offsetEx(centre, -innerSpacing / 2);
    lastSpacing = innerSpacing;
  }
  const innerEdge = edge.length ? opening(edge, 0, (INFILL_MIN_WIDTH / 2) * innerSpacing) : [];
  if (edge.length) gaps.push(...differenceEx(edge, innerEdge));

  const walls = order(
    rings.map((ex, depth) => loopsOf(ex, depth, p)),
    p.sequence,
  );
  const gapFill = axisLines(withWidth(gaps, MIN_GAP * innerSpacing * 0.5), island, 'gap-fill', p.height, {
    minThickness: MIN_GAP * innerSpacing,
    minLength: MIN_GAP_LENGTH * nozzle,
    maxThickness: 2.2 * innerSpacing,
    beadsOf: (t) => (t > TWO_GAP_LINES * innerSpacing ? 2 : 1),
    spacingFor: (t) => t,
    widthOf: (t, beads) => widthForSpacing(t / beads, p.height),
  });
  const last = walls[walls.length - 1]?.points;
  walls.push(...nearestFirst([...thinWalls, ...gapFill], last ? last[last.length - 2] : 0, last ? last[last.length - 1] : 0));
  return { walls, innerEdge, innerSpacing: lastSpacing };
}

/** The length of a path's axis (mm). */
function pathLength(path: MedialPath): number {
  let length = 0;
  const p = path.points;
  for (let k = 2; k < p.length; k += 2) length += Math.hypot(p[k] - p[k - 2], p[k + 1] - p[k - 1]);
  return length;
}

/** Share of a piece its axis lines must cover for them to print it. */
const AXIS_SHARE = 0.5;

/** The area lines along these paths cover: length × thickness. */
function axisArea(paths: MedialPath[]): number {
  let area = 0;
  for (const { points, thickness } of paths) {
    for (let k = 1; k < thickness.length; k++) {
      area += Math.hypot(points[2 * k] - points[2 * k - 2], points[2 * k + 1] - points[2 * k - 1]) * (thickness[k] + thickness[k - 1]) * 0.5;
    }
  }
  return area;
}

interface AxisOptions {
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
function axisLines(region: ExPolygon[], island: ExPolygon, role: 'thin-wall' | 'gap-fill', height: number, o: AxisOptions): Extrusion[] {
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
    const paths = medialAxis([piece], { step, minThickness: o.minThickness, maxThickness: o.maxThickness });
    if (axisArea(paths) < AXIS_SHARE * exArea(piece)) {
      const line = exArea(piece) >= o.minLength ** 2 / 4 ? centreLine(piece, o.widthOf(o.maxThickness, 1), height, role) : null;
      if (line) out.push(line);
      continue;
    }
    // Short paths of a small piece are left out (a few in each tooth of a gear); a large piece keeps
    // them: they are its corners and junctions.
    const lengths = paths.map(pathLength);
    const small = lengths.reduce((a, b) => a + b, 0) < 4 * o.minLength;
    paths.forEach((path, k) => {
      if (!small || lengths[k] >= o.minLength) out.push(...constantWidthPieces(extendEnds(path, island), role, height, o, inside));
    });
  }
  return out;
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
  if (Math.hypot(p[0] - p[2 * n - 2], p[1] - p[2 * n - 1]) < path.thickness[0]) return path;
  const beyond = (end: number, inner: number): number[] | null => {
    const dx = p[2 * end] - p[2 * inner];
    const dy = p[2 * end + 1] - p[2 * inner + 1];
    const len = Math.hypot(dx, dy);
    const t = path.thickness[end];
    if (len < 1e-9 || !pointInExPolygon(p[2 * end] + (dx / len) * t, p[2 * end + 1] + (dy / len) * t, island)) return null;
    return [p[2 * end] + (dx / len) * (t / 2), p[2 * end + 1] + (dy / len) * (t / 2)];
  };
  // The direction at an end comes from a point a little way in, not the last step, which is noisy.
  const back = Math.min(n - 1, 4);
  const head = beyond(0, back);
  const tail = beyond(n - 1, n - 1 - back);
  return {
    points: [...(head ?? []), ...p, ...(tail ?? [])],
    thickness: [...(head ? [path.thickness[0]] : []), ...path.thickness, ...(tail ? [path.thickness[n - 1]] : [])],
  };
}

/**
 * A medial path as consecutive extrusions of constant width (closed when its ends meet). Where the
 * part takes two lines, they run a quarter of its thickness to each side of the axis.
 */
function constantWidthPieces(
  path: MedialPath,
  role: 'thin-wall' | 'gap-fill',
  height: number,
  o: AxisOptions,
  inside: (width: number) => ExPolygon[],
): Extrusion[] {
  const n = path.thickness.length;
  const pts = path.points.slice();
  const thickness = smoothed(path.thickness);
  const closes = n > 3 && Math.hypot(pts[0] - pts[2 * n - 2], pts[1] - pts[2 * n - 1]) < Math.max(thickness[0], thickness[n - 1]);
  if (closes) {
    pts.push(pts[0], pts[1]);
    thickness.push(thickness[0]);
  }
  const beads = thickness.map(o.beadsOf);
  const widths = thickness.map((t, k) => o.widthOf(t, beads[k]));
  const count = widths.length;
  const out: Extrusion[] = [];
  let start = 0;
  while (start < count - 1) {
    let end = start + 1;
    const ref = widths[start];
    let run = 0;
    while (end < count && beads[end] === beads[start] && (run < MIN_PIECE || Math.abs(widths[end] - ref) <= WIDTH_TOLERANCE * ref)) {
      run += Math.hypot(pts[2 * end] - pts[2 * end - 2], pts[2 * end + 1] - pts[2 * end - 1]);
      end++;
    }
    const last = Math.min(end, count - 1);
    let lengthSum = 0;
    let widthSum = 0;
    for (let k = start; k < last; k++) {
      const len = Math.hypot(pts[2 * k + 2] - pts[2 * k], pts[2 * k + 3] - pts[2 * k + 1]);
      lengthSum += len;
      widthSum += len * (widths[k] + widths[k + 1]) * 0.5;
    }
    const width = lengthSum > 0 ? widthSum / lengthSum : ref;
    const whole = closes && start === 0 && last === count - 1;
    const lines =
      beads[start] === 1
        ? [pts.slice(2 * start, 2 * last + 2)]
        : sideBySide(pts, thickness.map(o.spacingFor), start, last, whole, { head: start === 0 && !closes, tail: last === count - 1 && !closes });
    // Two lines are placed by the axis's direction, which turns sharply where arms of the part meet:
    // what would stick out of the island there is cut off.
    const placed =
      beads[start] === 1
        ? lines.map((line) => Float64Array.from(line))
        : clipPolylines(
            lines.map((line) => Float64Array.from(line)),
            inside(width),
          );
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
    const [prev, next] = neighbours(pts, k, closed, 2 * spacing[k]);
    const dx = pts[2 * next] - pts[2 * prev];
    const dy = pts[2 * next + 1] - pts[2 * prev + 1];
    const len = Math.hypot(dx, dy) || 1;
    const off = spacing[k] / 4;
    const along = (k === first && ends.head ? -off : 0) + (k === last && ends.tail ? off : 0);
    const x = pts[2 * k] + (dx / len) * along;
    const y = pts[2 * k + 1] + (dy / len) * along;
    left.push(x - (dy / len) * off, y + (dx / len) * off);
    right.push(x + (dy / len) * off, y - (dx / len) * off);
  }
  return [left, right];
}

/**
 * The points before and after point `k` of a path (a closed path's last point is its first: it wraps
 * round), for its direction there. A neighbour further than `reach` is across a jump of the path (a
 * junction of the axis) and does not count.
 */
function neighbours(pts: number[], k: number, closed: boolean, reach: number): [number, number] {
  const count = pts.length >> 1;
  let prev = k - 1;
  let next = k + 1;
  if (prev < 0) prev = closed ? count - 2 : k;
  if (next > count - 1) next = closed ? 1 : k;
  const far = (j: number) => Math.hypot(pts[2 * j] - pts[2 * k], pts[2 * j + 1] - pts[2 * k + 1]) > reach;
  if (far(prev)) prev = k;
  if (far(next)) next = k;
  return [prev, next];
}

/**
 * Open lines in greedy nearest-first order from (x, y), each from its nearer end; loops keep their
 * place in the order. The axis finds the pieces of a gear's teeth in no useful order: printed as
 * found, the travels between them doubled the gearwheel's print time.
 */
function nearestFirst(lines: Extrusion[], x: number, y: number): Extrusion[] {
  if (lines.length < 2) return lines;
  const box = emptyBBox();
  for (const e of lines) extendBBox(box, e.points);
  const grid = new NearestGrid(box, lines.length * 2);
  lines.forEach((e, i) => {
    const p = e.points;
    grid.insert(i * 2, p[0], p[1]);
    grid.insert(i * 2 + 1, p[p.length - 2], p[p.length - 1]);
  });
  const out: Extrusion[] = [];
  let px = x;
  let py = y;
  while (grid.size > 0) {
    const id = grid.nearest(px, py);
    const i = id >> 1;
    grid.remove(i * 2);
    grid.remove(i * 2 + 1);
    const e = lines[i];
    const line = (id & 1) === 1 && !e.loop ? { ...e, points: reversed(e.points) } : e;
    out.push(line);
    px = line.points[line.points.length - 2];
    py = line.points[line.points.length - 1];
  }
  return out;
}
