import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEdgeTable, edgeDefects, edgesAfterFlips } from '../../../../appliance/slicer/engine/mesh/edges.js';
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

  it('numbers edges in order of first use, also past the room a closed mesh needs (a triangle soup)', () => {
    // 200 triangles sharing nothing but a fan of 50 that share their spokes: 600 + 100 edges.
    const soup: number[] = [];
    for (let t = 0; t < 200; t++) soup.push(3 * t, 3 * t + 1, 3 * t + 2);
    for (let t = 0; t < 50; t++) soup.push(1000, 1001 + t, 1001 + ((t + 1) % 50));
    const indices = Uint32Array.from(soup);
    const edges = buildEdgeTable(indices);
    const ids = new Map<string, number>();
    indices.forEach((a, h) => {
      const b = indices[h % 3 === 2 ? h - 2 : h + 1];
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      if (!ids.has(key)) ids.set(key, ids.size);
      assert.equal(edges.edgeOf[h], ids.get(key), `half-edge ${h}`);
    });
    assert.equal(edges.count, ids.size);
    assert.equal(edges.uses.length, ids.size);
    assert.deepEqual(edgeDefects(edges), { openEdges: 650, nonManifoldEdges: 0 });
  });

  it('derives the ids of the table after triangles were reversed, in shared memory', () => {
    const mesh = cubeWithHole();
    const flip = new Uint8Array(mesh.indices.length / 3);
    const after = Uint32Array.from(mesh.indices);
    for (let t = 0; t < flip.length; t += 3) {
      flip[t] = 1;
      [after[t * 3 + 1], after[t * 3 + 2]] = [after[t * 3 + 2], after[t * 3 + 1]];
    }
    const derived = edgesAfterFlips(buildEdgeTable(mesh.indices), flip);
    const built = buildEdgeTable(after);
    assert.ok(derived.edgeOf.buffer instanceof SharedArrayBuffer);
    assert.equal(derived.count, built.count);
    assert.deepEqual(Array.from(derived.edgeOf), Array.from(built.edgeOf));
    // Reversing a triangle changes the order it meets its edges in, so the ids are not the old ones.
    assert.notDeepEqual(Array.from(derived.edgeOf), Array.from(buildEdgeTable(mesh.indices).edgeOf));
  });
});
