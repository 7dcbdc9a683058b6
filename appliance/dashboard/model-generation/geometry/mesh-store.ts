/**
 * A generated mesh on disk, as it is in memory (vertex and triangle counts, then the float32
 * vertices and uint32 indices, little-endian): read back exactly, so a download in either format
 * is written from the indexed, welded mesh the generator made.
 */
import type { SolidMesh } from './manifold.js';

export interface MeshFacts {
  triangles: number;
  vertices: number;
  /** Width, depth and height of the bounding box (mm). */
  size_mm: [number, number, number];
  volume_mm3: number;
}

export function encodeMesh(mesh: SolidMesh): Buffer {
  const out = Buffer.alloc(8 + mesh.vertices.byteLength + mesh.indices.byteLength);
  out.writeUInt32LE(mesh.vertices.length / 3, 0);
  out.writeUInt32LE(mesh.indices.length / 3, 4);
  for (let i = 0; i < mesh.vertices.length; i++) out.writeFloatLE(mesh.vertices[i], 8 + i * 4);
  const at = 8 + mesh.vertices.byteLength;
  for (let i = 0; i < mesh.indices.length; i++) out.writeUInt32LE(mesh.indices[i], at + i * 4);
  return out;
}

export function decodeMesh(bytes: Buffer): SolidMesh {
  const vertexCount = bytes.readUInt32LE(0);
  const triangleCount = bytes.readUInt32LE(4);
  if (bytes.length !== 8 + vertexCount * 12 + triangleCount * 12) throw new Error('the stored mesh is truncated');
  const vertices = new Float32Array(vertexCount * 3);
  for (let i = 0; i < vertices.length; i++) vertices[i] = bytes.readFloatLE(8 + i * 4);
  const at = 8 + vertexCount * 12;
  const indices = new Uint32Array(triangleCount * 3);
  for (let i = 0; i < indices.length; i++) indices[i] = bytes.readUInt32LE(at + i * 4);
  return { vertices, indices };
}

export function meshFacts(mesh: SolidMesh): MeshFacts {
  const v = mesh.vertices;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i++) {
    min[i % 3] = Math.min(min[i % 3], v[i]);
    max[i % 3] = Math.max(max[i % 3], v[i]);
  }
  let volume = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t] * 3, mesh.indices[t + 1] * 3, mesh.indices[t + 2] * 3];
    volume +=
      (v[a] * (v[b + 1] * v[c + 2] - v[b + 2] * v[c + 1]) -
        v[a + 1] * (v[b] * v[c + 2] - v[b + 2] * v[c]) +
        v[a + 2] * (v[b] * v[c + 1] - v[b + 1] * v[c])) /
      6;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    triangles: mesh.indices.length / 3,
    vertices: v.length / 3,
    size_mm: [round(max[0] - min[0]), round(max[1] - min[1]), round(max[2] - min[2])],
    volume_mm3: round(volume),
  };
}
