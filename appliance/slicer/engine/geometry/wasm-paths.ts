/**
 * Paths in and out of Clipper2's WebAssembly memory without a binding handle per path. The input
 * containers are written directly and the results read directly: a PathsD or Paths64 is a
 * std::vector of std::vector of points (wasm32: begin, end and capacity pointers, 4 bytes each),
 * a PointD is x and y (doubles) and z (a 64-bit integer), a Point64 x, y and z (64-bit integers):
 * 24 bytes either way. The binding handle keeps the object's address in `$$.ptr`. `checkLayout`
 * proves the layout against the bindings when the module loads.
 */
import factory from 'clipper2-wasm/dist/es/clipper2z.js';
import type { Path64, PathD, Paths64, PathsD } from 'clipper2-wasm/dist/clipper2z.js';

export const C = await factory();

type Container = PathsD | Paths64;

let heapU32 = new Uint32Array(C.HEAPU8.buffer);
let heapI32 = new Int32Array(C.HEAPU8.buffer);
let heapF64 = new Float64Array(C.HEAPU8.buffer);

/**
 * Views of the WASM memory, made again when the memory grows: growth detaches the old buffer,
 * which empties every view of it. Checking a view's length is cheaper than comparing with
 * `C.HEAPU8` (read from the module object), and this runs once per path loaded.
 */
function heapViews(): void {
  if (heapF64.length !== 0) return;
  heapU32 = new Uint32Array(C.HEAPU8.buffer);
  heapI32 = new Int32Array(C.HEAPU8.buffer);
  heapF64 = new Float64Array(C.HEAPU8.buffer);
}

/** Address of the C++ object behind a binding handle. */
function addressOf(handle: PathD | PathsD | Path64 | Paths64): number {
  return (handle as unknown as { $$: { ptr: number } }).$$.ptr;
}

/** Bytes of a point: x and y (doubles or 64-bit integers) and z (a 64-bit integer). */
const POINT_BYTES = 24;
/** Bytes of a std::vector (begin, end and capacity pointers). */
const VECTOR_BYTES = 12;
/** 2^32, the weight of a 64-bit integer's high word. */
const HIGH_WORD = 4294967296;

/** A path of each kind whose storage is handed to a container's slot that needs more room. */
const spareD = new C.PathD();
const spare64 = new C.Path64();
const emptyD = new C.PathD();
const empty64 = new C.Path64();

/**
 * The input containers keep their paths from call to call, each with its storage: a container's
 * first `built` vectors are live even when fewer are in use (those past the container's end are
 * not seen by Clipper and are filled again by the next call). Pushing a path through the binding
 * cost a call into WASM, a copy and an allocation per path, freed again by `clear`; a slot is
 * written directly instead. `end` is the end pointer this module left: if anything else changed
 * the container (a `clear`), the slots past its size are forgotten (leaked, never reused).
 */
const pools = new Map<Container, { built: number; end: number }>();

/**
 * Makes the vector at byte `slot` hold at least `n` points, giving it a spare path's storage when
 * its own is too small (the binding's `assign` makes the spare's storage, and the two vectors swap
 * their pointers, so the spare is left with the slot's old storage, freed by its next `assign`).
 */
function slotRoom(slot: number, n: number, integers: boolean): void {
  heapViews();
  const at = slot >> 2;
  if ((heapU32[at + 2] - heapU32[at]) / POINT_BYTES >= n) return;
  const room = Math.max(n, 64);
  if (integers) spare64.assign(new BigInt64Array(room * 3));
  else spareD.assign(new Float64Array(room * 3));
  heapViews();
  const other = addressOf(integers ? spare64 : spareD) >> 2;
  for (let w = 0; w < 3; w++) {
    const kept = heapU32[at + w];
    heapU32[at + w] = heapU32[other + w];
    heapU32[other + w] = kept;
  }
}

/*
 * The writers leave z alone: a slot's storage only ever comes from `slotRoom`'s `assign` of zeros,
 * and nothing else writes to it, so every z in it is 0.
 */

/** Writes a path's doubles into the vector at byte `slot` (which has the room). */
function writeDoubles(slot: number, path: Float64Array): void {
  const u32 = heapU32;
  const f64 = heapF64;
  const at = slot >> 2;
  const begin = u32[at];
  u32[at + 1] = begin + (path.length >> 1) * POINT_BYTES;
  for (let k = 0, o = begin >> 3; k < path.length; k += 2, o += 3) {
    f64[o] = path[k];
    f64[o + 1] = path[k + 1];
  }
}

/**
 * Writes a path into the vector at byte `slot` (which has the room) as 64-bit integers, each
 * coordinate times `scale` rounded half away from zero: what Clipper2's ScalePath does with a
 * PathD (`std::round(x * scale)`), so the integers are those its double interface would make.
 */
