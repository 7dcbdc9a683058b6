import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEdgeTable } from '../../../../appliance/slicer/engine/mesh/edges.js';
import { ChainScratch, chainLoops } from '../../../../appliance/slicer/engine/layers/loops.js';
import { sliceMesh } from '../../../../appliance/slicer/engine/layers/slice-mesh.js';
import { loopsToIslands } from '../../../../appliance/slicer/engine/layers/slices.js';
import { exArea, signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { IndexedMesh } from '../../../../appliance/slicer/engine/mesh/types.js';
import { cube, cubeWithHole, overhang } from '../../../fixtures/meshes.js';

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
