import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinsLines, layerDirections, rowPlacement } from '../../../../../appliance/slicer/engine/regions/infill/linear.js';

const deg = (rads: number[]) => rads.map((r) => Math.round((r * 180) / Math.PI));

test('directions per layer follow each pattern', () => {
  assert.deepEqual(deg(layerDirections('zig-zag', 45, 0)), [45]);
  assert.deepEqual(deg(layerDirections('zig-zag', 45, 1)), [135]);
  assert.deepEqual(deg(layerDirections('line', 45, 3)), [135]);
  assert.deepEqual(deg(layerDirections('monotonic', 0, 2)), [0]);
  assert.deepEqual(deg(layerDirections('alignedrectilinear', 30, 1)), [30]);
  assert.deepEqual(deg(layerDirections('grid', 45, 1)), [45, 135]);
  assert.deepEqual(deg(layerDirections('triangles', 0, 7)), [0, 60, 120]);
});

test('n directions are spaced n times wider; solid single-direction fills fit their rows', () => {
  assert.deepEqual(rowPlacement(1, 0.4, 0.2), { kind: 'grid', step: 2 });
  assert.deepEqual(rowPlacement(2, 0.4, 0.2), { kind: 'grid', step: 4 });
  assert.ok(Math.abs(rowPlacement(3, 0.4, 0.5).step - 2.4) < 1e-12);
  assert.deepEqual(rowPlacement(1, 0.4, 1), { kind: 'fit', step: 0.4 });
  assert.deepEqual(rowPlacement(2, 0.4, 1), { kind: 'grid', step: 0.8 });
});

test('line-type patterns never join', () => {
  assert.equal(joinsLines('line'), false);
  assert.equal(joinsLines('monotonicline'), false);
  assert.equal(joinsLines('zig-zag'), true);
  assert.equal(joinsLines('gyroid'), true);
});
