import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEdgeTable, edgeDefects } from '../../../../appliance/slicer/engine/mesh/edges.js';
import { cube, cubeWithHole } from '../../../fixtures/meshes.js';

describe('buildEdgeTable', () => {
  it('finds each undirected edge of a closed mesh used exactly twice', () => {
    const mesh = cubeWithHole();
    const edges = buildEdgeTable(mesh.indices);
    const triangles = mesh.indices.length / 3;
    assert.equal(edges.count, (triangles * 3) / 2);
    assert.ok(edges.uses.every((u) => u === 2));
    for (let h = 0; h < mesh.indices.length; h++) {
      const e = edges.edgeOf[h];
      assert.ok(edges.firstHalfEdge[e] === h || edges.secondHalfEdge[e] === h);
    }
    assert.deepEqual(edgeDefects(edges), { openEdges: 0, nonManifoldEdges: 0 });
  });

  it('counts open and non-manifold edges', () => {
    const indices = Uint32Array.from([0, 1, 2, 1, 0, 3, 0, 1, 4]);
    const edges = buildEdgeTable(indices);
    assert.equal(edges.count, 7);
    assert.equal(edges.uses[edges.edgeOf[0]], 3);
    assert.deepEqual(edgeDefects(edges), { openEdges: 6, nonManifoldEdges: 1 });
    assert.deepEqual(edgeDefects(buildEdgeTable(cube().indices.subarray(6))), { openEdges: 4, nonManifoldEdges: 0 });
  });
});
