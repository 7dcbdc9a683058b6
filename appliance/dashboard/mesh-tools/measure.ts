/** Plain measures of a triangle mesh: surface area, signed volume, boundary loops. */
import { buildEdgeTable, type IndexedMesh } from '../../slicer/index.js';

export function surfaceArea(mesh: IndexedMesh): number {
  const v = mesh.vertices;
  const idx = mesh.indices;
  let sum = 0;
  for (let k = 0; k < idx.length; k += 3) {
    const a = idx[k] * 3;
    const b = idx[k + 1] * 3;
    const c = idx[k + 2] * 3;
    const ux = v[b] - v[a],
      uy = v[b + 1] - v[a + 1],
      uz = v[b + 2] - v[a + 2];
    const wx = v[c] - v[a],
      wy = v[c + 1] - v[a + 1],
      wz = v[c + 2] - v[a + 2];
    sum += Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / 2;
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
