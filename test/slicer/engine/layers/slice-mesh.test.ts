import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEdgeTable } from '../../../../appliance/slicer/engine/mesh/edges.js';
import { ChainScratch, chainLoops } from '../../../../appliance/slicer/engine/layers/loops.js';
import { repeatedSections, sliceMesh } from '../../../../appliance/slicer/engine/layers/slice-mesh.js';
import { loopsToIslands } from '../../../../appliance/slicer/engine/layers/slices.js';
import { exArea, signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { IndexedMesh } from '../../../../appliance/slicer/engine/mesh/types.js';
import { cube, cubeWithHole, mengerSponge, overhang } from '../../../fixtures/meshes.js';

const NO_FIX = { closingRadius: 0.049, resolution: 0.001, xyContourCompensation: 0, xyHoleCompensation: 0, elephantFootCompensation: 0 };

function islandsAt(mesh: IndexedMesh, z: number, opts = NO_FIX) {
  const edges = buildEdgeTable(mesh.indices);
  const [seg] = sliceMesh(mesh, edges, Float64Array.of(z), 0, 1);
  const r = chainLoops(seg, new ChainScratch(edges.count));
  return { ...r, islands: loopsToIslands(r.loops, opts, false, r.openChains > 0) };
}

test('a cube cut at mid-height gives one counter-clockwise square of its size', () => {
  const r = islandsAt(cube(20), 10);
  assert.equal(r.openChains, 0);
  assert.equal(r.islands.length, 1);
  assert.ok(Math.abs(exArea(r.islands[0]) - 400) < 1e-6);
  assert.ok(signedArea(r.islands[0].contour) > 0);
});

test('a plane through vertices (the cube top) is cut consistently', () => {
  const r = islandsAt(cube(20), 20);
  assert.equal(r.openChains, 0);
  assert.ok(Math.abs(exArea(r.islands[0]) - 400) < 1e-6);
});

test('a cube with a hole gives an island with one clockwise hole', () => {
  const r = islandsAt(cubeWithHole(20, 8), 5);
  assert.equal(r.islands.length, 1);
  assert.equal(r.islands[0].holes.length, 1);
  assert.ok(signedArea(r.islands[0].holes[0]) < 0);
  assert.ok(Math.abs(exArea(r.islands[0]) - (400 - 64)) < 1e-6);
});

test('the overhang fixture is wider above its overhang than below it', () => {
  const m = overhang();
  let top = 0;
  for (let k = 2; k < m.vertices.length; k += 3) top = Math.max(top, m.vertices[k]);
  const low = exArea(islandsAt(m, 0.5).islands[0]);
  const high = exArea(islandsAt(m, top - 0.5).islands[0]);
  assert.ok(high > low * 1.5, `areas ${low} vs ${high}`);
});

test('a mesh with a missing triangle still gives a closed section', () => {
  const m = cube(20);
  const holed: IndexedMesh = { vertices: m.vertices, indices: m.indices.slice(3) };
  const r = islandsAt(holed, 10);
  assert.equal(r.islands.length, 1);
  assert.ok(Math.abs(exArea(r.islands[0]) - 400) < 0.5);
});

test('elephant-foot compensation shrinks only the first layer', () => {
  const edges = buildEdgeTable(cube(20).indices);
  const [seg] = sliceMesh(cube(20), edges, Float64Array.of(0.1), 0, 1);
  const loops = chainLoops(seg, new ChainScratch(edges.count)).loops;
  const opts = { ...NO_FIX, elephantFootCompensation: 0.2 };
  const first = exArea(loopsToIslands(loops, opts, true, false)[0]);
  const other = exArea(loopsToIslands(loops, opts, false, false)[0]);
  assert.ok(Math.abs(other - 400) < 1e-6);
  assert.ok(Math.abs(first - 19.6 * 19.6) < 1e-3);
});

/** A 10 × 10 box whose top slopes from z 10 (x = 0) to z 15 (x = 10): vertical sides, a sloped top. */
function slopedTopBox(): IndexedMesh {
  const vertices = Float32Array.of(0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0, 0, 0, 10, 10, 0, 15, 10, 10, 15, 0, 10, 10);
  const indices = Uint32Array.of(
    0,
    2,
    1,
    0,
    3,
    2, // bottom
    4,
    5,
    6,
    4,
    6,
    7, // sloped top
    0,
    1,
    5,
    0,
    5,
    4, // y = 0
    1,
    2,
    6,
    1,
    6,
    5, // x = 10
    2,
    3,
    7,
    2,
    7,
    6, // y = 10
    3,
    0,
    4,
    3,
    4,
    7, // x = 0
  );
  return { vertices, indices };
}

test('a plane repeats the section below only inside one slab of vertical faces', () => {
  // The T: levels at 0, 20 and 25; the plane just above 20 is in a new slab.
  const t = repeatedSections(overhang(), Float64Array.of(0.1, 10, 19.9, 20.1, 22, 24.9));
  assert.deepEqual(Array.from(t), [0, 1, 1, 0, 1, 1]);
  // Under the sloped top the walls are vertical; between z 10 and 15 the top is crossed.
  const sloped = repeatedSections(slopedTopBox(), Float64Array.of(1, 5, 9.9, 10.5, 12, 14));
  assert.deepEqual(Array.from(sloped), [0, 1, 1, 0, 0, 0]);
  // What "repeated" promises: the same section.
  const mesh = slopedTopBox();
  const edges = buildEdgeTable(mesh.indices);
  const sectionAt = (z: number) => {
    const [seg] = sliceMesh(mesh, edges, Float64Array.of(z), 0, 1);
    return loopsToIslands(chainLoops(seg, new ChainScratch(edges.count)).loops, NO_FIX, false, false);
  };
  assert.equal(sectionAt(5).length, 1);
  assert.ok(Math.abs(exArea(sectionAt(5)[0]) - 100) < 1e-6);
  assert.deepEqual(
    sectionAt(5).map((ex) => Array.from(ex.contour)),
    sectionAt(9.9).map((ex) => Array.from(ex.contour)),
  );
  assert.notDeepEqual(
    sectionAt(10.5).map((ex) => Array.from(ex.contour)),
    sectionAt(12).map((ex) => Array.from(ex.contour)),
  );
});

test('planes marked to skip are left uncut, the others are cut as usual', () => {
  const mesh = cube(20);
  const edges = buildEdgeTable(mesh.indices);
  const zs = Float64Array.of(5, 10, 15);
  const all = sliceMesh(mesh, edges, zs, 0, 3);
  const skipped = sliceMesh(mesh, edges, zs, 0, 3, Uint8Array.of(0, 1, 0));
  assert.deepEqual(
    skipped.map((s) => s.count),
    [all[0].count, 0, all[2].count],
  );
  assert.deepEqual(Array.from(skipped[2].coords), Array.from(all[2].coords));
});

test('with planes skipped in a range, every plane cut gives the segments it gives cut alone, in the same order', () => {
  const mesh = mengerSponge(2, 20);
  const edges = buildEdgeTable(mesh.indices);
  const zs = Float64Array.from({ length: 66 }, (_, k) => 0.1 + k * 0.3);
  // Every third plane cut, and a run of planes cut one after another.
  const skip = Uint8Array.from(zs, (_, p) => (p % 3 === 0 || (p > 30 && p < 36) ? 0 : 1));
  const first = 5;
  const last = 60;
  const chunk = sliceMesh(mesh, edges, zs, first, last, skip);
  assert.equal(chunk.length, last - first);
  for (let p = first; p < last; p++) {
    const got = chunk[p - first];
    if (skip[p]) {
      assert.equal(got.count, 0, `plane ${p} is skipped`);
      continue;
    }
    const [alone] = sliceMesh(mesh, edges, zs, p, p + 1);
    assert.ok(alone.count > 0);
    assert.deepEqual(Array.from(got.coords.subarray(0, got.count * 4)), Array.from(alone.coords), `plane ${p}`);
    assert.deepEqual(Array.from(got.startEdge.subarray(0, got.count)), Array.from(alone.startEdge));
    assert.deepEqual(Array.from(got.endEdge.subarray(0, got.count)), Array.from(alone.endEdge));
  }
});
