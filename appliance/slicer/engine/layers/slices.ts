/**
 * Turns a layer's closed loops into the island outlines (ExPolygons) that every later stage
 * works on: union by the non-zero rule, crack closing, XY compensation, elephant-foot
 * compensation on the first layer, simplification to the profile's resolution.
 */
import { offset, simplifyPolygons, union } from '../geometry/clipper.js';
import { nestPolygons } from '../geometry/nesting.js';
import { reversed, signedArea } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';

export interface OutlineOptions {
  /** slice_closing_radius: cracks narrower than twice this are closed. */
  closingRadius: number;
  /** resolution: simplification tolerance. */
  resolution: number;
  xyContourCompensation: number;
  xyHoleCompensation: number;
  /** Applied only to the first layer. */
  elephantFootCompensation: number;
}

/** Islands smaller than this (mm²) are noise from the mesh, not printable features. */
const MIN_ISLAND_AREA = 0.01;

export function loopsToIslands(loops: readonly Polygon[], opts: OutlineOptions, firstLayer: boolean, hadOpenChains: boolean): ExPolygon[] {
  if (loops.length === 0) return [];
  // Simplify right after the union (which also gives every loop a canonical start, so a prism's
  // layers come out identical): the raw loops hold a point per cut triangle, and every boolean
  // after this costs in proportion to the points.
  let paths = union(loops, 'nonzero');
  if (opts.resolution > 0) paths = simplifyPolygons(paths, opts.resolution);
  // Cracks only exist where the chaining had to close gaps; a watertight layer skips two offsets.
  if (opts.closingRadius > 0 && hadOpenChains) paths = offset(offset(paths, opts.closingRadius), -opts.closingRadius);
  const compensated = opts.xyContourCompensation !== 0 || opts.xyHoleCompensation !== 0 || (firstLayer && opts.elephantFootCompensation > 0);
  if (opts.xyContourCompensation !== 0 || opts.xyHoleCompensation !== 0) {
    paths = compensate(paths, opts.xyContourCompensation, opts.xyHoleCompensation);
  }
  if (firstLayer && opts.elephantFootCompensation > 0) {
    const shrunk = offset(paths, -opts.elephantFootCompensation);
    // A feature thinner than the compensation would vanish from the first layer: keep it as it was.
    if (shrunk.length > 0) paths = shrunk;
  }
  if (opts.resolution > 0 && (hadOpenChains || compensated)) paths = simplifyPolygons(paths, opts.resolution);
  return nestPolygons(paths).filter((ex) => islandArea(ex) >= MIN_ISLAND_AREA);
}

function islandArea(ex: ExPolygon): number {
  let a = signedArea(ex.contour);
  for (const h of ex.holes) a += signedArea(h);
  return a;
}

/** Grows outer contours by `contour` and holes by `hole` (positive enlarges the hole). */
function compensate(paths: Polygon[], contour: number, hole: number): Polygon[] {
  const outers = paths.filter((p) => signedArea(p) > 0);
  const holes = paths.filter((p) => signedArea(p) < 0).map(reversed);
  const grownOuters = contour !== 0 ? offset(outers, contour) : outers;
  const grownHoles = hole !== 0 ? offset(holes, hole) : holes;
  const negHoles = grownHoles.map(reversed);
  return union([...grownOuters, ...negHoles], 'positive');
}
