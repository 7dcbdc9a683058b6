/**
 * Polygon booleans and offsets through Clipper2 compiled to WebAssembly (clipper2-wasm, the fastest
 * option measured on this hardware, see DESIGN.md). Coordinates cross into WASM as doubles and
 * Clipper2 snaps them to a 0.1 µm integer grid. Every WASM object is deleted before returning,
 * so callers only ever see plain typed arrays.
 */
import factory from 'clipper2-wasm/dist/es/clipper2z.js';
import type { PathD, PathsD } from 'clipper2-wasm/dist/clipper2z.js';
import type { ExPolygon, FillRule, JoinType, Polygon, Polyline } from './types.js';
import { nestPolygons } from './nesting.js';
import { bboxOf, exBBox, pointInExPolygon, signedArea } from './polygon.js';

const C = await factory();

/** Decimal places of the integer grid Clipper2 works on: 4 = 0.1 µm. */
const PRECISION = 4;
/** Maximum deviation of a round join from the true arc, in mm. */
const ARC_TOLERANCE = 0.01;

/*
 * Every WASM object handed to JS costs a binding handle (and garbage). On a slice of many small
 * layers (the corpus's rigid3d platform: 850 layers, 13,000 booleans) the handles are a large part
 * of each boolean's cost, so the inputs go through containers made once and reused, and results
 * are read straight out of WASM memory instead of through a handle per path.
 */
const subjectPaths = new C.PathsD();
const clipPaths = new C.PathsD();
const pathIn = new C.PathD();
/** Booleans run on one clipper and write into containers kept for it, rather than a new result each. */
const clipper = new C.ClipperD(PRECISION);
const closedOut = new C.PathsD();
const openOut = new C.PathsD();

let heapU32 = new Uint32Array(C.HEAPU8.buffer);
let heapF64 = new Float64Array(C.HEAPU8.buffer);

/**
 * Views of the WASM memory, made again when the memory grows: growth detaches the old buffer,
 * which empties every view of it. Checking a view's length is cheaper than comparing with
 * `C.HEAPU8` (read from the module object), and this runs once per path loaded.
 */
function heapViews(): void {
  if (heapF64.length !== 0) return;
  heapU32 = new Uint32Array(C.HEAPU8.buffer);
  heapF64 = new Float64Array(C.HEAPU8.buffer);
}

/** Address of the C++ object behind a binding handle. */
function addressOf(handle: PathD | PathsD): number {
  return (handle as unknown as { $$: { ptr: number } }).$$.ptr;
}

/** Bytes of a PointD: x and y (doubles) and z (a 64-bit integer). */
const POINT_BYTES = 24;
/** Points pathIn's storage holds (its size after the last `assign`, which is at most its capacity). */
let pathInRoom = 0;

/**
 * Loads a path into `pathIn` by writing its points into the vector's storage in WASM memory: the
 * binding's `assign` converts a typed array through several value handles per call, which cost a
 * rigid3d slice 30 ms. The storage grows through `assign` when a path needs more room than it has.
 */
function loadPathIn(path: Float64Array): void {
  const n = path.length >> 1;
  const vector = addressOf(pathIn) >> 2;
  heapViews();
  if (n > pathInRoom) {
    const room = Math.max(n, 2 * pathInRoom, 256);
    pathIn.assign(new Float64Array(room * 3));
    pathInRoom = room;
    heapViews();
  }
  const u32 = heapU32;
  const f64 = heapF64;
  const begin = u32[vector];
  u32[vector + 1] = begin + n * POINT_BYTES;
  for (let k = 0, o = begin >> 3; k < path.length; k += 2, o += 3) {
    f64[o] = path[k];
    f64[o + 1] = path[k + 1];
    f64[o + 2] = 0;
  }
}

/** Fills `target` with the paths of at least `minPoints` points (one copy per path, no handle). */
function loadPaths(target: PathsD, paths: readonly Float64Array[], minPoints: number): PathsD {
  target.clear();
  for (const path of paths) {
    if (path.length < minPoints * 2) continue;
    loadPathIn(path);
    target.push_back(pathIn);
  }
  return target;
}

/**
 * Doubles of the slabs small results are carved from. A typed array of its own costs an allocation
 * outside the JS heap, which was most of `readPaths`' time (booleans return small results by the
 * hundred thousand on the Menger sponge); a slab is freed once no result in it is left. Results
 * kept in the caches hold their slab: 64 KB slabs raised csg-ball-fn200's peak by 5-10 MB, 16 KB
 * slabs keep it where it was.
 */
const SLAB_DOUBLES = 2048;
let slab = new Float64Array(SLAB_DOUBLES);
let slabUsed = 0;

/** Room for a result of `doubles` numbers: a piece of the current slab, or an array of its own when large. */
function resultStore(doubles: number): Float64Array {
  if (doubles > SLAB_DOUBLES / 8) return new Float64Array(doubles);
  if (slabUsed + doubles > SLAB_DOUBLES) {
    slab = new Float64Array(SLAB_DOUBLES);
    slabUsed = 0;
  }
  const store = slab.subarray(slabUsed, slabUsed + doubles);
  slabUsed += doubles;
  return store;
}

