/** Axis-aligned bounding boxes of meshes. */
import type { BBox3, IndexedMesh } from './types.js';

/** Bounds of the vertices that triangles use (loaders may leave unused points behind). */
export function meshBounds(mesh: IndexedMesh): BBox3 {
  const v = mesh.vertices;
  const idx = mesh.indices;
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (let k = 0; k < idx.length; k++) {
    const o = idx[k] * 3;
    const x = v[o];
    const y = v[o + 1];
    const z = v[o + 2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}

export function unionBBox3(a: BBox3, b: BBox3): BBox3 {
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  };
}

export function bboxSize(b: BBox3): [number, number, number] {
  return [b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]];
}
