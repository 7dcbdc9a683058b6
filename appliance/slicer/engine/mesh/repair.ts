/**
 * Mesh repair before slicing: weld points that differ by float noise, drop degenerate and
 * duplicate triangles, orient every shell consistently and outward (cavities inward), and
 * report what is still broken. Holes are not filled in 3D; the slicer closes the resulting
 * cracks in 2D. Every pass is linear (hash tables over typed arrays).
 */
import { buildEdgeTable, edgeDefects, edgesAfterFlips, type EdgeTable, type SliceEdges } from './edges.js';
import { orientShells } from './orient.js';
import type { IndexedMesh, RepairReport } from './types.js';
import { weldWithinTolerance } from './weld.js';

/** Points closer than this on every axis are one point (mm). */
export const WELD_TOLERANCE_MM = 1e-4;
/**
 * A triangle is degenerate when its height over its longest edge is below this fraction of
 * that edge: float32 coordinates cannot resolve anything thinner.
 */
const DEGENERATE_RELATIVE_HEIGHT = 1e-7;

export interface RepairResult {
  mesh: IndexedMesh;
  report: RepairReport;
  /** The repaired mesh's edge ids, as buildEdgeTable numbers them, in shared memory (for slicing). */
  edges: SliceEdges;
}

function isDegenerate(v: Float32Array, a: number, b: number, c: number): boolean {
  if (a === b || b === c || a === c) return true;
  const ax = v[a * 3],
    ay = v[a * 3 + 1],
    az = v[a * 3 + 2];
  const ux = v[b * 3] - ax,
    uy = v[b * 3 + 1] - ay,
    uz = v[b * 3 + 2] - az;
  const wx = v[c * 3] - ax,
    wy = v[c * 3 + 1] - ay,
    wz = v[c * 3 + 2] - az;
  const nx = uy * wz - uz * wy,
    ny = uz * wx - ux * wz,
    nz = ux * wy - uy * wx;
  const cross2 = nx * nx + ny * ny + nz * nz;
  const ex = wx - ux,
    ey = wy - uy,
    ez = wz - uz;
  const longest2 = Math.max(ux * ux + uy * uy + uz * uz, wx * wx + wy * wy + wz * wz, ex * ex + ey * ey + ez * ez);
  // |cross| = longest * height, so height <= f * longest  <=>  cross² <= f² * longest⁴.
  return cross2 <= DEGENERATE_RELATIVE_HEIGHT * DEGENERATE_RELATIVE_HEIGHT * longest2 * longest2;
}

/** Keeps the first of triangles with the same three vertices, in any order or winding. */
class TriangleSet {
  private readonly table: Int32Array;
  private readonly mask: number;