function writeIntegers(slot: number, path: Float64Array, scale: number): void {
  const at = slot >> 2;
  const begin = heapU32[at];
  heapU32[at + 1] = begin + (path.length >> 1) * POINT_BYTES;
  if (!writeSmall(begin >> 2, path, scale)) writeAny(begin >> 2, path, scale);
}

/**
 * The common case, as a loop of its own: every scaled coordinate within ±2^31 (a bed within 131 m of
 * its origin), so the high word is the low word's sign. The magnitude is rounded and the sign put
 * back: Math.round takes halves upwards, std::round away from zero. Returns false, having written
 * part of the path, at the first coordinate beyond.
 */
function writeSmall(w0: number, path: Float64Array, scale: number): boolean {
  const i32 = heapI32;
  for (let k = 0, w = w0; k < path.length; k += 2, w += 6) {
    const vx = path[k] * scale;
    const vy = path[k + 1] * scale;
    if (!(vx > -2147483648 && vy > -2147483648 && vx < 2147483647 && vy < 2147483647)) return false;
    const ax = Math.round(Math.abs(vx)) | 0;
    const ay = Math.round(Math.abs(vy)) | 0;
    const x = vx < 0 ? -ax : ax;
    const y = vy < 0 ? -ay : ay;
    i32[w] = x;
    i32[w + 1] = x >> 31;
    i32[w + 2] = y;
    i32[w + 3] = y >> 31;
  }
  return true;
}

/** Any coordinate: rounded half away from zero, split into the two words of a 64-bit integer. */
function writeAny(w0: number, path: Float64Array, scale: number): void {
  for (let k = 0, w = w0; k < path.length; k += 2, w += 6) {
    writeWide(w, stdRound(path[k] * scale));
    writeWide(w + 2, stdRound(path[k + 1] * scale));
  }
}

/** Writes an integer (below 2^53) as the two words of a 64-bit integer at word `w`. */
function writeWide(w: number, v: number): void {
  const high = Math.floor(v / HIGH_WORD);
  heapU32[w] = v - high * HIGH_WORD;
  heapI32[w + 1] = high;
}

