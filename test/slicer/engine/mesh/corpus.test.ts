/**
 * Every model of the shared corpus (../shared/corpus, see its MANIFEST.md) through load,
 * repair and placement on a 220 x 220 x 250 bed. Test names carry the load+repair time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bboxSize, meshBounds } from '../../../../appliance/slicer/engine/mesh/bounds.js';
import { loadModel } from '../../../../appliance/slicer/engine/mesh/load.js';
import { placeModel } from '../../../../appliance/slicer/engine/mesh/place.js';
import { repairMesh, type RepairResult } from '../../../../appliance/slicer/engine/mesh/repair.js';
import type { Model, PlacedModel } from '../../../../appliance/slicer/engine/mesh/types.js';
import { CORPUS_DIR, corpusModel, needsShared } from '../../../fixtures/shared.js';

const BED = {
  printableArea: [
    [0, 0],
    [220, 0],
    [220, 220],
    [0, 220],
  ] as [number, number][],
  printableHeight: 250,
};

interface Loaded {
  model: Model;
  repaired: RepairResult[];
  ms: number;
}

function loadAndRepair(file: string): Loaded {
  const bytes = new Uint8Array(readFileSync(corpusModel(file)));
  const start = performance.now();
  const model = loadModel(bytes, file);
  const repaired = model.objects.map((o) => repairMesh(o.mesh));
  return { model, repaired, ms: performance.now() - start };
}

function assertClosed(r: RepairResult): void {
  assert.equal(r.report.openEdges, 0);
  assert.equal(r.report.nonManifoldEdges, 0);
  assert.equal(r.report.invertedShells, 0);
  assert.ok(r.report.volume > 0);
}

function near(actual: readonly number[], expected: readonly number[], tolerance: number): void {
  for (const [k, v] of actual.entries()) assert.ok(Math.abs(v - expected[k]) <= tolerance, `${actual} vs ${expected}`);
}

/** Loads a file in a parent test and reports checks in a subtest named with the timing. */
function corpusTest(file: string, check: (loaded: Loaded, placed: PlacedModel) => void): void {
  it(file, async (t) => {
    loadAndRepair(file); // warm the JIT so the reported time is the steady one
    const loaded = loadAndRepair(file);
    const triangles = loaded.model.objects.reduce((n, o) => n + o.mesh.indices.length / 3, 0);
    await t.test(`${file}: ${triangles} triangles loaded and repaired in ${loaded.ms.toFixed(1)} ms`, () => {
      const repairedModel = { ...loaded.model, objects: loaded.model.objects.map((o, k) => ({ ...o, mesh: loaded.repaired[k].mesh })) };
      const placed = placeModel(repairedModel, BED);
      assert.equal(placed.bounds.min[2], 0);
      check(loaded, placed);
    });
  });
}

describe('corpus models', { skip: needsShared(CORPUS_DIR) }, () => {
  corpusTest('box.stl', ({ model, repaired }) => {
    assert.equal(model.format, 'stl-binary');
    assertClosed(repaired[0]);
    assert.ok(Math.abs(repaired[0].report.volume - 15625) < 0.01);
    near(bboxSize(meshBounds(repaired[0].mesh)), [25, 25, 25], 1e-4);
  });

  corpusTest('bad-stl-pcbvicebar.stl', ({ model, repaired }) => {
    assert.equal(model.format, 'stl-ascii');
    assert.equal(repaired[0].mesh.indices.length / 3, 260);
    assertClosed(repaired[0]);
    near(bboxSize(meshBounds(repaired[0].mesh)), [108, 108, 6.4], 0.05);
  });

  corpusTest('rigid3d_mucit2_platform.3mf', ({ model, repaired }, placed) => {
    assert.equal(model.format, '3mf');
    assert.equal(model.objects.length, 1, 'one build item whose two component objects are joined');
    assert.equal(model.objects[0].name, 'rigid3d_mucit2_platform');
    assert.equal(model.objects[0].mesh.indices.length / 3, 1248);
    assert.equal(repaired[0].report.shells, 2);
    assertClosed(repaired[0]);
    near(bboxSize(meshBounds(repaired[0].mesh)), [170, 3, 170], 0.05);
    assert.ok(model.thumbnail && model.thumbnail.length > 1000);
    assert.equal(model.positioned, true);
    // Cura writes builds centred on 0,0: the loader keeps that, placement centres it with a warning.
    assert.match(model.warnings.join('\n'), /outside the printable area; the model was centred/);
    near(placed.bounds.min, [25, 108.5, 0], 0.05);
  });

  corpusTest('gearwheel.stl', ({ repaired }) => {
    assertClosed(repaired[0]);
    assert.equal(repaired[0].report.shells, 1);
    near(bboxSize(meshBounds(repaired[0].mesh)), [41.7, 41.7, 8], 0.05);
  });

  corpusTest('gearwheel_holes.stl', ({ repaired }) => {
    const { report } = repaired[0];
    assert.equal(report.openEdges, 72);
    assert.equal(report.nonManifoldEdges, 0);
    assert.equal(report.degenerateTriangles, 0);
    assert.equal(repaired[0].mesh.indices.length / 3, 2420);
  });

  corpusTest('openscad_example024_menger.stl', ({ repaired }) => {
    assertClosed(repaired[0]);
    assert.equal(repaired[0].mesh.indices.length / 3, 12012);
    near(bboxSize(meshBounds(repaired[0].mesh)), [142.9, 141.4, 86.6], 0.05);
  });

  corpusTest('M3x10_screw.stl', ({ repaired }) => {
    assertClosed(repaired[0]);
    assert.equal(repaired[0].mesh.indices.length / 3, 15532);
  });

  corpusTest('bearing.stl', ({ model, repaired }) => {
    assert.equal(model.format, 'stl-ascii');
    const { report } = repaired[0];
    assert.equal(report.degenerateTriangles, 16, 'degenerate facets dropped');
    assert.equal(repaired[0].mesh.indices.length / 3, 24696 - 16);
    assert.equal(report.openEdges, 134);
    assert.equal(report.inputNonManifoldEdges, 20, 'the 20 edges shared by >2 facets are found');
    assert.equal(report.nonManifoldEdges, 0, 'each was doubled by a degenerate facet, so dropping those mends them');
    assert.equal(report.shells, 2);
    assert.ok(report.volume > 0);
    near(bboxSize(meshBounds(repaired[0].mesh)), [101, 122, 31.4], 0.1);
  });
});
