import assert from 'node:assert/strict';
import { test } from 'node:test';
import { difference, intersection, offset, thickenPolylines, union, xorEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import { C, loadPaths, readAreas, readPaths } from '../../../../appliance/slicer/engine/geometry/wasm-paths.js';

/*
 * geometry/clipper.ts runs booleans and offsets on Clipper2's integer interface with the integers
 * written from JS; these tests hold it to Clipper2's double interface, called through the plain
 * bindings (a path pushed and read back through a handle each), bit for bit.
 */

/** A deterministic generator (the same inputs on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** A star-shaped ring around a random centre, counter-clockwise, or clockwise (a hole) when `reverse`. */
function ring(next: () => number, span: number, points: number, reverse = false): Float64Array {
  const cx = (next() - 0.5) * span;
  const cy = (next() - 0.5) * span;
  const r = 0.5 + next() * 20;
  const out = new Float64Array(points * 2);
  for (let k = 0; k < points; k++) {
    const a = ((reverse ? -k : k) / points) * 2 * Math.PI;
    const rr = r * (0.6 + 0.4 * next());
    out[2 * k] = cx + rr * Math.cos(a);
    out[2 * k + 1] = cy + rr * Math.sin(a);
  }
  return out;
}

function toPathsD(paths: readonly Float64Array[]) {
  const out = new C.PathsD();
  for (const p of paths) {
    const path = C.MakePathD(Array.from(p));
    out.push_back(path);
    path.delete();
  }
  return out;
}

/** The paths of a PathsD of at least 3 points, read through the bindings; deletes it. */
function fromPathsD(ps: ReturnType<typeof toPathsD>): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i < ps.size(); i++) {
    const path = ps.get(i);
    const view = path.view();
    const points = Float64Array.from({ length: (view.length / 3) * 2 }, (_, k) => view[Math.floor(k / 2) * 3 + (k % 2)]);
    path.delete();
    if (points.length >= 6) out.push(points);
  }
  ps.delete();
  return out;
}

type Kind = 'union' | 'intersection' | 'difference' | 'xor';
const CLIP_TYPES = { union: C.ClipType.Union, intersection: C.ClipType.Intersection, difference: C.ClipType.Difference, xor: C.ClipType.Xor };

function referenceBoolean(kind: Kind, subject: Float64Array[], clip: Float64Array[], positive = false): Float64Array[] {
  const clipper = new C.ClipperD(4);
  const s = toPathsD(subject);
  const c = toPathsD(clip);
  const out = new C.PathsD();
  clipper.AddSubject(s);
  clipper.AddClip(c);
  clipper.ExecutePath(CLIP_TYPES[kind], positive ? C.FillRule.Positive : C.FillRule.NonZero, out);
  clipper.delete();
  s.delete();
  c.delete();
  return fromPathsD(out);
}

function referenceOffset(paths: Float64Array[], delta: number, join: 'miter' | 'round', closed: boolean): Float64Array[] {
  const src = toPathsD(paths);
  const jt = join === 'miter' ? C.JoinType.Miter : C.JoinType.Round;
  const out = C.InflatePathsD(src, delta, jt, closed ? C.EndType.Polygon : C.EndType.Round, closed ? 3 : 2, 4, 0.01);
  src.delete();
  return fromPathsD(out);
}

function assertSameBits(actual: readonly Float64Array[], expected: readonly Float64Array[], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} paths, Clipper's double interface ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    assert.equal(actual[i].length, expected[i].length, `${what}: path ${i} has ${actual[i].length / 2} points, not ${expected[i].length / 2}`);
    for (let k = 0; k < actual[i].length; k++) {
      if (!Object.is(actual[i][k], expected[i][k])) assert.fail(`${what}: path ${i} value ${k} is ${actual[i][k]}, not ${expected[i][k]}`);
    }
  }
}

