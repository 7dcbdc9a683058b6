import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEdgeTable, edgeDefects } from '../../../../appliance/slicer/engine/mesh/edges.js';
import { repairMesh } from '../../../../appliance/slicer/engine/mesh/repair.js';
import type { IndexedMesh } from '../../../../appliance/slicer/engine/mesh/types.js';
import { bridge, cube, cubeWithHole, merge, meshVolume, overhang, thinWall, twoObjects } from '../../../fixtures/meshes.js';

function inverted(mesh: IndexedMesh): IndexedMesh {
  const indices = Uint32Array.from(mesh.indices);
  for (let k = 0; k < indices.length; k += 3) [indices[k + 1], indices[k + 2]] = [indices[k + 2], indices[k + 1]];
  return { vertices: mesh.vertices, indices };
}

/** Every triangle with its own three points, each moved by up to `noise` mm. */
function soup(mesh: IndexedMesh, noise: number): IndexedMesh {
  const vertices = new Float32Array(mesh.indices.length * 3);
  mesh.indices.forEach((v, k) => {
    for (let axis = 0; axis < 3; axis++) {
      const jitter = noise * Math.sin(k * 12.9898 + axis * 78.233);
      vertices[k * 3 + axis] = mesh.vertices[v * 3 + axis] + jitter;
    }
  });
  return { vertices, indices: Uint32Array.from(mesh.indices, (_, k) => k) };
}

function withTriangles(mesh: IndexedMesh, extra: number[]): IndexedMesh {
  return { vertices: mesh.vertices, indices: Uint32Array.from([...mesh.indices, ...extra]) };
}

function assertClosedOutward(mesh: IndexedMesh, volume: number): void {
  const defects = edgeDefects(buildEdgeTable(mesh.indices));
  assert.deepEqual(defects, { openEdges: 0, nonManifoldEdges: 0 });
  assert.ok(Math.abs(meshVolume(mesh) - volume) < volume * 1e-5, `volume ${meshVolume(mesh)} != ${volume}`);
  const edges = buildEdgeTable(mesh.indices);
  for (let e = 0; e < edges.count; e++) {
    const h1 = edges.firstHalfEdge[e];
    const h2 = edges.secondHalfEdge[e];
    assert.notEqual(mesh.indices[h1], mesh.indices[h2], 'neighbours must run their shared edge in opposite directions');
  }
}

