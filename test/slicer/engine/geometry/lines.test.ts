import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PathBuilder, reachesLength, rotatePath, rotatePathsInPlace } from '../../../../appliance/slicer/engine/geometry/lines.js';

test('PathBuilder grows past its capacity and drops repeated points', () => {
  const b = new PathBuilder(2);
  for (let i = 0; i < 100; i++) {
    b.push(i, -i);
    b.push(i, -i);
  }
  assert.equal(b.pointCount, 100);
  const out = b.toArray();
  assert.deepEqual([out[0], out[1], out[198], out[199]], [0, -0, 99, -99]);
  b.clear();
  assert.equal(b.pointCount, 0);
});

test('PathBuilder appends paths forwards and backwards without doubling the joint', () => {
  const b = new PathBuilder();
  b.pushPath(Float64Array.of(0, 0, 1, 0));
  b.pushPath(Float64Array.of(1, 1, 1, 0), true);
  assert.deepEqual(Array.from(b.toArray()), [0, 0, 1, 0, 1, 1]);
});

test('rotatePath turns counter-clockwise about the origin; the in-place form agrees', () => {
  const p = Float64Array.of(1, 0, 0, 2);
  const r = rotatePath(p, Math.PI / 2);
  assert.ok(Math.abs(r[0]) < 1e-12 && Math.abs(r[1] - 1) < 1e-12);
  assert.ok(Math.abs(r[2] + 2) < 1e-12 && Math.abs(r[3]) < 1e-12);
  const q = p.slice();
  rotatePathsInPlace([q], Math.PI / 2);
  assert.deepEqual(Array.from(q), Array.from(r));
  assert.deepEqual(Array.from(p), [1, 0, 0, 2], 'rotatePath leaves its input alone');
});

test('reachesLength compares the length of an open path with a minimum', () => {
  const path = Float64Array.of(0, 0, 3, 4, 3, 5);
  assert.equal(reachesLength(path, 6), true);
  assert.equal(reachesLength(path, 6.01), false);
  assert.equal(reachesLength(Float64Array.of(1, 1), 0.1), false);
});
