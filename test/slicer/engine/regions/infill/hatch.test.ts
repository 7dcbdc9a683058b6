import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Boundary } from '../../../../../appliance/slicer/engine/regions/infill/boundary.js';
import { hatch } from '../../../../../appliance/slicer/engine/regions/infill/hatch.js';
import { PiecesBuilder, piecePath, type Pieces } from '../../../../../appliance/slicer/engine/regions/infill/pieces.js';
import type { ExPolygon } from '../../../../../appliance/slicer/engine/geometry/types.js';
import { rect } from './shapes.js';

function run(ex: ExPolygon, angleDeg: number, kind: 'grid' | 'fit', step: number): { boundary: Boundary; pieces: Pieces } {
  const boundary = new Boundary(ex);
  const builder = new PiecesBuilder();
  hatch(boundary, (angleDeg * Math.PI) / 180, { kind, step }, 0, builder);
  return { boundary, pieces: builder.finish() };
}

function pathsOf(pieces: Pieces): Float64Array[] {
  return Array.from({ length: pieces.count }, (_, i) => piecePath(pieces, i));
}

/** The point at an arc position of a ring, found by walking the ring. */
function pointAt(boundary: Boundary, r: number, arc: number): [number, number] {
  const ring = boundary.rings[r];
  const n = ring.length >> 1;
  for (let i = 0; i < n; i++) {
    const a = boundary.arcOn(r, i, 0);
    const b = boundary.arcOn(r, i, 1);
    if (arc >= a && arc <= b) {
      const t = b > a ? (arc - a) / (b - a) : 0;
      const j = (i + 1) % n;
      return [ring[i * 2] + t * (ring[j * 2] - ring[i * 2]), ring[i * 2 + 1] + t * (ring[j * 2 + 1] - ring[i * 2 + 1])];
    }
  }
  throw new Error(`arc ${arc} beyond ring ${r}`);
}

test('grid rows sit at whole multiples of the step in the rotated frame', () => {
  const angle = 30;
  const step = 1.7;
  const { pieces } = run({ contour: rect(2.2, -3.1, 21, 17), holes: [] }, angle, 'grid', step);
  assert.ok(pieces.count > 10);
  const c = Math.cos((angle * Math.PI) / 180);
  const s = Math.sin((angle * Math.PI) / 180);
  for (let i = 0; i < pieces.count; i++) {
    const p = piecePath(pieces, i);
    for (const k of [0, 2]) {
      const y = p[k + 1] * c - p[k] * s;
      assert.ok(Math.abs(y - pieces.row[i] * step) < 1e-9, `piece ${i} is off its row`);
    }
    assert.ok(p[0] * c + p[1] * s < p[2] * c + p[3] * s, 'pieces run along the direction');
  }
});

test('every piece end is recorded at its true place on the boundary', () => {
  const ex = { contour: rect(0, 0, 20, 20), holes: [rect(5, 6, 12, 14, true)] };
  const { boundary, pieces } = run(ex, 17, 'grid', 0.9);
  assert.ok(pieces.endRing.includes(1), 'some pieces end on the hole');
  for (let e = 0; e < pieces.count * 2; e++) {
    const [x, y] = pointAt(boundary, pieces.endRing[e], pieces.endArc[e]);
    const p = piecePath(pieces, e >> 1);
    const o = (e & 1) * 2;
    assert.ok(Math.hypot(x - p[o], y - p[o + 1]) < 1e-9);
  }
});

test('rows through a hole give two pieces, in order along the row', () => {
  const { pieces } = run({ contour: rect(0, 0, 20, 20), holes: [rect(5, 5, 15, 15, true)] }, 0, 'grid', 1);
  const onRow10 = [...Array(pieces.count).keys()].filter((i) => pieces.row[i] === 10);
  assert.equal(onRow10.length, 2);
  assert.deepEqual(
    onRow10.map((i) => [pieces.lo[i], pieces.hi[i]]),
    [
      [0, 5],
      [15, 20],
    ],
  );
});

