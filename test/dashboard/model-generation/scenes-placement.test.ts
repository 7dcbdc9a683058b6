/**
 * The geometry of scenes on its own: an object's transform (mirror keeps the solid outward-facing,
 * rotation and scale give the expected size, the bounding box's centre lands on `translate`, a
 * sunk object is cut closed at the bed), footprints (convex hull), their overlap, the bed test and
 * the shelf arrangement.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { arrange } from '../../../appliance/dashboard/model-generation/scenes/arrange.js';
import { convexHull, insidePolygon, overlapDepth, placeObject, type Point } from '../../../appliance/dashboard/model-generation/scenes/placement.js';
import { fullTransform } from '../../../appliance/dashboard/model-generation/scenes/scene.js';
import { meshBounds } from '../../../appliance/slicer/engine/mesh/bounds.js';
import { box, meshVolume } from '../../fixtures/meshes.js';

const square = (x: number, y: number, side: number): Point[] => [
  [x, y],
  [x + side, y],
  [x + side, y + side],
  [x, y + side],
];

test('a placed object: mirrored, scaled and turned, its bounding box centred on translate, resting on the bed', async () => {
  const kernel = await manifoldKernel();
  const brick = box(20, 10, 4, [5, 5, 3]);
  const placed = await placeObject(
    kernel,
    'brick',
    brick,
    fullTransform({ translate: { x: 12, y: -7 }, rotate: { z: 90 }, scale: { x: 2 }, mirror: { x: true } }),
  );
  assert.deepEqual(
    placed.size.map((s) => Number(s.toFixed(6))),
    [10, 40, 4],
    'scaled along its own X, then turned',
  );
  const bounds = meshBounds(placed.mesh);
  assert.deepEqual(
    [bounds.min[2], (bounds.min[0] + bounds.max[0]) / 2, (bounds.min[1] + bounds.max[1]) / 2].map((v) => Number(v.toFixed(6)) + 0),
    [0, 0, 0],
  );
  assert.deepEqual(placed.offset, [12, -7]);
  assert.ok(meshVolume(placed.mesh) > 0, 'mirroring kept the faces outward');
  const xs = placed.footprint.map((p) => p[0]);
  assert.deepEqual(
    [Math.min(...xs), Math.max(...xs)].map((v) => Number(v.toFixed(6))),
    [7, 17],
    'the footprint is where the object is',
  );
});

test('a sunk object is cut at the bed into a closed solid', async () => {
  const placed = await placeObject(await manifoldKernel(), 'brick', box(20, 10, 4), fullTransform({ translate: { z: -1.5 } }));
  assert.ok(Math.abs(placed.size[2] - 2.5) < 1e-5, `${placed.size[2]} mm above the bed`);
  assert.ok(Math.abs(meshVolume(placed.mesh) - 20 * 10 * 2.5) < 1e-2);
  await assert.rejects(
    placeObject(await manifoldKernel(), 'brick', box(20, 10, 4), fullTransform({ translate: { z: -4 } })),
    /nothing of the object is left above the bed/,
  );
});

test('footprints: the convex hull, overlap depth by separating axes, and the bed test', () => {
  const vertices = Float32Array.from([0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0, 5, 5, 3, 5, 5, 0]);
  assert.deepEqual(convexHull(vertices), square(0, 0, 10), 'counter-clockwise, the inner points left out');
  assert.equal(overlapDepth(square(0, 0, 10), square(10, 0, 10)), 0, 'touching is not overlapping');
  assert.equal(overlapDepth(square(0, 0, 10), square(12, 0, 10)), 0);
  assert.ok(Math.abs(overlapDepth(square(0, 0, 10), square(7, 2, 10)) - 3) < 1e-9);
  const diamond: Point[] = [
    [5, -1],
    [11, 5],
    [5, 11],
    [-1, 5],
  ];
  assert.equal(overlapDepth(diamond, square(10, 10, 5)), 0, 'apart along a diagonal, though their boxes overlap');
  const bed = square(0, 0, 220);
  assert.equal(insidePolygon([0, 0], bed), true, 'the edge counts');
  assert.equal(insidePolygon([110, 219.9], bed), true);
  assert.equal(insidePolygon([220.1, 5], bed), false);
});

test('arranging: rows of footprints centred on the bed, the deepest first; null when they do not fit', () => {
  const footprints = [
    { size: [40, 20] as Point, centre: [0, 0] as Point },
    { size: [40, 30] as Point, centre: [1, 0] as Point },
    { size: [40, 20] as Point, centre: [0, 0] as Point },
  ];
  const places = arrange(footprints, [100, 100], 5);
  // The arrangement is 85 x 55 mm: the 30 mm deep one and one other in the first row, the third behind.
  assert.deepEqual(places, [
    [22.5, -17.5],
    [-23.5, -12.5],
    [-22.5, 17.5],
  ]);
  assert.equal(arrange(footprints, [100, 50], 5), null);
  assert.equal(arrange([{ size: [120, 10], centre: [0, 0] }], [100, 100], 5), null);
});
