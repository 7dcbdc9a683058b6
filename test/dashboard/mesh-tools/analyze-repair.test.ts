/**
 * Analyze, repair and convert, judged by admesh: the facet and open-edge counts, the volume and
 * the verdict on what needs repair agree with admesh's on the fixture meshes and on the shared
 * corpus; a repaired mesh is one admesh finds nothing to fix in, and it slices.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadModel } from '../../../appliance/slicer/engine/mesh/load.js';
import { admeshMissing, admeshStats, admeshWantsRepair, disconnectedEdges } from '../../fixtures/admesh.js';
import type { DashboardFixture } from '../../fixtures/dashboard.js';
import { cubeWithHole, merge, toAsciiStl, toBinaryStl, twoObjects } from '../../fixtures/meshes.js';
import { modelBytes } from '../../fixtures/model-files.js';
import { CORPUS_DIR, GCODE_CHECKER, needsShared } from '../../fixtures/shared.js';
import { cleanup, config, gcodeCheck, slice } from '../../fixtures/slicing.js';
import { brokenMesh, hollowCube, startMeshTools, TempFiles, upload } from './helpers.js';

const FIXTURES: Record<string, () => Uint8Array> = {
  'box.stl': () => modelBytes('box.stl'),
  'sponge-8mm.stl': () => modelBytes('sponge-8mm.stl'),
  'cube-with-hole.stl': () => toAsciiStl(cubeWithHole()),
  'two-objects.stl': () => toBinaryStl(merge(twoObjects())),
  'hollow-cube.stl': () => toBinaryStl(hollowCube()),
  'broken.stl': () => toBinaryStl(brokenMesh()),
};
const corpusMissing = needsShared(CORPUS_DIR);
const CORPUS = corpusMissing
  ? []
  : readdirSync(CORPUS_DIR)
      .filter((f) => f.endsWith('.stl'))
      .sort();

let dash: DashboardFixture;
let files: TempFiles;
before(async () => {
  dash = await startMeshTools();
  files = new TempFiles();
});
after(async () => {
  await dash.cleanup();
  files.remove();
});

async function checkAgainstAdmesh(name: string, bytes: Uint8Array): Promise<void> {
  const path = files.write(name, bytes);
  const exact = admeshStats(path, true);
  const full = admeshStats(path);
  const response = await upload(dash, '/api/mesh/analyze', bytes);
  assert.equal(response.status, 200, response.text);
  const report = response.json;
  assert.deepEqual(response.report.triangles, report.triangles, 'the header carries the totals');
  assert.equal(report.triangles, exact.facetsBefore, 'facets');
  if (report.nonManifoldEdges === 0) assert.equal(report.openEdges, disconnectedEdges(exact), 'open edges');
  assert.equal(report.needsRepair, admeshWantsRepair(full), `verdict: ours ${JSON.stringify(report)}; admesh ${JSON.stringify(full)}`);
  // admesh measures after its own repair (holes filled), as we do; but it removes both copies of a
  // repeated facet and leaves the hole open (3666.7 mm³ for the broken fixture's 5000), so there ours is checked alone.
  if (report.duplicateFaces > 0) return;
  const tolerance = report.openEdges === 0 && report.nonManifoldEdges === 0 ? 1e-3 : 0.02;
  assert.ok(Math.abs(report.volume - full.volume) <= tolerance * full.volume, `volume ${report.volume} vs admesh ${full.volume}`);
  if (!report.needsRepair) assert.equal(report.shells, full.parts, 'shells');
}

describe('analyze agrees with admesh', { skip: admeshMissing }, () => {
  for (const [name, bytes] of Object.entries(FIXTURES)) test(`fixture ${name}`, () => checkAgainstAdmesh(name, bytes()));
  for (const file of CORPUS) test(`corpus ${file}`, () => checkAgainstAdmesh(file, new Uint8Array(readFileSync(join(CORPUS_DIR, file)))));
});

test('analyze counts what is wrong with a broken mesh', async () => {
  const response = await upload(dash, '/api/mesh/analyze', toBinaryStl(brokenMesh()));
  assert.equal(response.status, 200, response.text);
  const r = response.json;
  assert.equal(r.format, 'stl-binary');
  assert.equal(r.triangles, 11 + 13);
  assert.equal(r.openEdges, 3);
  assert.equal(r.holes, 1);
  assert.equal(r.duplicateFaces, 1);
  assert.equal(r.flippedNormals, 1);
  assert.equal(r.shells, 2);
  assert.equal(r.needsRepair, true);
  assert.equal(r.volume, 5000);
  assert.equal(r.area, 2 * (400 + 200 + 200) + 600);
  assert.deepEqual(r.bbox, { min: [0, 0, 0], max: [40, 20, 10], size: [40, 20, 10] });
  assert.deepEqual(r.repair, {
    weldedVertices: 0,
    degenerateRemoved: 0,
    duplicatesRemoved: 1,
    trianglesFlipped: 1,
    holesFilled: 1,
    trianglesAdded: 1,
    openEdgesLeft: 0,
    nonManifoldEdgesLeft: 0,
  });
});

test('a hollow part: two shells, the cavity subtracted', async () => {
  const r = (await upload(dash, '/api/mesh/analyze', toBinaryStl(hollowCube()))).json;
  assert.equal(r.shells, 2);
  assert.equal(r.volume, 26000);
  assert.equal(r.needsRepair, false);
});

async function repairedByUs(name: string, bytes: Uint8Array): Promise<string> {
  const response = await upload(dash, '/api/mesh/repair', bytes);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.headers.get('content-type'), 'model/stl');
  assert.equal(response.report.needsRepair, true);
  return files.write(`repaired-${name}`, response.bytes);
}

describe('repair leaves admesh nothing to fix', { skip: admeshMissing }, () => {
  test('the broken fixture mesh', async () => {
    const stats = admeshStats(await repairedByUs('broken.stl', toBinaryStl(brokenMesh())));
    assert.equal(admeshWantsRepair(stats), false, JSON.stringify(stats));
    assert.equal(stats.facetsBefore, 11 + 1 + 12);
    assert.ok(Math.abs(stats.volume - 5000) < 0.01, String(stats.volume));
    assert.equal(stats.parts, 2);
  });

  test('corpus gearwheel_holes.stl: its 24 missing facets put back', { skip: needsShared(join(CORPUS_DIR, 'gearwheel_holes.stl')) }, async () => {
    const file = join(CORPUS_DIR, 'gearwheel_holes.stl');
    const original = admeshStats(file);
    const stats = admeshStats(await repairedByUs('gearwheel_holes.stl', new Uint8Array(readFileSync(file))));
    assert.equal(admeshWantsRepair(stats), false, JSON.stringify(stats));
    assert.equal(stats.facetsBefore, original.facetsAfter, 'as many facets as admesh adds');
    assert.ok(Math.abs(stats.volume - original.volume) <= 1e-3 * original.volume, `${stats.volume} vs admesh's own repair ${original.volume}`);
  });

  test('corpus bearing.stl: what is left open is what the report says', { skip: needsShared(join(CORPUS_DIR, 'bearing.stl')) }, async () => {
    const file = join(CORPUS_DIR, 'bearing.stl');
    const original = admeshStats(file);
    const response = await upload(dash, '/api/mesh/repair', new Uint8Array(readFileSync(file)));
    const stats = admeshStats(files.write('repaired-bearing.stl', response.bytes));
    // Holes that meet an edge shared by more than two facets are left: the report counts their edges.
    assert.equal(disconnectedEdges(stats), response.report.repair.openEdgesLeft, JSON.stringify(stats));
    assert.ok(disconnectedEdges(stats) < disconnectedEdges(admeshStats(file, true)) / 4);
    // Across an edge of more than two facets which way is out is a guess, for admesh as for us.
    assert.ok(stats.facetsReversed < stats.facetsBefore / 1000, `admesh reversed ${stats.facetsReversed}`);
    assert.equal(stats.degenerate, 0);
    assert.ok(Math.abs(stats.volume - original.volume) <= 0.01 * original.volume, `${stats.volume} vs admesh's own repair ${original.volume}`);
  });
});

test('a repaired broken mesh slices and passes the G-code checker', {
  skip: needsShared(join(CORPUS_DIR, 'gearwheel_holes.stl'), GCODE_CHECKER),
}, async () => {
  const response = await upload(dash, '/api/mesh/repair', new Uint8Array(readFileSync(join(CORPUS_DIR, 'gearwheel_holes.stl'))));
  const stl = files.write('gearwheel-repaired.stl', response.bytes);
  const sliced = await slice(
    new Uint8Array(response.bytes),
    await config({ sparse_infill_density: 15, initial_layer_print_height: 0.3, brim_type: 'no_brim' }),
  );
  try {
    assert.ok(sliced.result.layers > 30);
    const check = gcodeCheck(stl, sliced.result.outputPath, ['--bed=0,0,220,220']);
    assert.ok(check.pass, check.raw);
  } finally {
    cleanup(sliced);
  }
});

describe('convert', () => {
  const source = toBinaryStl(merge(twoObjects()));

  for (const format of ['3mf', 'obj', 'stl'] as const) {
    test(`STL to ${format} and back keeps every triangle and the volume`, async () => {
      const converted = await upload(dash, `/api/mesh/convert?format=${format}`, source);
      assert.equal(converted.status, 200, converted.text);
      assert.equal(converted.headers.get('content-type'), `model/${format}`);
      const back = await upload(dash, '/api/mesh/analyze', converted.bytes);
      assert.equal(back.json.format, format === 'stl' ? 'stl-binary' : format);
      assert.equal(back.json.triangles, 24);
      assert.equal(back.json.volume, 1000 + 750);
      assert.equal(back.json.needsRepair, false);
    });
  }

  test('a 3MF with two objects keeps them apart, and its converted STL satisfies admesh', { skip: admeshMissing }, async () => {
    const threeMf = await upload(dash, '/api/mesh/convert?format=3mf', source);
    const model = loadModel(new Uint8Array(threeMf.bytes), 'x.3mf');
    assert.equal(model.objects.length, 1, 'an STL holds one object, whatever its shells');
    const stl = await upload(dash, '/api/mesh/convert?format=stl', threeMf.bytes);
    const stats = admeshStats(files.write('from-3mf.stl', stl.bytes));
    assert.equal(stats.facetsBefore, 24);
    assert.equal(admeshWantsRepair(stats), false);
    assert.ok(Math.abs(stats.volume - 1750) < 0.01);
  });

  test('convert needs a format', async () => {
    const response = await upload(dash, '/api/mesh/convert', source);
    assert.equal(response.status, 400, response.text);
    assert.equal(response.json.code, 'ERR_VALIDATION');
  });
});