test('vertices lying exactly on a row are counted once', () => {
  const diamond = { contour: Float64Array.of(0, -5, 5, 0, 0, 5, -5, 0), holes: [] };
  const { pieces } = run(diamond, 0, 'grid', 1);
  assert.deepEqual(Array.from(pieces.row), [-4, -3, -2, -1, 0, 1, 2, 3, 4]);
  const middle = piecePath(pieces, 4);
  assert.deepEqual(Array.from(middle), [-5, 0, 5, 0]);
});

test('fit rows span the extent with a whole number of equal steps', () => {
  const { pieces } = run({ contour: rect(0, 0, 10, 7.3), holes: [] }, 0, 'fit', 0.45);
  const n = Math.round(7.3 / 0.45);
  assert.equal(pieces.count, n + 1);
  const ys = pathsOf(pieces).map((p) => p[1]);
  assert.ok(ys[0] > 0 && ys[0] < 0.01 && ys[n] < 7.3 && ys[n] > 7.29);
  for (let k = 1; k <= n; k++) assert.ok(Math.abs(ys[k] - ys[k - 1] - (ys[n] - ys[0]) / n) < 1e-9);
});

test('an area narrower than half a step still gets one line through its middle', () => {
  const { pieces } = run({ contour: rect(0, 0, 10, 0.2), holes: [] }, 0, 'fit', 0.45);
  assert.equal(pieces.count, 1);
  assert.ok(Math.abs(piecePath(pieces, 0)[1] - 0.1) < 1e-12);
});

test('a sweep after a larger one gives what it gives on its own (its working arrays are reused)', () => {
  const small = { contour: rect(0, 0, 6, 4), holes: [rect(2, 1, 4, 3, true)] };
  const snapshot = (p: Pieces) => ({
    paths: pathsOf(p).map((path) => Array.from(path)),
    ends: [Array.from(p.endRing), Array.from(p.endArc)],
    rows: [Array.from(p.row), Array.from(p.lo), Array.from(p.hi)],
  });
  const alone = snapshot(run(small, 20, 'grid', 0.3).pieces);
  // Many more vertices and rows than the small area, in the fitted placement, then the grid again.
  const large = { contour: rect(-50, -40, 60, 45), holes: [] };
  assert.ok(run(large, 75, 'fit', 0.05).pieces.count > 1000);
  assert.deepEqual(snapshot(run(small, 20, 'grid', 0.3).pieces), alone);
});

test('pieces past the room a builder starts with keep every field', () => {
  const { pieces } = run({ contour: rect(0, 0, 10, 50), holes: [] }, 0, 'grid', 0.1);
  assert.ok(pieces.count > 400);
  for (let i = 0; i < pieces.count; i++) {
    assert.equal(pieces.row[i] - pieces.row[0], i);
    assert.ok(Math.abs(pieces.lo[i] - 0) < 1e-9 && Math.abs(pieces.hi[i] - 10) < 1e-9);
    assert.equal(pieces.endRing[i * 2], 0);
    assert.ok(Math.abs(piecePath(pieces, i)[1] - piecePath(pieces, i)[3]) < 1e-9);
  }
});

test('a row crossing more edges than an insertion sort takes is sorted along the row as well', () => {
  // 40 holes in a row, and the sweep at a slant so that the crossings come unsorted from the edges.
  const holes = Array.from({ length: 40 }, (_, i) => rect(1 + 2 * i, 1, 2 + 2 * i, 3, true));
  const { pieces } = run({ contour: rect(0, 0, 82, 4), holes }, 1, 'grid', 0.5);
  let widest = 0;
  for (let i = 0; i < pieces.count; i++) {
    const row = pieces.row[i];
    let n = 0;
    while (i + n < pieces.count && pieces.row[i + n] === row) n++;
    widest = Math.max(widest, n);
    for (let k = i + 1; k < i + n; k++) assert.ok(pieces.lo[k] >= pieces.hi[k - 1], 'pieces of a row in order, none overlapping');
    i += n - 1;
  }
  assert.ok(widest > 32, `a row of ${widest} pieces`);
});
