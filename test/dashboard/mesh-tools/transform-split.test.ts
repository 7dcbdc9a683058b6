/** Transforms and splitting, checked on the geometry that comes back (its report and the mesh read again). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { loadModel } from '../../../appliance/slicer/engine/mesh/load.js';
import type { DashboardFixture } from '../../fixtures/dashboard.js';
import { box, cube, meshVolume, merge, toBinaryStl, twoObjects } from '../../fixtures/meshes.js';
import { hollowCube, startMeshTools, upload } from './helpers.js';

let dash: DashboardFixture;
before(async () => {
  dash = await startMeshTools();
});
after(() => dash.cleanup());

const near = (actual: readonly number[], expected: readonly number[], what: string): void => {
  assert.ok(
    actual.every((v, k) => Math.abs(v - expected[k]) < 1e-3),
    `${what}: ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`,
  );
};

async function transformed(query: string, model = toBinaryStl(box(10, 20, 30))): Promise<any> {
  const response = await upload(dash, `/api/mesh/transform?${query}`, model);
  assert.equal(response.status, 200, response.text);
  return response;
}

describe('transform', () => {
  test('scale by one factor and per axis', async () => {
    near((await transformed('scale=2')).report.bbox.size, [20, 40, 60], 'scale=2');
    const r = (await transformed('scale=1,0.5,2')).report;
    near(r.bbox.size, [10, 10, 60], 'scale per axis');
    assert.equal(r.volume, 6000);
  });

  test('scale to a size: one axis scales all, several axes each', async () => {
    near((await transformed('size=,,60')).report.bbox.size, [20, 40, 60], 'one axis');
    near((await transformed('size=30,30,')).report.bbox.size, [30, 30, 30], 'two axes');
  });

  test('rotate about X by 90°, then drop to the bed', async () => {
    const r = (await transformed('rotate=90,0,0&translate=0,0,7&drop=true')).report;
    near(r.bbox.size, [10, 30, 20], 'size');
    near(r.bbox.min, [0, -30, 0], 'position');
    assert.equal(r.volume, 6000);
  });

  test('mirror keeps the surface facing outward', async () => {
    const r = (await transformed('mirror=x')).report;
    near(r.bbox.min, [-10, 0, 0], 'mirrored');
    assert.equal(r.needsRepair, false);
    assert.equal(r.flippedNormals, 0);
    assert.equal(r.volume, 6000);
  });

  test('lay flat puts the largest face down, on the bed', async () => {
    const tilted = await transformed('rotate=30,20,10&translate=5,5,5');
    const r = (await transformed('lay_flat=true', tilted.bytes)).report;
    near([r.bbox.size[2], r.bbox.min[2]], [10, 0], 'resting on its 20 × 30 face');
    assert.equal(Math.round(r.volume), 6000);
  });

  test('lay flat chooses a face the model can rest on, not a larger one the model pokes through', async () => {
    // A 50 × 50 plate held at z 10..12 beside a 30 mm post: the plate's faces are the largest, but the post pokes
    // through both their planes; the largest face with everything behind it is y = 0 (the plate's and the post's sides).
    const plateAndPost = toBinaryStl(merge([box(50, 50, 2, [0, 0, 10]), box(5, 5, 30, [60, 0, 0])]));
    const r = (await transformed('lay_flat=true', plateAndPost)).report;
    assert.equal(r.bbox.min[2], 0);
    near(r.bbox.size, [65, 30, 50], 'on its y = 0 side');
  });

  test('the answer is in the format asked for', async () => {
    const response = await transformed('scale=2&format=obj&name=box.stl');
    assert.equal(response.headers.get('content-type'), 'model/obj');
    assert.match(response.text, /^o box/m);
  });
});

describe('split', () => {
  const two = toBinaryStl(merge(twoObjects()));

  test('a 3MF with one object per part', async () => {
    const response = await upload(dash, '/api/mesh/split?name=pair.stl', two);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'model/3mf');
    assert.equal(response.headers.get('x-mesh-objects'), '2');
    const model = loadModel(new Uint8Array(response.bytes), 'parts.3mf');
    assert.deepEqual(
      model.objects.map((o) => [o.name, Math.round(meshVolume(o.mesh))]),
      [
        ['pair-1', 1000],
        ['pair-2', 750],
      ],
    );
  });

  test('a zip of STL files', async () => {
    const response = await upload(dash, '/api/mesh/split?format=stl&name=pair.stl', two);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    const entries = unzipSync(new Uint8Array(response.bytes));
    assert.deepEqual(Object.keys(entries), ['001-pair-1.stl', '002-pair-2.stl']);
    const volumes = Object.values(entries).map((bytes) => Math.round(meshVolume(loadModel(bytes, 'part.stl').objects[0].mesh)));
    assert.deepEqual(volumes, [1000, 750]);
  });

  test('a hollow part stays one part with its cavity', async () => {
    const response = await upload(dash, '/api/mesh/split', toBinaryStl(hollowCube()));
    const model = loadModel(new Uint8Array(response.bytes), 'parts.3mf');
    assert.equal(model.objects.length, 1);
    assert.equal(Math.round(meshVolume(model.objects[0].mesh)), 26000);
  });

  test('one part by its number, and 404 past the last', async () => {
    const second = await upload(dash, '/api/mesh/split/component?index=2&format=stl', two);
    assert.equal(second.status, 200, second.text);
    const mesh = loadModel(new Uint8Array(second.bytes), 'part.stl').objects[0].mesh;
    assert.equal(Math.round(meshVolume(mesh)), 750);
    const third = await upload(dash, '/api/mesh/split/component?index=3', two);
    assert.equal(third.status, 404);
    assert.equal(third.json.code, 'ERR_NOT_FOUND');
  });

  test('a single solid is one part', async () => {
    const response = await upload(dash, '/api/mesh/split', toBinaryStl(cube(10)));
    assert.equal(response.headers.get('x-mesh-objects'), '1');
  });
});
