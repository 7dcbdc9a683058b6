import assert from 'node:assert/strict';
import { test } from 'node:test';
import { travelStaysInside } from '../../../../appliance/slicer/engine/toolpath/travel.js';

// A 20 mm square with a 6 mm square hole in the middle.
const island = {
  contour: Float64Array.from([0, 0, 20, 0, 20, 20, 0, 20]),
  holes: [Float64Array.from([7, 7, 7, 13, 13, 13, 13, 7])],
};

test('a travel inside the island stays inside', () => {
  assert.equal(travelStaysInside(1, 1, 19, 2, island), true);
});

test('a travel across the hole leaves the island', () => {
  assert.equal(travelStaysInside(1, 10, 19, 10, island), false);
});

test('a travel to a point outside leaves the island', () => {
  assert.equal(travelStaysInside(1, 1, 25, 1, island), false);
});
