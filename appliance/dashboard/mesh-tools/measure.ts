/** Plain measures of a triangle mesh: face normals, surface area, signed volume, boundary loops. */
import { buildEdgeTable, type IndexedMesh } from '../../slicer/index.js';

/**
 * The cross product of the two edges from the first corner of the triangle that starts at index
 * `k` of `mesh.indices`, written into `out`: the face's normal as the triangle is wound, as long
 * as twice its area.
 */
export function faceCross(mesh: IndexedMesh, k: number, out: Float64Array): Float64Array {
  const v = mesh.vertices;
  const a = mesh.indices[k] * 3;
  const b = mesh.indices[k + 1] * 3;
  const c = mesh.indices[k + 2] * 3;
  const ux = v[b] - v[a];
  const uy = v[b + 1] - v[a + 1];
  const uz = v[b + 2] - v[a + 2];
  const wx = v[c] - v[a];
  const wy = v[c + 1] - v[a + 1];
  const wz = v[c + 2] - v[a + 2];
  out[0] = uy * wz - uz * wy;
  out[1] = uz * wx - ux * wz;
  out[2] = ux * wy - uy * wx;
  return out;
}

export function surfaceArea(mesh: IndexedMesh): number {
  const n = new Float64Array(3);
  let sum = 0;
  for (let k = 0; k < mesh.indices.length; k += 3) {
    faceCross(mesh, k, n);
    sum += Math.hypot(n[0], n[1], n[2]) / 2;
  }
  return sum;
}

/** Signed volume enclosed by the triangles as wound (positive when they face outward). */
export function signedVolume(mesh: IndexedMesh): number {
  const v = mesh.vertices;
  const idx = mesh.indices;
  let sum = 0;
  for (let k = 0; k < idx.length; k += 3) {
    const a = idx[k] * 3;
    const b = idx[k + 1] * 3;
    const c = idx[k + 2] * 3;
    sum +=
      v[a] * (v[b + 1] * v[c + 2] - v[b + 2] * v[c + 1]) -
      v[a + 1] * (v[b] * v[c + 2] - v[b + 2] * v[c]) +
      v[a + 2] * (v[b] * v[c + 1] - v[b + 1] * v[c]);
  }
  return sum / 6;
}

/**
 * The holes of a surface as closed loops of vertex indices. Each open edge a→b of a triangle is
 * walked backwards (b→a), the way a triangle filling the hole would run it, so a loop's order is
 * the winding its filling needs. A vertex where two holes meet makes its loops ambiguous: those
 * are counted in `tangled` and not returned.
 */
export function boundaryLoops(indices: Uint32Array): { loops: number[][]; tangled: number } {
  const edges = buildEdgeTable(indices);
  const next = new Map<number, number>();
  const ambiguous = new Set<number>();
  for (let e = 0; e < edges.count; e++) {
    if (edges.uses[e] !== 1) continue;
    const h = edges.firstHalfEdge[e];
    const from = indices[h];
    const to = indices[h % 3 === 2 ? h - 2 : h + 1];
    if (next.has(to)) ambiguous.add(to);
    next.set(to, from);
  }
  const visited = new Set<number>();
  const loops: number[][] = [];
  let tangled = 0;
  for (const start of next.keys()) {
    if (visited.has(start)) continue;
    const loop: number[] = [];
    let current = start;
    let closed = false;
    for (;;) {
      loop.push(current);
      visited.add(current);
      if (ambiguous.has(current)) break;
      const following = next.get(current);
      if (following === undefined) break;
      if (following === start) {
        closed = true;
        break;
      }
      if (visited.has(following)) break;
      current = following;
    }
    if (closed && loop.length >= 3) loops.push(loop);
    else tangled++;
  }
  return { loops, tangled };
}
