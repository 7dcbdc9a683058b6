import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashExPolygons } from '../../../../appliance/slicer/engine/geometry/hash.js';
import type { IndexedMesh } from '../../../../appliance/slicer/engine/mesh/types.js';
import { bridgeBaseDepth } from '../../../../appliance/slicer/engine/regions/internal-bridges.js';
import { buildLayer, type ObjectLayer } from '../../../../appliance/slicer/engine/regions/layer.js';
import { regionParams } from '../../../../appliance/slicer/engine/regions/params.js';
import type { HashedLayer } from '../../../../appliance/slicer/engine/regions/surfaces.js';
import { outlineOptions, planLayers } from '../../../../appliance/slicer/engine/layers/slice-outlines.js';
import { decodeLayer, encodeLayer } from '../../../../appliance/slicer/engine/toolpath/codec.js';
import { F64Reader } from '../../../../appliance/slicer/engine/workers/f64-stream.js';
import { createTasks } from '../../../../appliance/slicer/engine/workers/tasks.js';
import { buildEdgeTable } from '../../../../appliance/slicer/engine/mesh/edges.js';
import type { PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';
import { cube, cubeWithHole, overhang } from '../../../fixtures/meshes.js';
import { config } from '../../../fixtures/slicing.js';

/** A task set set up to slice `mesh` with `c` (outline options optionally changed), with its layer plan. */
function slicingTasks(mesh: IndexedMesh, c: PrintConfig, outline = outlineOptions(c)) {
  const specs = planLayers([{ name: 'part', filament: 1, mesh }], c);
  const tasks = createTasks();
  const setup = {
    meshes: [mesh],
    sliceZs: Float64Array.from(specs, (s) => s.sliceZ),
    printZs: Float64Array.from(specs, (s) => s.printZ),
    heights: Float64Array.from(specs, (s) => s.height),
    outline,
    regions: regionParams(c),
  };
  tasks.setup(setup);
  return { tasks, specs, setup };
}

/**
 * Every layer as the tasks build it in one chunk (so layers reuse the ones below), and as
 * buildLayer builds it alone with nothing to reuse.
 */
function layersBothWays(mesh: IndexedMesh, c: PrintConfig): { tasks: Float64Array[]; alone: Float64Array[] } {
  const { tasks, specs, setup } = slicingTasks(mesh, c);
  const regions = setup.regions;
  const slices = tasks.slice({ object: 0, first: 0, last: specs.length }).layers;
  const top = slices.length - 1;
  const built = tasks.layers({ first: 0, last: specs.length, objects: [{ object: 0, filament: 0, base: 0, slices, top }], support: null });

  const hashed: HashedLayer[] = slices.map((buf) => {
    const islands = new F64Reader(buf).exPolygons();
    return { islands, hash: hashExPolygons(islands) };
  });
  const alone = specs.map((_, i) => {
    const above = hashed.slice(i + 1, Math.min(top, i + regions.topLayers) + 1);
    const depth = bridgeBaseDepth(i, setup.printZs, setup.heights, regions);
    const bridgeBase = Array.from({ length: depth }, (_, k) => setup.heights[i - k - 1]);
    const below = hashed.slice(Math.max(0, i - Math.max(regions.bottomLayers, 1) - depth), i).reverse();
    const objects: ObjectLayer[] = [{ object: 0, filament: 0, current: hashed[i], above, below }];
    return encodeLayer(buildLayer({ index: i, printZ: setup.printZs[i], height: setup.heights[i], objects, support: null, bridgeBase }, regions));
  });
  return { tasks: built, alone };
}

function assertSameLayers(got: Float64Array[], want: Float64Array[]): void {
  assert.equal(got.length, want.length);
  for (const [i, buf] of got.entries()) assert.deepEqual(decodeLayer(buf), decodeLayer(want[i]), `layer ${i}`);
}

test('a prism repeats its layers: the tasks copy them from two layers down, at their own index and height', async () => {
  const c = await config({ sparse_infill_density: 15, sparse_infill_pattern: 'zig-zag' });
  const { tasks, alone } = layersBothWays(cubeWithHole(20, 8), c);
  assertSameLayers(tasks, alone);
  const middle = decodeLayer(tasks[50]);
  assert.equal(middle.index, 50);
  assert.ok(Math.abs(middle.printZ - 10.2) < 1e-9, `printZ ${middle.printZ}`);
  // Turned infill: a layer is not the one below it, but it is the one two below, but for Z.
  const infillOf = (k: number) => decodeLayer(tasks[k]).islands[0].infill.map((e) => Array.from(e.points));
  assert.notDeepEqual(infillOf(50), infillOf(51));
  assert.deepEqual(infillOf(50), infillOf(52));
});

test('layers of a pattern that follows the height are built each time, not copied', async () => {
  const c = await config({ sparse_infill_density: 15, sparse_infill_pattern: 'gyroid' });
  const { tasks, alone } = layersBothWays(cube(20), c);
  assertSameLayers(tasks, alone);
  const infillOf = (k: number) =>
    decodeLayer(tasks[k])
      .islands[0].infill.filter((e) => e.role === 'sparse-infill')
      .map((e) => Array.from(e.points));
  assert.ok(infillOf(50).length > 0);
  assert.notDeepEqual(infillOf(50), infillOf(52));
});

test('a plane that cuts the outline of the plane below gets the same islands as when cut on its own', async () => {
  const c = await config();
  const { tasks, specs } = slicingTasks(cubeWithHole(20, 8), c, outlineOptions({ ...c, elefant_foot_compensation: 0.2 }));
  const together = tasks.slice({ object: 0, first: 0, last: specs.length }).layers;
  const alone = specs.map((_, i) => tasks.slice({ object: 0, first: i, last: i + 1 }).layers[0]);
  assert.deepEqual(
    together.map((b) => Array.from(b)),
    alone.map((b) => Array.from(b)),
  );
  // The first layer is shrunk for elephant foot, so the second is not its copy.
  assert.notDeepEqual(Array.from(together[0]), Array.from(together[1]));
  assert.deepEqual(Array.from(together[1]), Array.from(together[2]));
});

test('planes of a prism are not even cut when the plane below is in the chunk: the same islands, a step still seen', async () => {
  const c = await config();
  const { tasks, specs } = slicingTasks(overhang(), c);
  const together = tasks.slice({ object: 0, first: 0, last: specs.length }).layers;
  const alone = specs.map((_, i) => tasks.slice({ object: 0, first: i, last: i + 1 }).layers[0]);
  assert.deepEqual(
    together.map((b) => Array.from(b)),
    alone.map((b) => Array.from(b)),
  );
  const step = specs.findIndex((s) => s.sliceZ > 20);
  assert.notDeepEqual(Array.from(together[step]), Array.from(together[step - 1]), 'the bar is wider than the stem');
  assert.deepEqual(Array.from(together[step + 1]), Array.from(together[step]));
});

test('a slice cut with the edge ids of the setup (found once, by repair) is the one cut with its own table', async () => {
  const c = await config();
  const mesh = cubeWithHole();
  const own = slicingTasks(mesh, c);
  const specs = own.specs;
  const given = createTasks();
  const { count, edgeOf } = buildEdgeTable(mesh.indices);
  given.setup({ ...own.setup, edges: [{ count, edgeOf }] });
  const want = own.tasks.slice({ object: 0, first: 0, last: specs.length }).layers;
  const got = given.slice({ object: 0, first: 0, last: specs.length }).layers;
  assert.deepEqual(
    got.map((l) => Array.from(l)),
    want.map((l) => Array.from(l)),
  );
});
