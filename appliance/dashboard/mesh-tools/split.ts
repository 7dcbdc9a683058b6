/**
 * A model into its parts: the edge-connected pieces of the repaired surface. A piece with
 * negative volume is a cavity (repair turns cavities inward) and stays with the smallest part
 * around it, so a hollow part is one part, not a part and a void.
 */
import { buildEdgeTable, concatMeshes, type IndexedMesh } from '../../slicer/index.js';
import { signedVolume } from './measure.js';
import type { MeshObject } from './read-model.js';

function find(parent: Int32Array, t: number): number {
  let root = t;
  while (parent[root] !== root) root = parent[root];
  while (parent[t] !== root) {
    const up = parent[t];
    parent[t] = root;
    t = up;
  }
  return root;
}

/** Triangle lists of the edge-connected pieces, in order of their first triangle. */
function pieces(indices: Uint32Array): number[][] {
  const triangles = indices.length / 3;
  const parent = Int32Array.from({ length: triangles }, (_, t) => t);
  const edges = buildEdgeTable(indices);
  const firstTriangle = new Int32Array(edges.count).fill(-1);
  for (let h = 0; h < indices.length; h++) {
    const e = edges.edgeOf[h];
    const t = (h / 3) | 0;
    if (firstTriangle[e] < 0) firstTriangle[e] = t;
    else parent[find(parent, t)] = find(parent, firstTriangle[e]);
  }
  const byRoot = new Map<number, number[]>();
  for (let t = 0; t < triangles; t++) {
    const root = find(parent, t);
    const list = byRoot.get(root);
    if (list) list.push(t);
    else byRoot.set(root, [t]);
  }
  return [...byRoot.values()];
}

/** The triangles as a mesh of its own, with only the vertices they use. */
function extract(mesh: IndexedMesh, triangles: readonly number[]): IndexedMesh {
  const newIndex = new Map<number, number>();
  const vertices: number[] = [];
  const indices = new Uint32Array(triangles.length * 3);
  triangles.forEach((t, n) => {
    for (let corner = 0; corner < 3; corner++) {
      const old = mesh.indices[t * 3 + corner];
      let index = newIndex.get(old);
      if (index === undefined) {
        index = newIndex.size;
        newIndex.set(old, index);
        vertices.push(mesh.vertices[old * 3], mesh.vertices[old * 3 + 1], mesh.vertices[old * 3 + 2]);
      }
      indices[n * 3 + corner] = index;
    }
  });
  return { vertices: Float32Array.from(vertices), indices };
}

interface Piece {
  mesh: IndexedMesh;
  volume: number;
  min: number[];
  max: number[];
}

function describe(mesh: IndexedMesh): Piece {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < mesh.vertices.length; k++) {
    const axis = k % 3;
    min[axis] = Math.min(min[axis], mesh.vertices[k]);
    max[axis] = Math.max(max[axis], mesh.vertices[k]);
  }
  return { mesh, volume: signedVolume(mesh), min, max };
}

const contains = (outer: Piece, inner: Piece): boolean => [0, 1, 2].every((k) => outer.min[k] <= inner.min[k] && outer.max[k] >= inner.max[k]);
const boxVolume = (p: Piece): number => (p.max[0] - p.min[0]) * (p.max[1] - p.min[1]) * (p.max[2] - p.min[2]);

/** The parts of a repaired mesh, each named `<name>-<n>` from 1. */
export function splitParts(name: string, mesh: IndexedMesh): MeshObject[] {
  const all = pieces(mesh.indices).map((triangles) => describe(extract(mesh, triangles)));
  const solids = all.filter((p) => p.volume >= 0);
  const groups = new Map<Piece, Piece[]>(solids.map((p) => [p, [p]]));
  for (const cavity of all.filter((p) => p.volume < 0)) {
    const around = solids.filter((s) => contains(s, cavity)).sort((p, q) => boxVolume(p) - boxVolume(q))[0];
    if (around) groups.get(around)?.push(cavity);
    else groups.set(cavity, [cavity]);
  }
  return [...groups.values()].map((members, k) => ({ name: `${name}-${k + 1}`, mesh: concatMeshes(members.map((p) => p.mesh)) }));
}
