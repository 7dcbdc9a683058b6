/**
 * The outline a sketch extrudes, in millimetres with y up: from an SVG path or the filled shapes of
 * an SVG document (flattened, flipped so the drawing reads the same seen from above, holes left to
 * the fill rule) or from an outline
 * and hole polylines (each hole cut from the outline whichever way it runs). Every problem a user
 * can fix — a syntax error, nothing drawn, edges that cross, a hole outside the outline, a drawing
 * too large to print without scaling — is found here, in plain JavaScript, so the POST answers it
 * as a 400 before a job is made.
 */
import { firstCrossing, insidePolygon, signedArea } from '../geometry/polygons.js';
import { svgDocumentShapes } from '../geometry/svg-document.js';
import { flattenPath, PathSyntaxError, type Point } from '../geometry/svg-path.js';

export interface SketchSource {
  source: 'path' | 'svg' | 'points';
  path: string;
  svg: string;
  points: Point[];
  holes: Point[][];
  fit_size: number;
  tolerance: number;
}

export interface SketchOutline {
  /** Shapes, each of polygons filled by the fill rule, then united: a path is one shape, a document one per element, points one. */
  shapes: Point[][][];
  /** For points: the holes, each counter-clockwise. */
  holes: Point[][];
}

/** The largest drawing (mm) taken as it is; past it, fit_size must scale it. */
export const MAX_SKETCH_MM = 400;
/** Points a flattened drawing may have: far more than a printer can show, few enough to build quickly. */
export const MAX_FLATTENED_POINTS = 200_000;
const MIN_AREA = 1e-6;

/** Thrown for an outline a user has to fix; the message says what. */
export class SketchError extends Error {}

function bounds(polygons: readonly Point[][]): { min: Point; max: Point } {
  const min: Point = [Infinity, Infinity];
  const max: Point = [-Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [x, y] of polygon) {
      [min[0], min[1]] = [Math.min(min[0], x), Math.min(min[1], y)];
      [max[0], max[1]] = [Math.max(max[0], x), Math.max(max[1], y)];
    }
  }
  return { min, max };
}

/** The factor that makes the larger side fit_size (1 when fit_size is 0), checking the result's size. */
function scaleFor(polygons: readonly Point[][], fitSize: number): number {
  const { min, max } = bounds(polygons);
  const extent = Math.max(max[0] - min[0], max[1] - min[1]);
  if (!(extent > 0)) throw new SketchError('the drawing has no extent');
  if (fitSize > 0) return fitSize / extent;
  if (extent > MAX_SKETCH_MM) throw new SketchError(`the drawing is ${Math.round(extent)} mm across: set fit_size to scale it`);
  return 1;
}

const counterClockwise = (polygon: Point[]): Point[] => (signedArea(polygon) < 0 ? [...polygon].reverse() : polygon);

/** A path or a document: flattened once to find its size, again within the tolerance after scaling. */
function drawingOutline(p: SketchSource): SketchOutline {
  const what = p.source === 'path' ? 'path' : 'svg';
  const flatten = (tolerance: number) => (p.source === 'path' ? [flattenPath(p.path, tolerance)] : svgDocumentShapes(p.svg, tolerance));
  let shapes: Point[][][];
  try {
    shapes = flatten(p.tolerance);
    if (shapes.flat().length > 0 && p.fit_size > 0) shapes = flatten(p.tolerance / scaleFor(shapes.flat(), p.fit_size));
  } catch (err) {
    if (err instanceof PathSyntaxError) throw new SketchError(`${what}: ${err.message}`);
    throw err;
  }
  const points = shapes.flat().reduce((n, polygon) => n + polygon.length, 0);
  if (points > MAX_FLATTENED_POINTS)
    throw new SketchError(`the ${what} flattens to ${points} points (at most ${MAX_FLATTENED_POINTS}): raise the tolerance`);
  if (shapes.flat().every((polygon) => Math.abs(signedArea(polygon)) < MIN_AREA))
    throw new SketchError(`the ${what} draws no filled shape with an area`);
  const scale = scaleFor(shapes.flat(), p.fit_size);
  return { shapes: shapes.map((shape) => shape.map((polygon) => polygon.map(([x, y]): Point => [x * scale, -y * scale]))), holes: [] };
}

function pointsOutline(p: SketchSource): SketchOutline {
  const all = [p.points, ...p.holes];
  if (all.some((polygon) => polygon.length < 3)) throw new SketchError('the outline and every hole need at least 3 points');
  const crossing = firstCrossing(all);
  if (crossing) {
    const name = (polygon: number) => (polygon === 0 ? 'the outline' : `hole ${polygon}`);
    const [a, b] = [crossing.first[0], crossing.second[0]].sort((x, y) => x - y);
    throw new SketchError(
      a === b ? `${name(a)} crosses itself (edges ${crossing.first[1]} and ${crossing.second[1]})` : `${name(a)} and ${name(b)} cross`,
    );
  }
  if (Math.abs(signedArea(p.points)) < MIN_AREA) throw new SketchError('the outline has no area');
  const outside = p.holes.findIndex((hole) => !insidePolygon(hole[0], p.points));
  if (outside >= 0) throw new SketchError(`hole ${outside + 1} is outside the outline`);
  const scale = scaleFor([p.points], p.fit_size);
  const scaled = (polygon: Point[]) => counterClockwise(polygon.map(([x, y]): Point => [x * scale, y * scale]));
  return { shapes: [[scaled(p.points)]], holes: p.holes.map(scaled) };
}

/** The outline in mm; throws SketchError for an input a user must fix. */
export function sketchOutline(p: SketchSource): SketchOutline {
  return p.source === 'points' ? pointsOutline(p) : drawingOutline(p);
}
