/**
 * "Lay on the largest flat face": the rotation that puts the largest planar patch of the hull
 * down on the bed. Triangles are grouped by plane (normal and offset, rounded); the groups are
 * tried from the largest area down, and the first plane with the whole model behind it (so the
 * model rests on it instead of cutting through the bed) is chosen. Normals come from the repaired
 * mesh, so a model with flipped triangles still finds its outside.
 */
import { type Affine, concatMeshes, type IndexedMesh, repairMesh } from '../../slicer/index.js';
import { faceCross } from './measure.js';

/** Normals within about 0.06° and planes within 0.01 mm are one face. */
const NORMAL_STEP = 1e-3;
const OFFSET_STEP = 0.01;
/** How many candidate planes to test against every vertex before settling for the largest one. */
const MAX_CANDIDATES = 64;

interface Plane {
  area: number;
  nx: number;
  ny: number;
  nz: number;
  offset: number;
}

function planes(mesh: IndexedMesh): Plane[] {
  const v = mesh.vertices;
  const idx = mesh.indices;
  const groups = new Map<string, Plane>();
  const n = new Float64Array(3);
  for (let k = 0; k < idx.length; k += 3) {
    const a = idx[k] * 3;
    const [cx, cy, cz] = faceCross(mesh, k, n);
    const length = Math.hypot(cx, cy, cz);
    if (length === 0) continue;
    const nx = cx / length,
      ny = cy / length,
      nz = cz / length;
    const offset = nx * v[a] + ny * v[a + 1] + nz * v[a + 2];
    const key = `${Math.round(nx / NORMAL_STEP)},${Math.round(ny / NORMAL_STEP)},${Math.round(nz / NORMAL_STEP)},${Math.round(offset / OFFSET_STEP)}`;
    const group = groups.get(key);
    if (group) group.area += length / 2;
    else groups.set(key, { area: length / 2, nx, ny, nz, offset });
  }
  return [...groups.values()].sort((p, q) => q.area - p.area);
}

function supports(mesh: IndexedMesh, plane: Plane): boolean {
  const v = mesh.vertices;
  const tolerance = OFFSET_STEP * 2;
  for (let k = 0; k < v.length; k += 3) {
    if (plane.nx * v[k] + plane.ny * v[k + 1] + plane.nz * v[k + 2] > plane.offset + tolerance) return false;
  }
  return true;
}

/** The rotation (row-vector affine) that turns the unit vector n to point straight down. */
function turnDown(nx: number, ny: number, nz: number): Affine {
  // Rodrigues: axis n × (0, 0, -1) = (-ny, nx, 0), cos = -nz.
  const cos = -nz;
  if (cos > 1 - 1e-12) return Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
  if (cos < -1 + 1e-12) return Float64Array.of(1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0);
  const ax = -ny,
    ay = nx;
  const s2 = ax * ax + ay * ay;
  const k = (1 - cos) / s2;
  // Column-vector matrix R = I + [a]x + [a]x² (1 - cos) / sin², with a = (ax, ay, 0).
  const r = [
    [1 - k * ay * ay, k * ax * ay, ay],
    [k * ax * ay, 1 - k * ax * ax, -ax],
    [-ay, ax, 1 - k * s2],
  ];
  return Float64Array.of(r[0][0], r[1][0], r[2][0], r[0][1], r[1][1], r[2][1], r[0][2], r[1][2], r[2][2], 0, 0, 0);
}

export function largestFlatFaceDown(meshes: readonly IndexedMesh[]): Affine {
  const mesh = repairMesh(concatMeshes(meshes)).mesh;
  const candidates = planes(mesh);
  if (candidates.length === 0) return turnDown(0, 0, -1);
  const chosen = candidates.slice(0, MAX_CANDIDATES).find((p) => supports(mesh, p)) ?? candidates[0];
  return turnDown(chosen.nx, chosen.ny, chosen.nz);
}
