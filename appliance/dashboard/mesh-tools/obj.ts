/**
 * Wavefront OBJ reader: the geometry only (`v` and `f`; texture coordinates, normals, groups and
 * materials are ignored). OBJ is already indexed, so vertices are taken as they are; faces with
 * more than three corners are fanned into triangles, and negative (relative) indices are resolved.
 * The slicing engine reads STL and 3MF; OBJ is read here for the mesh tools alone.
 */
import { badModel, type IndexedMesh } from '../../slicer/index.js';

const KNOWN_STATEMENTS = /^(#|v|vt|vn|vp|f|l|p|o|g|s|usemtl|mtllib|cstype|deg|curv|surf)$/;
const PROBE_BYTES = 4096;

/** Text whose first lines are OBJ statements, with at least one vertex among them. */
export function looksLikeObj(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, Math.min(bytes.length, PROBE_BYTES));
  for (const b of head) if (b < 9 || (b > 13 && b < 32)) return false;
  const lines = new TextDecoder().decode(head).split(/\r?\n/);
  if (head.length === PROBE_BYTES) lines.pop();
  let vertices = 0;
  for (const line of lines) {
    const word = line.trim().split(/\s+/, 1)[0];
    if (word === '') continue;
    if (!KNOWN_STATEMENTS.test(word) && !word.startsWith('#')) return false;
    if (word === 'v') vertices++;
  }
  return vertices > 0;
}

function faceIndex(token: string, vertexCount: number, lineNumber: number): number {
  const n = Number.parseInt(token.split('/', 1)[0], 10);
  const index = n < 0 ? vertexCount + n : n - 1;
  if (!Number.isInteger(n) || n === 0 || index < 0 || index >= vertexCount) {
    throw badModel(`OBJ line ${lineNumber}: face corner "${token}" names no vertex read so far (there are ${vertexCount})`);
  }
  return index;
}

export function parseObj(bytes: Uint8Array): IndexedMesh {
  const text = new TextDecoder().decode(bytes);
  const coords: number[] = [];
  const indices: number[] = [];
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNumber++;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line.startsWith('v ') || line.startsWith('v\t')) {
      const parts = line.split(/\s+/);
      const x = Number(parts[1]);
      const y = Number(parts[2]);
      const z = Number(parts[3]);
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw badModel(`OBJ line ${lineNumber}: a vertex needs three numbers`);
      coords.push(x, y, z);
    } else if (line.startsWith('f ') || line.startsWith('f\t')) {
      const vertexCount = coords.length / 3;
      const corners = line
        .split(/\s+/)
        .slice(1)
        .map((token) => faceIndex(token, vertexCount, lineNumber));
      if (corners.length < 3) throw badModel(`OBJ line ${lineNumber}: a face needs at least three corners`);
      for (let k = 1; k + 1 < corners.length; k++) indices.push(corners[0], corners[k], corners[k + 1]);
    }
  }
  if (indices.length === 0) throw badModel('the OBJ file has no faces');
  return { vertices: Float32Array.from(coords), indices: Uint32Array.from(indices) };
}
