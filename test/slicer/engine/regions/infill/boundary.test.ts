import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Boundary } from '../../../../../appliance/slicer/engine/regions/infill/boundary.js';
import { PathBuilder } from '../../../../../appliance/slicer/engine/geometry/lines.js';
import { rect } from './shapes.js';

const square = new Boundary({ contour: rect(0, 0, 10, 10), holes: [rect(3, 3, 6, 6, true)] });

function walk(r: number, from: number, to: number, forward: boolean): number[] {
  const b = new PathBuilder();
  square.appendWalk(b, r, from, to, forward);
  return Array.from(b.toArray());
}

test('rings are measured by arc length from their first vertex', () => {
  assert.equal(square.ringLength(0), 40);
  assert.equal(square.ringLength(1), 12);
  assert.equal(square.arcOn(0, 1, 0.25), 12.5);
});

test('walks list the vertices between two positions, in either direction and across the start', () => {
  assert.deepEqual(walk(0, 5, 35, true), [10, 0, 10, 10, 0, 10]);
  assert.deepEqual(walk(0, 35, 5, true), [0, 0]);
  assert.deepEqual(walk(0, 5, 35, false), [0, 0]);
  assert.deepEqual(walk(0, 35, 5, false), [0, 10, 10, 10, 10, 0]);
  assert.deepEqual(walk(0, 10, 20, true), [], 'end points on vertices are not repeated');
  assert.deepEqual(walk(0, 12, 12, true), []);
  assert.deepEqual(walk(1, 1, 11, true), [3, 6, 6, 6, 6, 3]);
});

test('locate finds the ring and arc position of points on the boundary only', () => {
  assert.deepEqual(square.locate(10, 3, 1e-3), { ring: 0, arc: 13 });
  const onHole = square.locate(4.5, 6, 1e-3);
  assert.equal(onHole?.ring, 1);
  assert.ok(Math.abs((onHole?.arc ?? 0) - 4.5) < 1e-9);
  assert.equal(square.locate(5, 1, 1e-3), null);
});
