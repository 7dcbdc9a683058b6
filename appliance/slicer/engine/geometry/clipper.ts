/**
 * Polygon booleans and offsets through Clipper2 compiled to WebAssembly (clipper2-wasm, the fastest
 * option measured on this hardware, see DESIGN.md). Coordinates cross into WASM as 64-bit integers
 * on the grids Clipper2's double interface would snap them to (1/16384 mm for booleans, 0.1 µm for
 * offsets: see `BOOLEAN_SCALE`), or as doubles for the calls that have no integer form here. Every
 * WASM object is deleted before returning, so callers only ever see plain typed arrays.
 */
import type { ExPolygon, FillRule, JoinType, Polygon, Polyline } from './types.js';
import { nestByArea } from './nesting.js';
import { bboxOf, exBBox, pointInExPolygon } from './polygon.js';
import { C, loadPaths, readAreas, readPaths } from './wasm-paths.js';

/** Decimal places of the grid the double interface works on: 4 = 0.1 µm. */
const PRECISION = 4;
/** Maximum deviation of a round join from the true arc, in mm. */
export const ARC_TOLERANCE = 0.01;

/*
 * The integer interface with the scales the double one uses, which turns every point into a
 * Point64 on the way in (a copy of each path, made in WASM) and back on the way out: writing the
 * integers directly spares those copies, the same integers, so the same results bit for bit.
 * ClipperD(4) scales by the power of two above 10^4 (2^14, "to optimize scaling"), InflatePathsD by
 * 10^4 itself; both turn integers back with a multiplication by 1 / scale.
 */
const BOOLEAN_SCALE = 16384;
export const OFFSET_SCALE = 10 ** PRECISION;

/*
 * Every WASM object handed to JS costs a binding handle (and garbage). On a slice of many small
 * layers (the corpus's rigid3d platform: 850 layers, 13,000 booleans) the handles are a large part
 * of each boolean's cost, so the inputs go through containers made once and reused, and results
 * are read straight out of WASM memory instead of through a handle per path.
 */
const subjectPaths = new C.PathsD();
const clipPaths = new C.PathsD();
const subjects64 = new C.Paths64();
const clips64 = new C.Paths64();
/** Booleans run on one clipper and write into containers kept for it, rather than a new result each. */
const clipper = new C.ClipperD(PRECISION);
const closedOut = new C.PathsD();
const openOut = new C.PathsD();
const clipper64 = new C.Clipper64();
const closed64 = new C.Paths64();

/** Reads the result of a call, then frees it. */
function takePaths(ps: ReturnType<typeof C.InflatePathsD>, minPoints: number): Float64Array[] {
  const out = readPaths(ps, minPoints);
  ps.delete();
  return out;
}

const FILL_RULES = { nonzero: C.FillRule.NonZero, evenodd: C.FillRule.EvenOdd, positive: C.FillRule.Positive } satisfies Record<FillRule, unknown>;
const JOIN_TYPES = { miter: C.JoinType.Miter, round: C.JoinType.Round, square: C.JoinType.Square } satisfies Record<JoinType, unknown>;

type ClipKind = 'union' | 'intersection' | 'difference' | 'xor';

function clipTypeOf(kind: ClipKind) {
  switch (kind) {
    case 'union':
      return C.ClipType.Union;
    case 'intersection':
      return C.ClipType.Intersection;
    case 'difference':
      return C.ClipType.Difference;
    case 'xor':
      return C.ClipType.Xor;
  }
}

function booleanPaths(kind: ClipKind, subject: readonly Polygon[], clip: readonly Polygon[], rule: FillRule): Polygon[] {
  clipper64.Clear();
  clipper64.AddSubject(loadPaths(subjects64, subject, 3, BOOLEAN_SCALE));
  clipper64.AddClip(loadPaths(clips64, clip, 3, BOOLEAN_SCALE));
  clipper64.ExecutePath(clipTypeOf(kind), FILL_RULES[rule], closed64);
  return readPaths(closed64, 3, 1 / BOOLEAN_SCALE);
}

/**
 * Boolean with ExPolygon output. Clipper's results are clean (disjoint, contours counter-clockwise,
 * holes clockwise), so the nesting is rebuilt in JS: cheaper than walking a PolyTree through the
 * WASM bindings, which costs a handle per node.
 */
function booleanEx(kind: ClipKind, subject: readonly Polygon[], clip: readonly Polygon[], rule: FillRule): ExPolygon[] {
  return nestByArea(booleanPaths(kind, subject, clip, rule), readAreas);
}