  constructor(
    capacity: number,
    private readonly indices: Uint32Array,
  ) {
    let size = 64;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Adds triangle t (already written to `indices`); false when an equal one is present. */
  add(t: number): boolean {
    const idx = this.indices;
    const a = idx[t * 3],
      b = idx[t * 3 + 1],
      c = idx[t * 3 + 2];
    const lo = Math.min(a, b, c);
    const hi = Math.max(a, b, c);
    const mid = a + b + c - lo - hi;
    let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(mid, 0x85ebca77) ^ Math.imul(hi, 0xc2b2ae3d);
    h ^= h >>> 15;
    let slot = h & this.mask;
    for (;;) {
      const other = this.table[slot];
      if (other < 0) break;
      const oa = idx[other * 3],
        ob = idx[other * 3 + 1],
        oc = idx[other * 3 + 2];
      const olo = Math.min(oa, ob, oc);
      const ohi = Math.max(oa, ob, oc);
      if (olo === lo && ohi === hi && oa + ob + oc - olo - ohi === mid) return false;
      slot = (slot + 1) & this.mask;
    }
    this.table[slot] = t;
    return true;
  }
}

type EdgeDefects = { openEdges: number; nonManifoldEdges: number };

/**
 * Open and non-manifold edges of the input once welded, before any triangle was dropped: the kept
 * triangles' counts (`kept`, from their edge table) with the dropped triangles' edges added back.
 * Edge uses add up over triangles, so only the edges of dropped triangles can change; a table of
 * the whole input again took a tenth of the bearing's repair for its 16 degenerate triangles.
 */
function inputDefects(edges: EdgeTable, indices: Uint32Array, dropped: readonly number[], points: number, kept: EdgeDefects): EdgeDefects {
  const added = new Map<string, number>();
  const touched = new Uint8Array(points);
  for (let k = 0; k < dropped.length; k += 3) {
    for (let c = 0; c < 3; c++) {
      const a = dropped[k + c];
      const b = dropped[k + (c === 2 ? 0 : c + 1)];
      const key = a < b ? `${a} ${b}` : `${b} ${a}`;
      added.set(key, (added.get(key) ?? 0) + 1);
      touched[a] = 1;
      touched[b] = 1;
    }
  }
  // How often the kept triangles use each of those edges (absent: not at all).
  const keptUses = new Map<string, number>();
  for (let h = 0; h < indices.length; h++) {
    const a = indices[h];
    const b = indices[h % 3 === 2 ? h - 2 : h + 1];
    if (touched[a] === 0 || touched[b] === 0) continue;
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (added.has(key)) keptUses.set(key, edges.uses[edges.edgeOf[h]]);
  }
  let { openEdges, nonManifoldEdges } = kept;
  for (const [key, more] of added) {
    const before = keptUses.get(key) ?? 0;
    const after = before + more;
    if (before === 1) openEdges--;
    else if (before > 2) nonManifoldEdges--;
    if (after === 1) openEdges++;
    else if (after > 2) nonManifoldEdges++;
  }
  return { openEdges, nonManifoldEdges };
}

interface CleanTriangles {
  indices: Uint32Array;
  degenerateTriangles: number;
  duplicateTriangles: number;
  /** The dropped triangles' points (welded), three per triangle. */
  dropped: number[];
}

/** Input triangles on welded points, without degenerate and duplicate ones. */
function cleanTriangles(input: Uint32Array, remap: Uint32Array, vertices: Float32Array): CleanTriangles {
  const triangles = input.length / 3;
  const kept = new Uint32Array(input.length);
  const unique = new TriangleSet(triangles, kept);
  let count = 0;
  let degenerateTriangles = 0;
  let duplicateTriangles = 0;
  const dropped: number[] = [];
  for (let t = 0; t < triangles; t++) {
    const a = remap[input[t * 3]];
    const b = remap[input[t * 3 + 1]];
    const c = remap[input[t * 3 + 2]];
    if (isDegenerate(vertices, a, b, c)) {
      degenerateTriangles++;
      dropped.push(a, b, c);
      continue;
    }
    kept[count * 3] = a;
    kept[count * 3 + 1] = b;
    kept[count * 3 + 2] = c;
    if (unique.add(count)) count++;
    else {
      duplicateTriangles++;
      dropped.push(a, b, c);
    }
  }
  return { indices: kept.slice(0, count * 3), degenerateTriangles, duplicateTriangles, dropped };
}

/** The final mesh: only the points triangles use, in first-use order, with flipped triangles reversed. */
function compactAndOrient(points: Float32Array, indices: Uint32Array, flip: Uint8Array): IndexedMesh {
  const newIndex = new Int32Array(points.length / 3).fill(-1);
  const vertices = new Float32Array(points.length);
  const out = new Uint32Array(indices.length);
  let used = 0;
  for (let k = 0; k < indices.length; k++) {
    const old = indices[k];
    if (newIndex[old] < 0) {
      newIndex[old] = used;
      vertices[used * 3] = points[old * 3];
      vertices[used * 3 + 1] = points[old * 3 + 1];
      vertices[used * 3 + 2] = points[old * 3 + 2];
      used++;
    }
    out[k] = newIndex[old];
  }
  for (let t = 0; t < flip.length; t++) {
    if (!flip[t]) continue;
    const swap = out[t * 3 + 1];
    out[t * 3 + 1] = out[t * 3 + 2];
    out[t * 3 + 2] = swap;
  }
  return { vertices: vertices.slice(0, used * 3), indices: out };
}

export function repairMesh(mesh: IndexedMesh): RepairResult {
  const weld = weldWithinTolerance(mesh.vertices, WELD_TOLERANCE_MM);
  const clean = cleanTriangles(mesh.indices, weld.remap, weld.vertices);
  const edges = buildEdgeTable(clean.indices);
  const orientation = orientShells(weld.vertices, clean.indices, edges);
  const after = edgeDefects(edges);
  const before = clean.dropped.length === 0 ? after : inputDefects(edges, clean.indices, clean.dropped, weld.vertices.length / 3, after);

  return {
    mesh: compactAndOrient(weld.vertices, clean.indices, orientation.flip),
    edges: edgesAfterFlips(edges, orientation.flip),
    report: {
      weldedVertices: (mesh.vertices.length - weld.vertices.length) / 3,
      degenerateTriangles: clean.degenerateTriangles,
      duplicateTriangles: clean.duplicateTriangles,
      flippedTriangles: orientation.flippedTriangles,
      openEdges: after.openEdges,
      nonManifoldEdges: after.nonManifoldEdges,
      inputOpenEdges: before.openEdges,
      inputNonManifoldEdges: before.nonManifoldEdges,
      invertedShells: orientation.invertedShells,
      shells: orientation.shells,
      volume: orientation.volume,
    },
  };
}
