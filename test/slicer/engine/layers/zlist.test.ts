import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layerSpecs } from '../../../../appliance/slicer/engine/layers/zlist.js';

test('first layer has its own height, the rest are uniform and cut at mid-layer', () => {
  const specs = layerSpecs(1.0, 0.3, 0.2);
  assert.deepEqual(
    specs.map((s) => s.printZ),
    [0.3, 0.5, 0.7, 0.9, 1.1],
  );
  assert.ok(Math.abs(specs[0].sliceZ - 0.15) < 1e-4);
  assert.ok(Math.abs(specs[1].sliceZ - 0.4) < 1e-4 && specs[1].sliceZ > 0.4, 'just above the middle');
  assert.ok(specs.every((s, k) => k === 0 || s.height === 0.2));
});

test('a residue thinner than half a layer is dropped, a thicker one gets a layer cut below the top', () => {
  assert.equal(layerSpecs(1.05, 0.2, 0.2).length, 5);
  const specs = layerSpecs(1.15, 0.2, 0.2);
  assert.equal(specs.length, 6);
  assert.ok(specs[5].sliceZ < 1.15);
});

test('an object shorter than the first layer still gets one layer', () => {
  const specs = layerSpecs(0.1, 0.2, 0.2);
  assert.equal(specs.length, 1);
  assert.equal(specs[0].printZ, 0.1);
});

test('25 mm at 0.2 mm is 125 layers ending at 25', () => {
  const specs = layerSpecs(25, 0.2, 0.2);
  assert.equal(specs.length, 125);
  assert.equal(specs[124].printZ, 25);
});