/**
 * The paths of a PathsD with at least `minPoints` points, read from WASM memory. A PathsD is a
 * std::vector of std::vector<PointD> (wasm32: begin, end and capacity pointers, 4 bytes each), a
 * PointD is x and y (doubles) and z (a 64-bit integer): 24 bytes. The binding handle keeps the
 * object's address in `$$.ptr`. The paths are views of one array: a typed array of its own costs
 * an allocation outside the heap, ten times a view's cost (booleans return thousands of paths).
 */
function readPaths(ps: PathsD, minPoints: number): Float64Array[] {
  heapViews();
  const u32 = heapU32;
  const f64 = heapF64;
  const at = addressOf(ps) >> 2;
  /** Points of the path whose vector starts at byte `v`: (end - begin) / 24. */
  const pointsAt = (v: number) => (u32[(v >> 2) + 1] - u32[v >> 2]) / 24;
  let doubles = 0;
  for (let v = u32[at], end = u32[at + 1]; v < end; v += 12) {
    const n = pointsAt(v);
    if (n >= minPoints) doubles += n * 2;
  }
  const all = resultStore(doubles);
  const out: Float64Array[] = [];
  let next = 0;
  for (let v = u32[at], end = u32[at + 1]; v < end; v += 12) {
    const n = pointsAt(v);
    if (n < minPoints) continue;
    const first = u32[v >> 2] >> 3;
    const path = all.subarray(next, next + n * 2);
    next += n * 2;
    for (let k = 0, o = first; k < path.length; k += 2, o += 3) {
      path[k] = f64[o];
      path[k + 1] = f64[o + 1];
    }
    out.push(path);
  }
  return out;
}

/** Reads the result of a call, then frees it. */
function takePaths(ps: PathsD, minPoints: number): Float64Array[] {
  const out = readPaths(ps, minPoints);
  ps.delete();
  return out;
}

/**
 * The layout loadPathIn and readPaths rely on, checked once against the bindings: a clipper2-wasm
 * build with another layout fails here, at load, instead of returning wrong geometry.
 */
function checkLayout(): void {
  const probe = [Float64Array.of(1, 2, 3, 4, 5, 6), Float64Array.of(7, 8, 9, 10)];
  const read = readPaths(loadPaths(subjectPaths, probe, 2), 1);
  const second = subjectPaths.get(1);
  const viaBindings = Array.from(second.view());
  second.delete();
  subjectPaths.clear();
  const same = read.length === 2 && probe.every((p, k) => p.length === read[k].length && p.every((v, i) => v === read[k][i]));
  if (!same || viaBindings.join() !== '7,8,0,9,10,0') {
    throw new Error('clipper2-wasm: PathsD is not laid out as geometry/clipper.ts reads it (check the pinned version)');
  }
}
checkLayout();

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
  clipper.Clear();
  clipper.AddSubject(loadPaths(subjectPaths, subject, 3));
  clipper.AddClip(loadPaths(clipPaths, clip, 3));
  closedOut.clear();
  clipper.ExecutePath(clipTypeOf(kind), FILL_RULES[rule], closedOut);
  return readPaths(closedOut, 3);
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

function inflate(paths: readonly Float64Array[], delta: number, join: JoinType, closed: boolean, miterLimit: number): Polygon[] {
  const src = loadPaths(subjectPaths, paths, closed ? 3 : 2);
  const endType = closed ? C.EndType.Polygon : C.EndType.Round;
  return takePaths(C.InflatePathsD(src, delta, JOIN_TYPES[join], endType, miterLimit, PRECISION, ARC_TOLERANCE), 3);
}

/** Offsets closed polygons by delta (positive grows). Orientation decides holes, so pass whole ExPolygon rings. */
export function offset(polys: readonly Polygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): Polygon[] {
  return inflate(polys, delta, join, true, miterLimit);
}

/** Offsets ExPolygons. Clipper unions what it offsets, so the result is already clean and disjoint. */
export function offsetEx(list: readonly ExPolygon[], delta: number, join: JoinType = 'miter', miterLimit = 3): ExPolygon[] {
  if (list.length === 0) return [];
  return nestPolygons(offset(flatten(list), delta, join, miterLimit));
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
  return nestPolygons(inflate(lines, width / 2, 'round', false, 2));
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
  return takePaths(C.SimplifyPathsD(src, epsilon, true), 3).filter((p) => Math.abs(signedArea(p)) > 0);
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
  const kept = (ring: Polygon) => (ring.length >= 6 && Math.abs(signedArea(ring)) > 0 ? ring : null);
  const out: ExPolygon[] = [];
  let k = 0;
  for (const ex of list) {
    const contour = kept(simplified[k++]);
    const holes: Polygon[] = [];
    for (let h = 0; h < ex.holes.length; h++) {
      const hole = kept(simplified[k++]);
      if (hole) holes.push(hole);
    }
    if (contour) out.push({ contour, holes });
  }
  return out;
}