/** Rings on both sides of the origin, some holes, some far out (integers beyond 32 bits) and some on exact halves of the grid. */
function cases(seed: number, count: number): { subject: Float64Array[]; clip: Float64Array[] }[] {
  const next = random(seed);
  const out: { subject: Float64Array[]; clip: Float64Array[] }[] = [];
  for (let c = 0; c < count; c++) {
    const span = c % 7 === 6 ? 600_000 : 200;
    const subject = [ring(next, span, 3 + Math.floor(next() * 60)), ring(next, span, 3 + Math.floor(next() * 60), next() < 0.3)];
    const clip = [ring(next, span, 3 + Math.floor(next() * 40))];
    if (c % 5 === 4) {
      // Coordinates half-way between two grid points: Clipper rounds them away from zero.
      for (const p of [...subject, ...clip]) for (let k = 0; k < p.length; k++) p[k] = (Math.round(p[k] * 16384) + 0.5) / 16384;
    }
    out.push({ subject, clip });
  }
  return out;
}

test('booleans give the double interface’s paths bit for bit (random rings, both signs, beyond 32 bits, on grid halves)', () => {
  for (const { subject, clip } of cases(7, 120)) {
    assertSameBits(union([...subject, ...clip]), referenceBoolean('union', [...subject, ...clip], []), 'union');
    assertSameBits(intersection(subject, clip), referenceBoolean('intersection', subject, clip), 'intersection');
    assertSameBits(difference(subject, clip), referenceBoolean('difference', subject, clip), 'difference');
    assertSameBits(union(subject, 'positive'), referenceBoolean('union', subject, [], true), 'positive union');
    const xor = xorEx([{ contour: subject[0], holes: [] }], [{ contour: clip[0], holes: [] }]).flatMap((ex) => [ex.contour, ...ex.holes]);
    assert.equal(xor.length, referenceBoolean('xor', [subject[0]], [clip[0]]).length, 'xor');
  }
});

test('offsets give the double interface’s paths bit for bit (miter and round joins, open lines with round ends)', () => {
  const next = random(11);
  for (const { subject } of cases(3, 80)) {
    const delta = (next() - 0.5) * 4;
    assertSameBits(offset(subject, delta), referenceOffset(subject, delta, 'miter', true), `miter offset by ${delta}`);
    assertSameBits(offset(subject, delta, 'round'), referenceOffset(subject, delta, 'round', true), `round offset by ${delta}`);
    const width = 0.2 + next();
    const lines = subject.map((p) => p.slice(0, Math.max(4, p.length - 6)));
    const thick = thickenPolylines(lines, width).flatMap((ex) => [ex.contour, ...ex.holes]);
    const expected = referenceOffset(lines, width / 2, 'round', false);
    assert.equal(thick.length, expected.length, 'thickened lines');
    const sorted = (list: Float64Array[]) => list.map((p) => Array.from(p).join()).sort();
    assert.deepEqual(sorted(thick), sorted(expected), 'thickened lines, as a set');
  }
  const square = Float64Array.of(0, 0, 1, 0, 1, 1, 0, 1);
  assertSameBits(offset([square], 0), [square], 'a zero offset returns its input');
});

test('the areas read with a result are signedArea’s, bit for bit', () => {
  const next = random(5);
  const paths = new C.Paths64();
  for (let c = 0; c < 20; c++) {
    const input = [ring(next, 300, 5 + c * 7), ring(next, 300, 40, true)];
    const read = readPaths(loadPaths(paths, input, 3, 16384), 3, 1 / 16384);
    for (const [i, p] of read.entries()) assert.ok(Object.is(readAreas[i], signedArea(p)), `ring ${i}: ${readAreas[i]} against ${signedArea(p)}`);
  }
});

test('an input container emptied behind the loader’s back is filled again correctly', () => {
  const container = new C.PathsD();
  const next = random(9);
  const first = [ring(next, 50, 30), ring(next, 50, 200), ring(next, 50, 8)];
  assertSameBits(readPaths(loadPaths(container, first, 3), 3), first, 'first load');
  container.clear();
  const second = [ring(next, 50, 500), ring(next, 50, 4)];
  assertSameBits(readPaths(loadPaths(container, second, 3), 3), second, 'after a clear');
  const third = [ring(next, 50, 12), ring(next, 50, 700), ring(next, 50, 3), ring(next, 50, 90)];
  assertSameBits(readPaths(loadPaths(container, third, 3), 3), third, 'reusing and adding slots');
  assert.equal(container.size(), 4);
});
