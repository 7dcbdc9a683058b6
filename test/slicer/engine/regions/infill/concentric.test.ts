import { test } from 'node:test';
import assert from 'node:assert/strict';
import { concentricLoops } from '../../../../../appliance/slicer/engine/regions/infill/concentric.js';
import { polygonLength } from '../../../../../appliance/slicer/engine/geometry/polygon.js';
import { rect } from './shapes.js';

test('loops start on the outline and step inwards by the spacing until nothing is left', () => {
  const loops = concentricLoops([{ contour: rect(0, 0, 10, 10), holes: [] }], 1, 0.45, 0, 0);
  assert.equal(loops.length, 5, 'sides 10, 8, 6, 4, 2');
  loops.forEach((loop, i) => {
    assert.ok(Math.abs(polygonLength(loop.subarray(0, loop.length - 2)) - 4 * (10 - 2 * i)) < 1e-6);
    assert.deepEqual([loop[0], loop[1]], [loop[loop.length - 2], loop[loop.length - 1]]);
    assert.deepEqual([loop[0], loop[1]], [i, i], 'each loop starts at its corner nearest the previous one');
  });
});

test('around a hole both rings are followed, islands are taken nearest-first', () => {
  const area = [
    { contour: rect(100, 0, 110, 10), holes: [] },
    { contour: rect(0, 0, 20, 20), holes: [rect(8, 8, 12, 12, true)] },
  ];
  const loops = concentricLoops(area, 1, 0.45, 0, 0);
  assert.ok(loops[0][0] < 20, 'the island near the nozzle first');
  const nearHole = loops.filter((l) => l[0] >= 7 && l[0] <= 13 && l[1] >= 7 && l[1] <= 13);
  assert.ok(nearHole.length >= 2, 'the hole gets its own loops');
  assert.ok(loops.some((l) => l[0] >= 100));
});

test('loops shorter than the minimum length are dropped', () => {
  const loops = concentricLoops([{ contour: rect(0, 0, 10, 10), holes: [] }], 1, 17, 0, 0);
  assert.equal(loops.length, 3, 'the loops of perimeter 16 and 8 are too short');
});
