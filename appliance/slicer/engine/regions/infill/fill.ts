/**
 * The fill generator the engine calls for every fill area of every layer: lines laid on the
 * pattern's grid, clipped to the area, joined along the boundary where that is short, ordered
 * nearest-first (or monotonically), returned as ready-to-print extrusions.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { clipPolylines } from '../../geometry/clipper.js';
import { reachesLength, rotatePath, rotatePathsInPlace } from '../../geometry/lines.js';
import { bboxOf } from '../../geometry/polygon.js';
import type { ExPolygon } from '../../geometry/types.js';
import type { Extrusion } from '../../toolpath/types.js';
import { Boundary } from './boundary.js';
import { concentricLoops } from './concentric.js';
import { gyroidWaveDistance, gyroidWaves } from './gyroid.js';
import { hatchIsland, joinsLines, layerDirections, rowPlacement, type LinearPattern } from './linear.js';
import { buildChains, linkPieces, noLinks, type LinkRules } from './link.js';
import { monotonicIsland, orderMonotonic } from './monotonic.js';
import { orderNearest } from './order.js';
import { PiecesBuilder, type Pieces } from './pieces.js';
import { FILL_PATTERNS, type FillRequest } from './types.js';

const DEG = Math.PI / 180;
/** A join may walk this many line spacings along the boundary. */
const LINK_REACH = 2.5;
/** Largest deviation (mm) of the gyroid polylines from the true surface section. */
const GYROID_TOLERANCE = 0.01;
/** PrusaSlicer/OrcaSlicer turn the gyroid by -45° so the default 45° direction leaves it unrotated. */
const GYROID_ANGLE_CORRECTION = -45;
/** How far (mm) a clipped end may lie from the boundary and still be found on it. */
const ON_BOUNDARY = 1e-3;
/** Thinner spacing than this (mm) is a unit mistake, and would produce millions of lines. */
const MIN_SPACING = 0.01;

/**
 * Fills `req.area` with `req.pattern` and returns the extrusions in print order.
 * - The area is where line centres may go: lines end on its edge, the first concentric loop runs on it.
 * - Lines run along `req.angle` (degrees from +X). zig-zag, line and the monotonic patterns turn
 *   90° on odd layers; alignedrectilinear never turns (bridges: pass `bridgeAngle(...)` as is);
 *   grid adds the +90° direction, triangles +60° and +120°; gyroid is turned by angle - 45°.
 * - Sparse rows sit on a global grid (row k at k × spacing × directions / density in the rotated
 *   frame) so layers stack and objects line up; solid single-direction fills instead spread a
 *   whole number of rows over each island.
 * - Joins (on unless `connect` is false; never for line, monotonicline) walk along the area edge
 *   between neighbouring line ends when that is short. Sparse paths shorter than the width are
 *   dropped; solid fills keep paths down to a quarter width, since with its round ends even a short
 *   line fills the crescent where a round area meets its walls.
 */
const SOLID_MIN_LENGTH_SHARE = 0.25;

export function fill(req: FillRequest): Extrusion[] {
  validate(req);
  if (req.area.length === 0 || req.density <= 0) return [];
  const [x, y] = req.start ?? [req.area[0].contour[0], req.area[0].contour[1]];
  const loop = req.pattern === 'concentric';
  return fillPaths(req, x, y).map((points) => ({
    role: req.role,
    points,
    loop,
    width: req.width,
    height: req.height,
    mm3PerMm: req.mm3PerMm,
  }));
}

function fillPaths(req: FillRequest, x: number, y: number): Float64Array[] {
  const connect = joinsLines(req.pattern) && (req.connect ?? true);
  const minLength = req.density >= 1 ? req.width * SOLID_MIN_LENGTH_SHARE : req.width;
  switch (req.pattern) {
    case 'concentric':
      return concentricLoops(req.area, req.spacing / req.density, minLength, x, y);
    case 'gyroid':
      return orderNearest(longEnough(gyroidChains(req, connect), minLength), x, y);
    case 'monotonic':
    case 'monotonicline':
      return monotonicPaths(req, req.pattern, connect, x, y, minLength);
    default:
      return orderNearest(longEnough(linearChains(req, req.pattern, connect), minLength), x, y);
  }
}