function flatten(list: readonly ExPolygon[]): Polygon[] {
  const out: Polygon[] = [];
  for (const ex of list) {
    out.push(ex.contour);
    for (const h of ex.holes) out.push(h);
  }
  return out;
}

export function union(polys: readonly Polygon[], rule: FillRule = 'nonzero'): Polygon[] {
  return booleanPaths('union', polys, [], rule);
}

export function unionEx(polys: readonly Polygon[], rule: FillRule = 'nonzero'): ExPolygon[] {
  return booleanEx('union', polys, [], rule);
}

/** Union of ExPolygons (which may overlap) into disjoint ExPolygons. */
export function unionExs(list: readonly ExPolygon[]): ExPolygon[] {
  return booleanEx('union', flatten(list), [], 'nonzero');
}

export function intersection(a: readonly Polygon[], b: readonly Polygon[]): Polygon[] {
  return booleanPaths('intersection', a, b, 'nonzero');
}

export function intersectionEx(a: readonly ExPolygon[], b: readonly ExPolygon[]): ExPolygon[] {
  if (a.length === 0 || b.length === 0) return [];
  return booleanEx('intersection', flatten(a), flatten(b), 'nonzero');
}

/**
 * What every list covers, in one boolean instead of one per list. Each list must be disjoint
 * ExPolygons as Clipper returns them (contours counter-clockwise): with n lists, n - 1 clockwise
 * frames around them all take n - 1 off the winding count, so the positive rule keeps exactly the
 * points inside all n.
 */
export function intersectionOfAll(lists: readonly (readonly ExPolygon[])[]): ExPolygon[] {
  if (lists.length === 0 || lists.some((list) => list.length === 0)) return [];
  if (lists.length === 1) return lists[0].slice();
  const rings = lists.flatMap((list) => flatten(list));
  const box = bboxOf(rings);
  const frame = Float64Array.of(box.minX - 1, box.minY - 1, box.minX - 1, box.maxY + 1, box.maxX + 1, box.maxY + 1, box.maxX + 1, box.minY - 1);
  for (let k = 1; k < lists.length; k++) rings.push(frame);
  return booleanEx('union', rings, [], 'positive');
}

/**
 * `subject` minus what every list covers (differenceEx(subject, intersectionOfAll(lists))) in one
 * boolean: the clip is intersectionOfAll's frames around the lists, which the positive rule fills
 * only inside all of them. Each list and the subject must be disjoint ExPolygons as Clipper returns them.
 */
export function differenceOfAll(subject: readonly ExPolygon[], lists: readonly (readonly ExPolygon[])[]): ExPolygon[] {
  if (subject.length === 0) return [];
  if (lists.length === 0 || lists.some((list) => list.length === 0)) return subject.slice();
  const rings = lists.flatMap((list) => flatten(list));
  const box = bboxOf(rings);
  const frame = Float64Array.of(box.minX - 1, box.minY - 1, box.minX - 1, box.maxY + 1, box.maxX + 1, box.maxY + 1, box.maxX + 1, box.minY - 1);
  for (let k = 1; k < lists.length; k++) rings.push(frame);
  return booleanEx('difference', flatten(subject), rings, 'positive');
}

export function difference(a: readonly Polygon[], b: readonly Polygon[]): Polygon[] {
  return booleanPaths('difference', a, b, 'nonzero');
}

export function differenceEx(a: readonly ExPolygon[], b: readonly ExPolygon[]): ExPolygon[] {
  if (a.length === 0) return [];
  if (b.length === 0) return a.slice();
  return booleanEx('difference', flatten(a), flatten(b), 'nonzero');
}

export function xorEx(a: readonly ExPolygon[], b: readonly ExPolygon[]): ExPolygon[] {
  return booleanEx('xor', flatten(a), flatten(b), 'nonzero');
}

/**
 * InflatePathsD's work on integers: its scale, with the delta and the arc tolerance times the scale
 * as it passes them on. A zero delta returns the input unchanged, which only the double call does.
 */
function inflate(paths: readonly Float64Array[], delta: number, join: JoinType, closed: boolean, miterLimit: number): Polygon[] {
  const minPoints = closed ? 3 : 2;
  const endType = closed ? C.EndType.Polygon : C.EndType.Round;
  if (delta === 0) {
    const src = loadPaths(subjectPaths, paths, minPoints);
    return takePaths(C.InflatePathsD(src, delta, JOIN_TYPES[join], endType, miterLimit, PRECISION, ARC_TOLERANCE), 3);
  }
  const src = loadPaths(subjects64, paths, minPoints, OFFSET_SCALE);
  const out = C.InflatePaths64(src, delta * OFFSET_SCALE, JOIN_TYPES[join], endType, miterLimit, ARC_TOLERANCE * OFFSET_SCALE);
  const read = readPaths(out, 3, 1 / OFFSET_SCALE);
  out.delete();
  return read;
}

