import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { meshBounds } from '../../../../appliance/slicer/engine/mesh/bounds.js';
import { placeModel, type BedShape } from '../../../../appliance/slicer/engine/mesh/place.js';
import type { IndexedMesh, Model } from '../../../../appliance/slicer/engine/mesh/types.js';
import { box, cube } from '../../../fixtures/meshes.js';

const BED: BedShape = {
  printableArea: [
    [0, 0],
    [220, 0],
    [220, 220],
    [0, 220],
  ],
  printableHeight: 250,
};
/** A round delta bed of 220 mm diameter centred on 0,0, as a 64-gon. */
const ROUND_BED: BedShape = {
  printableArea: Array.from({ length: 64 }, (_, k): [number, number] => [110 * Math.cos((k * Math.PI) / 32), 110 * Math.sin((k * Math.PI) / 32)]),
  printableHeight: 200,
};

function model(meshes: IndexedMesh[], positioned: boolean): Model {
  return {
    objects: meshes.map((mesh, k) => ({ name: `o${k}`, mesh, filament: 1 })),
    positioned,
    format: positioned ? '3mf' : 'stl-binary',
    warnings: [],
  };
}

describe('placeModel', () => {
  it('centres an STL on the printable area and drops it to z = 0', () => {
    const placed = placeModel(model([box(20, 10, 5, [-300, 40, 12])], false), BED);
    assert.deepEqual(placed.bounds, { min: [100, 105, 0], max: [120, 115, 5] });
    assert.deepEqual(meshBounds(placed.objects[0].mesh), placed.bounds);
  });

  it('keeps the relative XY positions of several objects but drops each to z = 0', () => {
    const input = model([cube(10, [0, 0, 5]), cube(10, [30, 0, -2])], false);
    const placed = placeModel(input, BED);
    assert.deepEqual(meshBounds(placed.objects[0].mesh), { min: [90, 105, 0], max: [100, 115, 10] });
    assert.deepEqual(meshBounds(placed.objects[1].mesh), { min: [120, 105, 0], max: [130, 115, 10] });
    assert.deepEqual(input.objects[0].mesh.vertices.subarray(0, 3), Float32Array.of(0, 0, 5), 'input meshes are not modified');
  });

  it('keeps the positions of a 3MF build that lies on the bed', () => {
    const input = model([cube(10, [5, 200, 3]), cube(10, [150, 20, 0])], true);
    const placed = placeModel(input, BED);
    assert.deepEqual(meshBounds(placed.objects[0].mesh), { min: [5, 200, 0], max: [15, 210, 10] });
    assert.deepEqual(meshBounds(placed.objects[1].mesh), { min: [150, 20, 0], max: [160, 30, 10] });
    assert.deepEqual(input.warnings, []);
  });

  it('keeps an object that touches the edge of the bed exactly', () => {
    const placed = placeModel(model([cube(20, [200, 0, 0])], true), BED);
    assert.deepEqual(placed.bounds, { min: [200, 0, 0], max: [220, 20, 20] });
  });

  it('centres a 3MF placed around 0,0 (as Cura writes them) as a whole, with a warning', () => {
    const input = model([cube(10, [-20, -5, 0]), cube(10, [10, -5, 0])], true);
    const placed = placeModel(input, BED);
    assert.deepEqual(meshBounds(placed.objects[0].mesh), { min: [90, 105, 0], max: [100, 115, 10] });
    assert.deepEqual(meshBounds(placed.objects[1].mesh), { min: [120, 105, 0], max: [130, 115, 10] });
    assert.match(input.warnings[0], /outside the printable area; the model was centred/);
  });

  it('refuses a model wider than the printable area', () => {
    assert.throws(() => placeModel(model([box(260, 40, 30)], false), BED), {
      name: 'AppError',
      code: 'ERR_MODEL_OUTSIDE_BED',
      status: 422,
      message: 'model is 260.0 x 40.0 x 30.0 mm; the printable area is 220 x 220 x 250 mm',
    });
  });

  it('refuses a model taller than the printable height', () => {
    assert.throws(() => placeModel(model([box(10, 10, 250.5)], false), BED), {
      code: 'ERR_MODEL_OUTSIDE_BED',
      message: 'model is 10.0 x 10.0 x 250.5 mm; the printable area is 220 x 220 x 250 mm',
    });
    assert.equal(placeModel(model([box(10, 10, 250)], false), BED).bounds.max[2], 250);
  });

  it('checks the real footprint against a round bed, not just the bounding boxes', () => {
    const fits = placeModel(model([cube(140)], false), ROUND_BED);
    assert.deepEqual(fits.bounds.min, [-70, -70, 0]);
    assert.throws(() => placeModel(model([cube(160, [0, 0, 0])], false), ROUND_BED), {
      code: 'ERR_MODEL_OUTSIDE_BED',
      message: /model is 160.0 x 160.0 x 160.0 mm; the printable area is 220 x 220 x 200 mm/,
    });
  });

  it('refuses an object that has no triangles left', () => {
    const empty = { vertices: new Float32Array(0), indices: new Uint32Array(0) };
    assert.throws(() => placeModel(model([cube(1), empty], false), BED), {
      code: 'ERR_BAD_MODEL',
      message: 'object "o1" has no triangles left to print',
    });
  });

  it('refuses a printable area with fewer than three points', () => {
    assert.throws(
      () =>
        placeModel(model([cube(1)], false), {
          printableArea: [
            [0, 0],
            [1, 1],
          ],
          printableHeight: 10,
        }),
      {
        code: 'ERR_INVALID_SETTING',
      },
    );
  });
});