describe('repairMesh', () => {
  it('leaves clean fixtures alone and measures them', () => {
    const fixtures: [string, IndexedMesh, number][] = [
      ['cube', cube(20), 8000],
      ['cubeWithHole', cubeWithHole(20, 8), 8000 - 64 * 20],
      ['overhang', overhang(), 3500],
      ['bridge', bridge(), 1900],
      ['thinWall', thinWall(), 0.6 * 20 * 10],
    ];
    for (const [name, mesh, volume] of fixtures) {
      const { mesh: out, report } = repairMesh(mesh);
      assert.equal(report.shells, 1, name);
      assert.equal(report.flippedTriangles + report.degenerateTriangles + report.duplicateTriangles + report.weldedVertices, 0, name);
      assert.equal(out.indices.length, mesh.indices.length, name);
      assert.ok(Math.abs(report.volume - volume) < 1e-3, `${name}: ${report.volume}`);
      assertClosedOutward(out, volume);
    }
  });

  it('welds a triangle soup whose corners differ by float noise', () => {
    const { mesh, report } = repairMesh(soup(cubeWithHole(20, 8), 3e-5));
    assert.equal(mesh.vertices.length / 3, cubeWithHole(20, 8).vertices.length / 3);
    assert.equal(report.weldedVertices, cubeWithHole(20, 8).indices.length - mesh.vertices.length / 3);
    assert.equal(report.openEdges, 0);
    assertClosedOutward(mesh, 6720);
  });

  it('does not weld points further apart than the tolerance', () => {
    const { report } = repairMesh(soup(cube(20), 1e-3));
    assert.ok(report.openEdges > 0);
  });

  it('turns an inside-out shell outward and counts it', () => {
    const { mesh, report } = repairMesh(inverted(cube(20)));
    assert.equal(report.invertedShells, 1);
    assert.equal(report.flippedTriangles, 12);
    assertClosedOutward(mesh, 8000);
  });

  it('flips single triangles that disagree with their shell', () => {
    const source = overhang();
    const indices = Uint32Array.from(source.indices);
    for (const t of [0, 5, 9]) [indices[t * 3 + 1], indices[t * 3 + 2]] = [indices[t * 3 + 2], indices[t * 3 + 1]];
    const { mesh, report } = repairMesh({ vertices: source.vertices, indices });
    assert.equal(report.flippedTriangles, 3);
    assert.equal(report.invertedShells, 0);
    assertClosedOutward(mesh, 3500);
  });

  it("gives the repaired mesh's edge ids as buildEdgeTable numbers them, also after flips and drops", () => {
    const single = overhang();
    const indices = Uint32Array.from(single.indices);
    for (const t of [0, 5, 9]) [indices[t * 3 + 1], indices[t * 3 + 2]] = [indices[t * 3 + 2], indices[t * 3 + 1]];
    const cases = [
      { vertices: single.vertices, indices },
      inverted(cube(20)),
      merge([inverted(cube(30, [0, 0, 0])), cube(20, [5, 5, 5]), inverted(cube(10, [10, 10, 10]))]),
      soup(cubeWithHole(20, 8), 3e-5),
    ];
    for (const input of cases) {
      const { mesh, edges } = repairMesh(input);
      const want = buildEdgeTable(mesh.indices);
      assert.equal(edges.count, want.count);
      assert.deepEqual(Array.from(edges.edgeOf), Array.from(want.edgeOf));
      assert.ok(edges.edgeOf.buffer instanceof SharedArrayBuffer);
    }
  });

  it('drops triangles with a repeated corner or no area', () => {
    const source = cube(20);
    // Corner 8 lies on the segment from corner 0 to corner 1: a needle with three distinct points.
    const a = [...source.vertices.subarray(0, 3)];
    const b = [...source.vertices.subarray(3, 6)];
    const vertices = Float32Array.from([...source.vertices, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]);
    const mesh = withTriangles({ vertices, indices: source.indices }, [0, 0, 1, 2, 3, 3, 0, 8, 1]);
    const { mesh: out, report } = repairMesh(mesh);
    assert.equal(report.degenerateTriangles, 3);
    assert.equal(out.indices.length, 36);
    assertClosedOutward(out, 8000);
  });

  it('drops duplicate triangles in either winding and reports the edges they broke', () => {
    const source = cube(20);
    const first = [...source.indices.subarray(0, 3)];
    const mesh = withTriangles(source, [...first, first[0], first[2], first[1]]);
    const { mesh: out, report } = repairMesh(mesh);
    assert.equal(report.duplicateTriangles, 2);
    assert.equal(report.inputNonManifoldEdges, 3);
    assert.equal(report.nonManifoldEdges, 0);
    assertClosedOutward(out, 8000);
  });

  it('reports the input edges as a table of every welded triangle counts them, whatever it drops', () => {
    const source = cube(20);
    const a = [...source.vertices.subarray(0, 3)];
    const b = [...source.vertices.subarray(3, 6)];
    // Point 8 halves the edge from point 0 to point 1 (needles), point 9 is off the cube (fins).
    const vertices = Float32Array.from([...source.vertices, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2, 40, 45, 50]);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 16807) % 2147483647;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const extra: number[] = [];
      for (let k = random(6); k > 0; k--) {
        const t = random(12) * 3;
        const [p, q, r] = source.indices.subarray(t, t + 3);
        const kinds = [
          [p, q, r],
          [p, r, q],
          [p, p, random(10)],
          [0, 8, 1],
          [8, 1, 0],
          [p, q, 9],
          [random(10), random(10), random(10)],
        ];
        extra.push(...kinds[random(kinds.length)]);
      }
      const mesh = withTriangles({ vertices, indices: source.indices.subarray(random(4) * 3) }, extra);
      const { report } = repairMesh(mesh);
      const expected = edgeDefects(buildEdgeTable(mesh.indices));
      assert.equal(report.inputOpenEdges, expected.openEdges, `round ${round}: ${extra}`);
      assert.equal(report.inputNonManifoldEdges, expected.nonManifoldEdges, `round ${round}: ${extra}`);
    }
  });

  it('keeps a cavity facing inward, and an island inside the cavity outward', () => {
    const outer = cube(30, [0, 0, 0]);
    const cavity = cube(20, [5, 5, 5]);
    const island = cube(10, [10, 10, 10]);
    for (const cavityMesh of [cavity, inverted(cavity)]) {
      const { mesh, report } = repairMesh(merge([outer, cavityMesh, island]));
      assert.equal(report.shells, 3);
      assert.ok(Math.abs(report.volume - (27000 - 8000 + 1000)) < 1e-3, String(report.volume));
      assert.ok(Math.abs(meshVolume(mesh) - 20000) < 1e-3);
    }
    const { report } = repairMesh(merge([inverted(outer), cavity]));
    assert.ok(Math.abs(report.volume - 19000) < 1e-3);
  });

  it('counts separate shells and adds their volumes', () => {
    const { report } = repairMesh(merge(twoObjects()));
    assert.equal(report.shells, 2);
    assert.ok(Math.abs(report.volume - 1750) < 1e-3);
  });

  it('reports open edges without filling the hole', () => {
    const source = cube(20);
    const { mesh, report } = repairMesh({ vertices: source.vertices, indices: source.indices.subarray(3) });
    assert.equal(report.openEdges, 3);
    assert.equal(report.nonManifoldEdges, 0);
    assert.equal(mesh.indices.length, 33);
  });

  it('reports a non-manifold edge shared by a fin and the cube', () => {
    const source = cube(20);
    const [a, b] = [source.indices[0], source.indices[1]];
    const vertices = Float32Array.from([...source.vertices, 50, 50, 50]);
    const { report } = repairMesh(withTriangles({ vertices, indices: source.indices }, [a, b, 8]));
    assert.equal(report.nonManifoldEdges, 1);
    assert.equal(report.openEdges, 2);
    assert.equal(report.inputNonManifoldEdges, 1);
  });

  it('returns an empty mesh when nothing survives', () => {
    const { mesh, report } = repairMesh({ vertices: new Float32Array([0, 0, 0, 1, 0, 0]), indices: Uint32Array.from([0, 0, 1]) });
    assert.equal(mesh.indices.length, 0);
    assert.equal(mesh.vertices.length, 0);
    assert.equal(report.shells, 0);
    assert.equal(report.degenerateTriangles, 1);
  });
});