/** `std::round`: to the nearest integer, halves away from zero (Math.round takes halves up). */
export function stdRound(v: number): number {
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/**
 * Fills `target` with the paths of at least `minPoints` points (one copy per path, no handle, no
 * allocation once warm). A Paths64 target takes the coordinates times `scale`, rounded as Clipper2
 * rounds them.
 */
export function loadPaths(target: PathsD, paths: readonly Float64Array[], minPoints: number): PathsD;
export function loadPaths(target: Paths64, paths: readonly Float64Array[], minPoints: number, scale: number): Paths64;
export function loadPaths(target: Container, paths: readonly Float64Array[], minPoints: number, scale = 0): Container {
  const integers = scale !== 0;
  let pool = pools.get(target);
  if (pool === undefined) {
    target.clear();
    pool = { built: 0, end: 0 };
    pools.set(target, pool);
  }
  const outer = addressOf(target) >> 2;
  heapViews();
  if (heapU32[outer + 1] !== pool.end) pool.built = (heapU32[outer + 1] - heapU32[outer]) / VECTOR_BYTES;
  let used = 0;
  for (const path of paths) {
    if (path.length < minPoints * 2) continue;
    if (used === pool.built) {
      heapViews();
      heapU32[outer + 1] = heapU32[outer] + used * VECTOR_BYTES;
      if (integers) (target as Paths64).push_back(empty64);
      else (target as PathsD).push_back(emptyD);
      pool.built++;
    }
    heapViews();
    const slot = heapU32[outer] + used * VECTOR_BYTES;
    slotRoom(slot, path.length >> 1, integers);
    if (integers) writeIntegers(slot, path, scale);
    else writeDoubles(slot, path);
    used++;
  }
  heapViews();
  pool.end = heapU32[outer] + used * VECTOR_BYTES;
  heapU32[outer + 1] = pool.end;
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
  // A view made with the constructor: `subarray` costs twice as much (it looks up the species constructor).
  const store = new Float64Array(slab.buffer, slabUsed * 8, doubles);
  slabUsed += doubles;
  return store;
}

/**
 * Signed areas of the paths the last `readPaths` returned, in their order, as `signedArea` computes
 * them (the same sums in the same order, so the same bits): summed while the points are copied,
 * they spare the nesting a second pass over every point.
 */
export let readAreas = new Float64Array(64);

/**
 * The paths of a container with at least `minPoints` points, read from WASM memory: doubles from a
 * PathsD; from a Paths64, its integers times `inverseScale` (as Clipper2 turns its integer results
 * into doubles: `x * invScale`). The paths are views of one array: a typed array of its own costs
 * an allocation outside the heap, ten times a view's cost (booleans return thousands of paths).
 */
export function readPaths(ps: PathsD, minPoints: number): Float64Array[];
export function readPaths(ps: Paths64, minPoints: number, inverseScale: number): Float64Array[];
export function readPaths(ps: Container, minPoints: number, inverseScale = 0): Float64Array[] {
  heapViews();
  const u32 = heapU32;
  const at = addressOf(ps) >> 2;
  /** Points of the path whose vector starts at byte `v`: (end - begin) / 24. */
  const pointsAt = (v: number) => (u32[(v >> 2) + 1] - u32[v >> 2]) / POINT_BYTES;
  let doubles = 0;
  let count = 0;
  for (let v = u32[at], end = u32[at + 1]; v < end; v += VECTOR_BYTES) {
    const n = pointsAt(v);
    if (n >= minPoints) {
      doubles += n * 2;
      count++;
    }
  }
  if (readAreas.length < count) readAreas = new Float64Array(Math.max(count, 2 * readAreas.length));
  const all = resultStore(doubles);
  const out: Float64Array[] = [];
  let byte = all.byteOffset;
  for (let v = u32[at], end = u32[at + 1]; v < end; v += VECTOR_BYTES) {
    const n = pointsAt(v);
    if (n < minPoints) continue;
    const path = new Float64Array(all.buffer, byte, n * 2);
    byte += n * 16;
    const sum = inverseScale === 0 ? copyDoubles(u32[v >> 2], path) : copyIntegers(u32[v >> 2], path, inverseScale);
    readAreas[out.length] = n < 3 ? 0 : sum / 2;
    out.push(path);
  }
  return out;
}

/** Copies the doubles of the points at byte `first` into `path`; returns twice its signed area. */
function copyDoubles(first: number, path: Float64Array): number {
  const f64 = heapF64;
  const n = path.length >> 1;
  const o0 = first >> 3;
  let px = f64[o0 + (n - 1) * 3];
  let py = f64[o0 + (n - 1) * 3 + 1];
  let sum = 0;
  for (let k = 0, o = o0; k < path.length; k += 2, o += 3) {
    const x = f64[o];
    const y = f64[o + 1];
    path[k] = x;
    path[k + 1] = y;
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum;
}

/** Copies the integers of the points at byte `first` into `path`, times `inverse`; returns twice its signed area. */
function copyIntegers(first: number, path: Float64Array, inverse: number): number {
  const u32 = heapU32;
  const i32 = heapI32;
  const n = path.length >> 1;
  const w0 = first >> 2;
  const last = w0 + (n - 1) * 6;
  let px = (i32[last + 1] * HIGH_WORD + u32[last]) * inverse;
  let py = (i32[last + 3] * HIGH_WORD + u32[last + 2]) * inverse;
  let sum = 0;
  for (let k = 0, w = w0; k < path.length; k += 2, w += 6) {
    const x = (i32[w + 1] * HIGH_WORD + u32[w]) * inverse;
    const y = (i32[w + 3] * HIGH_WORD + u32[w + 2]) * inverse;
    path[k] = x;
    path[k + 1] = y;
    sum += px * y - x * py;
    px = x;
    py = y;
  }
  return sum;
}

/**
 * The layout loadPaths and readPaths rely on, checked once against the bindings: a clipper2-wasm
 * build with another layout fails here, at load, instead of returning wrong geometry.
 */
function checkLayout(): void {
  const probe = [Float64Array.of(1, 2, 3, 4, 5, 6), Float64Array.of(7, 8, -9.5, 10)];
  const doubles = new C.PathsD();
  const integers = new C.Paths64();
  const readD = readPaths(loadPaths(doubles, probe, 2), 1);
  const read64 = readPaths(loadPaths(integers, probe, 2, 2), 1, 0.5);
  const secondD = doubles.get(1);
  const second64 = integers.get(1);
  const viaBindings = `${Array.from(secondD.view()).join()};${Array.from(second64.view()).join()}`;
  secondD.delete();
  second64.delete();
  pools.delete(doubles);
  pools.delete(integers);
  doubles.delete();
  integers.delete();
  const same = (read: Float64Array[]) =>
    read.length === 2 && probe.every((p, k) => p.length === read[k].length && p.every((v, i) => v === read[k][i]));
  // -9.5 * 2 = -19 exactly; 10 * 2 = 20: the integers Clipper2 would make.
  if (!same(readD) || !same(read64) || viaBindings !== '7,8,0,-9.5,10,0;14,16,0,-19,20,0') {
    throw new Error('clipper2-wasm: paths are not laid out as geometry/wasm-paths.ts reads them (check the pinned version)');
  }
}
checkLayout();
