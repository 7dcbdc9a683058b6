/**
 * Affine transforms as 3MF stores them: 12 numbers, the 3x3 linear part row by row, then the
 * translation, in the row-vector convention (x' = x*m00 + y*m10 + z*m20 + m30, and so on).
 */
import type { IndexedMesh } from './types.js';

/** m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32. */
export type Affine = Float64Array;

export function identity(): Affine {
  return Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
}

/** A transform of the linear part `m` alone (3x3, row by row), without a translation. */
export function linearAffine(m: readonly number[]): Affine {
  return Float64Array.of(...m, 0, 0, 0);
}

/** Rotation about one axis (0 = x, 1 = y, 2 = z) by `degrees`, counter-clockwise looking down the axis. */
export function rotationAffine(axis: 0 | 1 | 2, degrees: number): Affine {
  const r = (degrees * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  // Row-vector convention: the transpose of the textbook matrices.
  if (axis === 0) return linearAffine([1, 0, 0, 0, c, s, 0, -s, c]);
  if (axis === 1) return linearAffine([c, 0, -s, 0, 1, 0, s, 0, c]);
  return linearAffine([c, s, 0, -s, c, 0, 0, 0, 1]);
}

/** Parses a 3MF `transform` attribute; null when it is not 12 finite numbers. */
export function parseAffine(text: string): Affine | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 12) return null;
  const m = new Float64Array(12);
  for (let k = 0; k < 12; k++) {
    const v = Number(parts[k]);
    if (!Number.isFinite(v)) return null;
    m[k] = v;
  }
  return m;
}

/** The transform that applies `first`, then `second`. */
export function compose(first: Affine, second: Affine): Affine {
  const out = new Float64Array(12);
  for (let row = 0; row < 4; row++) {
    const a0 = first[row * 3];
    const a1 = first[row * 3 + 1];
    const a2 = first[row * 3 + 2];
    for (let col = 0; col < 3; col++) {
      out[row * 3 + col] = a0 * second[col] + a1 * second[3 + col] + a2 * second[6 + col];
    }
  }
  out[9] += second[9];
  out[10] += second[10];
  out[11] += second[11];
  return out;
}

export function determinant(m: Affine): number {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** Scales the translation part, for transforms written in a model unit other than mm. */
export function scaleTranslation(m: Affine, factor: number): Affine {
  const out = Float64Array.from(m);
  out[9] *= factor;
  out[10] *= factor;
  out[11] *= factor;
  return out;
}

/**
 * Applies the transform to a copy of the mesh. A mirroring transform (negative determinant)
 * turns the surface inside out, so triangle winding is reversed to keep normals outward.
 */
export function transformMesh(mesh: IndexedMesh, m: Affine): IndexedMesh {
  const src = mesh.vertices;
  const vertices = new Float32Array(src.length);
  for (let k = 0; k < src.length; k += 3) {
    const x = src[k];
    const y = src[k + 1];
    const z = src[k + 2];
    vertices[k] = x * m[0] + y * m[3] + z * m[6] + m[9];
    vertices[k + 1] = x * m[1] + y * m[4] + z * m[7] + m[10];
    vertices[k + 2] = x * m[2] + y * m[5] + z * m[8] + m[11];
  }
  let indices = mesh.indices;
  if (determinant(m) < 0) {
    indices = new Uint32Array(mesh.indices.length);
    for (let k = 0; k < indices.length; k += 3) {
      indices[k] = mesh.indices[k];
      indices[k + 1] = mesh.indices[k + 2];
      indices[k + 2] = mesh.indices[k + 1];
    }
  }
  return { vertices, indices };
}

/** Concatenates meshes into one, without welding. */
export function concatMeshes(meshes: readonly IndexedMesh[]): IndexedMesh {
  if (meshes.length === 1) return meshes[0];
  let vertexValues = 0;
  let indexValues = 0;
  for (const m of meshes) {
    vertexValues += m.vertices.length;
    indexValues += m.indices.length;
  }
  const vertices = new Float32Array(vertexValues);
  const indices = new Uint32Array(indexValues);
  let vo = 0;
  let io = 0;
  for (const m of meshes) {
    vertices.set(m.vertices, vo);
    const base = vo / 3;
    for (let k = 0; k < m.indices.length; k++) indices[io + k] = m.indices[k] + base;
    vo += m.vertices.length;
    io += m.indices.length;
  }
  return { vertices, indices };
}