/** Offsets closed polygons by delta (positive grows). Orientation decides holes, so pass whole ExPolygon rings. */
export function offset(polys: readonly Polygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): Polygon[] {
  return inflate(polys, delta, join, true, miterLimit);
}

/** Offsets ExPolygons. Clipper unions what it offsets, so the result is already clean and disjoint. */
export function offsetEx(list: readonly ExPolygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): ExPolygon[] {
  if (list.length === 0) return [];
  return nestByArea(offset(flatten(list), delta, join, miterLimit), readAreas);
}

/**
 * The pieces (disjoint, as a boolean returns them) of which something is left when shrunk by
 * `inset`, in their order. One offset of all of them: shrinking each on its own cost a call into
 * Clipper per piece (a curved top's skin gaps are hundreds of small pieces along its edge). What is left
 * of a piece lies inside it, so its first point tells which piece it came from.
 */
export function piecesKeepingCore(pieces: ExPolygon[], inset: number): ExPolygon[] {
  if (pieces.length === 0) return pieces;
  const cores = offsetEx(pieces, -inset);
  if (cores.length === 0) return [];
  const boxes = pieces.map(exBBox);
  const kept = new Set<number>();
  for (const core of cores) {
    const x = core.contour[0];
    const y = core.contour[1];
    const k = boxes.findIndex((b, i) => x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY && pointInExPolygon(x, y, pieces[i]));
    if (k >= 0) kept.add(k);
  }
  return pieces.filter((_, i) => kept.has(i));
}

/** Outlines of open polylines thickened to a width (round ends), unioned. */
export function thickenPolylines(lines: readonly Polyline[], width: number): ExPolygon[] {
  if (lines.length === 0) return [];
  return nestByArea(inflate(lines, width / 2, 'round', false, 2), readAreas);
}

function clipOpen(kind: 'intersection' | 'difference', lines: readonly Polyline[], clip: readonly ExPolygon[]): Polyline[] {
  if (lines.length === 0) return [];
  if (clip.length === 0) return kind === 'intersection' ? [] : lines.slice();
  clipper.Clear();
  clipper.AddOpenSubject(loadPaths(subjectPaths, lines, 2));
  clipper.AddClip(loadPaths(clipPaths, flatten(clip), 3));
  closedOut.clear();
  openOut.clear();
  clipper.ExecutePath(clipTypeOf(kind), C.FillRule.NonZero, closedOut, openOut);
  return readPaths(openOut, 2);
}

/** The parts of open polylines inside the region. */
export function clipPolylines(lines: readonly Polyline[], region: readonly ExPolygon[]): Polyline[] {
  return clipOpen('intersection', lines, region);
}

/** The parts of open polylines outside the region. */
export function subtractFromPolylines(lines: readonly Polyline[], region: readonly ExPolygon[]): Polyline[] {
  return clipOpen('difference', lines, region);
}

export function simplifyPolygons(polys: readonly Polygon[], epsilon: number): Polygon[] {
  const src = loadPaths(subjectPaths, polys, 3);
  return takePaths(C.SimplifyPathsD(src, epsilon, true), 3).filter((_, k) => Math.abs(readAreas[k]) > 0);
}

/**
 * Simplifies every ring of the ExPolygons, dropping rings that collapse (an island goes with its
 * contour). One call for all of them: Clipper simplifies each path on its own and returns them in
 * order, so the rings are found again by position.
 */
export function simplifyEx(list: readonly ExPolygon[], epsilon: number): ExPolygon[] {
  const rings = flatten(list);
  if (rings.length === 0) return [];
  const simplified = takePaths(C.SimplifyPathsD(loadPaths(subjectPaths, rings, 0), epsilon, true), 0);
  const kept = (k: number) => (simplified[k].length >= 6 && Math.abs(readAreas[k]) > 0 ? simplified[k] : null);
  const out: ExPolygon[] = [];
  let k = 0;
  for (const ex of list) {
    const contour = kept(k++);
    const holes: Polygon[] = [];
    for (let h = 0; h < ex.holes.length; h++) {
      const hole = kept(k++);
      if (hole) holes.push(hole);
    }
    if (contour) out.push({ contour, holes });
  }
  return out;
}