function linearChains(req: FillRequest, pattern: LinearPattern, connect: boolean): Float64Array[] {
  const directions = layerDirections(pattern, req.angle, req.layerIndex);
  const placement = rowPlacement(directions.length, req.spacing, req.density);
  const rules: LinkRules = { maxArc: LINK_REACH * placement.step, neighbourRowsOnly: placement.kind === 'fit' };
  const out: Float64Array[] = [];
  for (const ex of req.area) {
    const boundary = new Boundary(ex);
    const pieces = hatchIsland(boundary, directions, placement);
    const links = connect ? linkPieces(boundary, pieces, rules) : noLinks(pieces.count);
    for (const chain of buildChains(boundary, pieces, links).chains) out.push(chain.points);
  }
  return out;
}

function monotonicPaths(req: FillRequest, pattern: LinearPattern, connect: boolean, x: number, y: number, minLength: number): Float64Array[] {
  const directions = layerDirections(pattern, req.angle, req.layerIndex);
  const placement = rowPlacement(1, req.spacing, req.density);
  const islands = req.area.map((ex) => {
    const boundary = new Boundary(ex);
    return monotonicIsland(boundary, hatchIsland(boundary, directions, placement), connect, LINK_REACH * placement.step);
  });
  return orderMonotonic(islands, x, y, minLength);
}

function gyroidChains(req: FillRequest, connect: boolean): Float64Array[] {
  const rotation = (req.angle + GYROID_ANGLE_CORRECTION) * DEG;
  const rules: LinkRules = { maxArc: LINK_REACH * gyroidWaveDistance(req.spacing, req.density), neighbourRowsOnly: false };
  const out: Float64Array[] = [];
  for (const ex of req.area) {
    const box = bboxOf([rotatePath(ex.contour, -rotation)]);
    const waves = gyroidWaves(box, req.z, req.spacing, req.density, GYROID_TOLERANCE);
    rotatePathsInPlace(waves, rotation);
    const boundary = new Boundary(ex);
    const pieces = locatePieces(boundary, clipPolylines(waves, [ex]));
    const links = connect ? linkPieces(boundary, pieces, rules) : noLinks(pieces.count);
    for (const chain of buildChains(boundary, pieces, links).chains) out.push(chain.points);
  }
  return out;
}

/** Pieces from clipped polylines, their ends found on the boundary. */
function locatePieces(boundary: Boundary, paths: readonly Float64Array[]): Pieces {
  const builder = new PiecesBuilder();
  for (const path of paths) {
    const n = path.length;
    const a = boundary.locate(path[0], path[1], ON_BOUNDARY);
    const b = boundary.locate(path[n - 2], path[n - 1], ON_BOUNDARY);
    builder.add(path, a?.ring ?? -1, a?.arc ?? 0, b?.ring ?? -1, b?.arc ?? 0, 0, 0, 0, 0);
  }
  return builder.finish();
}

function longEnough(paths: Float64Array[], minLength: number): Float64Array[] {
  return paths.filter((p) => reachesLength(p, minLength));
}

function validate(req: FillRequest): void {
  const bad = (field: string, value: unknown, rule: string): never => {
    throw new AppError(ErrorCode.invalidSetting, 400, `fill: ${field} ${rule}`, { field, value });
  };
  if (!FILL_PATTERNS.includes(req.pattern)) bad('pattern', req.pattern, `must be one of ${FILL_PATTERNS.join(', ')}`);
  if (!(req.density >= 0 && req.density <= 1)) bad('density', req.density, 'must be within 0..1');
  if (!(req.spacing >= MIN_SPACING)) bad('spacing', req.spacing, `must be at least ${MIN_SPACING} mm`);
  for (const field of ['width', 'height', 'mm3PerMm'] as const) {
    if (!(req[field] > 0) || !Number.isFinite(req[field])) bad(field, req[field], 'must be a positive number');
  }
  for (const field of ['angle', 'z', 'layerIndex'] as const) {
    if (!Number.isFinite(req[field])) bad(field, req[field], 'must be a finite number');
  }
  if (!Array.isArray(req.area) || req.area.some((ex: ExPolygon) => !(ex?.contour instanceof Float64Array))) {
    bad('area', undefined, 'must be a list of ExPolygons with Float64Array contours');
  }
}
