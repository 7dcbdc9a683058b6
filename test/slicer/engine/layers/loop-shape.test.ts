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
