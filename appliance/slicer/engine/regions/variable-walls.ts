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
 * The lines along the axis are `axis-lines.ts`'s.
 */
import { differenceEx, offsetEx, piecesKeepingCore } from '../geometry/clipper.js';
import { emptyBBox, exArea, extendBBox, polygonLength, reversed } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import { axisLines, withWidth } from './axis-lines.js';
import { offsetConvexRing, soleConvexRing } from './convex-offsets.js';
import { movedMatch, movedRings } from './offset-events.js';
import { spacingOf, widthForSpacing } from './flow.js';
import { NearestGrid } from './infill/nearest.js';
import { loopsOf, order, type IslandWalls, type WallParams } from './perimeters.js';

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

/** What an opening leaves of a region. */
interface Opened {
  /** The region's parts at least `2 × radius` thick, after insetting it by `inset`. */
  pieces: ExPolygon[];
  /**
   * When the opening took nothing away, the region inset by `inset + radius` (the pieces' loop's
   * inner edge; then `pieces` is the region inset by `inset`, and a line of `2 × radius` around the
   * pieces covers the region to its edge: no thin wall or gap is left); otherwise null.
   */
  core: ExPolygon[] | null;
}

/**
 * A region's parts narrower than `2 × radius` removed, after insetting it by `inset`. Parts within
 * `SCRAP` of that width are removed too: where a part is just as thick as the limit, the facets of
 * a curved outline leave scraps of it here and there, and lines around scraps leave gaps beside them.
 *
 * Where the inset by `inset + radius` is event-free (every edge moved, none lost, no ring split or
 * merged: `offset-events.ts`, point for point or edge for edge) and leaves no scrap, the opening
 * takes nothing away: the result is the region with its edges moved by `inset`, without growing the
 * inset back, and the inset is the core. A convex piece that keeps every edge is known so without
 * any call into Clipper (`convex-offsets.ts`).
 */
function opening(list: ExPolygon[], inset: number, radius: number): Opened {
  const ring = soleConvexRing(list);
  if (ring && offsetConvexRing(ring, -(inset + radius + SCRAP))) {
    const core = offsetConvexRing(ring, -(inset + radius));
    const moved = inset === 0 ? ring : offsetConvexRing(ring, -inset);
    if (core && moved) return { pieces: [{ contour: moved, holes: [] }], core: [{ contour: core, holes: [] }] };
  }
  const shrunk = offsetEx(list, -(inset + radius));
  if (shrunk.length === 0) return { pieces: [], core: null };
  const thick = shrunk.map(surelyThicker);
  if (thick.every(Boolean)) {
    const expected = movedRings(list, -(inset + radius));
    const match = expected && movedMatch(shrunk, expected);
    if (match) {
      const pieces = inset === 0 ? list : movedRings(list, -inset);
      if (pieces) return { pieces, core: shrunk };
    }
  }
  // The inset of the pieces in doubt alone: they are disjoint from the others, and so are their cores.
  const cored = new Set(
    piecesKeepingCore(
      shrunk.filter((_, k) => !thick[k]),
      SCRAP,
    ),
  );
  const solid = shrunk.filter((piece, k) => thick[k] || cored.has(piece));
  return { pieces: solid.length ? offsetEx(solid, radius) : [], core: null };
}

/** `offsetEx`, worked out directly for one convex piece where that is exact (`convex-offsets.ts`). */
function offsetPieces(list: ExPolygon[], delta: number): ExPolygon[] {
  const ring = soleConvexRing(list);
  const moved = ring && offsetConvexRing(ring, delta);
  return moved ? [{ contour: moved, holes: [] }] : offsetEx(list, delta);
}

/** Thickness margin (mm) that tells a part thick enough for a loop or infill from a scrap left at the limit. */
const SCRAP = 0.01;

/**
 * Whether a piece certainly keeps a core when inset by `SCRAP`, found from its area, boundary
 * length and point count instead of another offset (a third of `opening`'s cost on a scanned
 * outline, where nearly every piece is far thicker than the margin). The inset takes a strip
 * `SCRAP` wide along each edge, and around each inward corner at most a disc of three times
 * `SCRAP` (the miter limit of the offset): a piece whose area is twice that, or more, keeps a core.
 * Pieces this does not vouch for go through the offset, so the result is the same either way.
 */
function surelyThicker(piece: ExPolygon): boolean {
  let length = polygonLength(piece.contour);
  let points = piece.contour.length >> 1;
  for (const hole of piece.holes) {
    length += polygonLength(hole);
    points += hole.length >> 1;
  }
  return exArea(piece) > 2 * (SCRAP * length + points * Math.PI * (3 * SCRAP) ** 2);
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

  // Where an opening takes nothing away, the loop around what it leaves covers the region to its
  // edge: no thin wall or gap there, and the offsets and differences that would find none are
  // skipped; the loop's inner edge is the opening's core.
  const outer = opening([island], p.outerWidth / 2, outerSpacing / 2);
  let centre = outer.pieces;
  if (centre.length === 0) return { walls: thin([island]), innerEdge: [], innerSpacing: outerSpacing };
  const rings = [centre];
  const covered = outer.core ? [] : offsetEx(centre, p.outerWidth / 2);
  const thinWalls = !outer.core && exArea(island) - covered.reduce((a, ex) => a + exArea(ex), 0) > 1e-3 ? thin(differenceEx([island], covered)) : [];

  const gaps: ExPolygon[] = [];
  let edge = outer.core ?? offsetPieces(centre, -outerSpacing / 2);
  let lastSpacing = outerSpacing;
  for (let depth = 1; depth < p.loops && edge.length; depth++) {
    const inner = opening(edge, innerSpacing / 2, innerSpacing / 2);
    centre = inner.pieces.filter((ex) => exArea(ex) >= MIN_LOOP_AREA * innerSpacing * innerSpacing);
    if (centre.length === 0) break;
    // Loops left out for their size leave their pieces to the gap fill.
    const core = centre.length === inner.pieces.length ? inner.core : null;
    if (!core) gaps.push(...differenceEx(edge, offsetEx(centre, innerSpacing / 2)));
    rings.push(centre);
    edge = core ?? offsetPieces(centre, -innerSpacing / 2);
    lastSpacing = innerSpacing;
  }
  let innerEdge = edge;
  const infill = edge.length ? opening(edge, 0, (INFILL_MIN_WIDTH / 2) * innerSpacing) : null;
  if (infill) {
    innerEdge = infill.pieces;
    if (!infill.core) gaps.push(...differenceEx(edge, innerEdge));
  }

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
