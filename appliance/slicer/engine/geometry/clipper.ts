/**
 * Polygon booleans and offsets through Clipper2 compiled to WebAssembly (clipper2-wasm, the fastest
 * option measured on this hardware, see DESIGN.md). Coordinates cross into WASM as doubles and
 * Clipper2 snaps them to a 0.1 µm integer grid. Every WASM object is deleted before returning,
 * so callers only ever see plain typed arrays.
 */
import factory from 'clipper2-wasm/dist/es/clipper2z.js';
import type { MainModule, PathD, PathsD } from 'clipper2-wasm/dist/clipper2z.js';
import type { ExPolygon, FillRule, JoinType, Polygon, Polyline } from './types.js';
import { nestPolygons } from './nesting.js';
import { signedArea } from './polygon.js';

const C: MainModule = await factory();

/** Decimal places of the integer grid Clipper2 works on: 4 = 0.1 µm. */
const PRECISION = 4;
/** Maximum deviation of a round join from the true arc, in mm. */
const ARC_TOLERANCE = 0.01;

let scratch = new Float64Array(3 * 1024);

/** Loads a path into `target` (x, y, z triples; z unused). */
function assignPath(target: PathD, path: Float64Array): void {
  const n = path.length >> 1;
  if (scratch.length < n * 3) scratch = new Float64Array(n * 3 * 2);
  for (let k = 0, o = 0; k < path.length; k += 2, o += 3) {
    scratch[o] = path[k];
    scratch[o + 1] = path[k + 1];
    scratch[o + 2] = 0;
  }
  target.assign(scratch.subarray(0, n * 3));
}

/**
 * One PathD is filled and copied in for every path: each binding call and handle costs more than
 * copying the points (2.5 times faster than a PathD per path, measured on 3000 paths).
 */
function toPathsD(paths: readonly Float64Array[], minPoints: number): PathsD {
  const out = new C.PathsD();
  const p = new C.PathD();
  for (const path of paths) {
    if (path.length < minPoints * 2) continue;
    assignPath(p, path);
    out.push_back(p);
  }
  p.delete();
  return out;
}

function fromPathD(p: PathD): Float64Array {
  const v = p.view();
  const n = v.length / 3;
  const out = new Float64Array(n * 2);
  for (let k = 0, o = 0; o < out.length; k += 3, o += 2) {
    out[o] = v[k];
    out[o + 1] = v[k + 1];
  }
  return out;
}

function fromPathsD(ps: PathsD, minPoints: number): Float64Array[] {
  const out: Float64Array[] = [];
  const n = ps.size();
  for (let k = 0; k < n; k++) {
    const p = ps.get(k);
    if (p.size() >= minPoints) out.push(fromPathD(p));
    p.delete();
  }
  return out;
}

function fillRuleOf(rule: FillRule) {
  return rule === 'evenodd' ? C.FillRule.EvenOdd : rule === 'positive' ? C.FillRule.Positive : C.FillRule.NonZero;
}

function joinOf(join: JoinType) {
  return join === 'round' ? C.JoinType.Round : join === 'square' ? C.JoinType.Square : C.JoinType.Miter;
}

type ClipKind = 'union' | 'intersection' | 'difference' | 'xor';

function clipTypeOf(kind: ClipKind) {
  switch (kind) {
    case 'union': return C.ClipType.Union;
    case 'intersection': return C.ClipType.Intersection;
    case 'difference': return C.ClipType.Difference;
    case 'xor': return C.ClipType.Xor;
  }
}

function booleanPaths(kind: ClipKind, subject: readonly Polygon[], clip: readonly Polygon[], rule: FillRule): Polygon[] {
  const s = toPathsD(subject, 3);
  const c = toPathsD(clip, 3);
  const r = C.BooleanOpD(clipTypeOf(kind), fillRuleOf(rule), s, c, PRECISION);
  s.delete();
  c.delete();
  const out = fromPathsD(r, 3);
  r.delete();
  return out;
}

/**
 * Boolean with ExPolygon output. Clipper's results are clean (disjoint, contours counter-clockwise,
 * holes clockwise), so the nesting is rebuilt in JS: cheaper than walking a PolyTree through the
 * WASM bindings, which costs a handle per node.
 */
function booleanEx(kind: ClipKind, subject: readonly Polygon[], clip: readonly Polygon[], rule: FillRule): ExPolygon[] {
  return nestPolygons(booleanPaths(kind, subject, clip, rule));
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

function inflate(paths: readonly Float64Array[], delta: number, join: JoinType, closed: boolean, miterLimit: number): PathsD {
  const src = toPathsD(paths, closed ? 3 : 2);
  const endType = closed ? C.EndType.Polygon : C.EndType.Round;
  const r = C.InflatePathsD(src, delta, joinOf(join), endType, miterLimit, PRECISION, ARC_TOLERANCE);
  src.delete();
  return r;
}

/** Offsets closed polygons by delta (positive grows). Orientation decides holes, so pass whole ExPolygon rings. */
export function offset(polys: readonly Polygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): Polygon[] {
  const r = inflate(polys, delta, join, true, miterLimit);
  const out = fromPathsD(r, 3);
  r.delete();
  return out;
}

/** Offsets ExPolygons. Clipper unions what it offsets, so the result is already clean and disjoint. */
export function offsetEx(list: readonly ExPolygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): ExPolygon[] {
  if (list.length === 0) return [];
  return nestPolygons(offset(flatten(list), delta, join, miterLimit));
}

/** Outlines of open polylines thickened to a width (round ends), unioned. */
export function thickenPolylines(lines: readonly Polyline[], width: number): ExPolygon[] {
  if (lines.length === 0) return [];
  const r = inflate(lines, width / 2, 'round', false, 2);
  const paths = fromPathsD(r, 3);
  r.delete();
  return nestPolygons(paths);
}

function clipOpen(kind: 'intersection' | 'difference', lines: readonly Polyline[], clip: readonly ExPolygon[]): Polyline[] {
  if (lines.length === 0) return [];
  if (clip.length === 0) return kind === 'intersection' ? [] : lines.slice();
  const clipper = new C.ClipperD(PRECISION);
  const subj = toPathsD(lines, 2);
  const clips = toPathsD(flatten(clip), 3);
  clipper.AddOpenSubject(subj);
  clipper.AddClip(clips);
  const closed = new C.PathsD();
  const open = new C.PathsD();
  clipper.ExecutePath(clipTypeOf(kind), C.FillRule.NonZero, closed, open);
  const out = fromPathsD(open, 2);
  for (const o of [clipper, subj, clips, closed, open]) o.delete();
  return out;
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
  const src = toPathsD(polys, 3);
  const r = C.SimplifyPathsD(src, epsilon, true);
  src.delete();
  const out = fromPathsD(r, 3).filter((p) => Math.abs(signedArea(p)) > 0);
  r.delete();
  return out;
}

/** Simplifies every ring of the ExPolygons, dropping rings that collapse. */
export function simplifyEx(list: readonly ExPolygon[], epsilon: number): ExPolygon[] {
  const out: ExPolygon[] = [];
  for (const ex of list) {
    const [contour] = simplifyPolygons([ex.contour], epsilon);
    if (!contour) continue;
    out.push({ contour, holes: ex.holes.length ? simplifyPolygons(ex.holes, epsilon) : [] });
  }
  return out;
}
