import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loopShapeHash } from '../../../../appliance/slicer/engine/layers/loop-shape.js';

const square = Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10);
const hole = Float64Array.of(3, 3, 3, 6, 6, 6, 6, 3);

test('the same outline hashes the same whatever its loops start at and in whatever order they come', () => {
  const rotated = Float64Array.of(10, 10, 0, 10, 0, 0, 10, 0);
  assert.equal(loopShapeHash([square, hole]), loopShapeHash([hole, rotated]));
});

test('a point on a straight edge (a plane crossing a side diagonal) does not change the hash', () => {
  // 10 × 0.37 is not exact in binary: the extra point is on the edge only to rounding.
  const withPoint = Float64Array.of(0, 0, 10, 0, 10, 0.37 * 10, 10, 10, 0, 10);
  assert.equal(loopShapeHash([withPoint]), loopShapeHash([square]));
});

test('a different outline, a reversed loop or a missing loop hash differently', () => {
  const base = loopShapeHash([square, hole]);
  assert.notEqual(loopShapeHash([Float64Array.of(0, 0, 10, 0, 10, 10.001, 0, 10), hole]), base);
  assert.notEqual(loopShapeHash([Float64Array.of(0, 10, 10, 10, 10, 0, 0, 0), hole]), base);
  assert.notEqual(loopShapeHash([square]), base);
  assert.notEqual(loopShapeHash([]), base);
});

test('a loop longer than the kept-point scratch hashes as its rotation does, and leaves nothing behind for the next', () => {
  const n = 3000;
  const circle = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    circle[i * 2] = 50 + 40 * Math.cos((2 * Math.PI * i) / n);
    circle[i * 2 + 1] = 50 + 40 * Math.sin((2 * Math.PI * i) / n);
  }
  const rotated = Float64Array.of(...circle.subarray(1234), ...circle.subarray(0, 1234));
  const small = loopShapeHash([hole]);
  assert.equal(loopShapeHash([circle]), loopShapeHash([rotated]));
  assert.notEqual(loopShapeHash([circle]), loopShapeHash([circle.subarray(0, 2 * (n - 1))]));
  assert.equal(loopShapeHash([hole]), small);
});
