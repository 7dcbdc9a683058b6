/**
 * Consistent, outward orientation of a mesh's shells. Triangles are grouped into shells by a
 * breadth-first walk across manifold edges, flipping each neighbour that runs the shared edge
 * the same way. Each shell is then turned so that its signed volume is positive, except a shell
 * that lies inside an odd number of other shells: that is a cavity, whose faces point inward
 * (into the void), so its volume must be negative. Nesting is found by ray parity.
 */
import type { EdgeTable } from './edges.js';

export interface Orientation {
  /** 1 for each triangle that must be reversed. */
  flip: Uint8Array;
  shells: number;
  /** Triangles reversed in total. */
  flippedTriangles: number;
  /** Shells of which more than half the triangles were reversed: they were inside out. */
  invertedShells: number;
  /** Enclosed volume after orientation in mm³, cavities subtracted. */
  volume: number;
}

/** An oblique direction, so rays seldom graze the edges of axis-aligned models. */
const RAY = [0.8017, 0.4321, 0.4129];

interface Shells {
  count: number;
  shellOf: Int32Array;
  /** Triangles of shell s are order[start[s] .. start[s + 1]). */
  start: Int32Array;
  order: Int32Array;
}

function findShells(indices: Uint32Array, edges: EdgeTable, flip: Uint8Array): Shells {
  const triangles = indices.length / 3;
  const shellOf = new Int32Array(triangles).fill(-1);
  const queue = new Int32Array(triangles);
  let count = 0;
  for (let seed = 0; seed < triangles; seed++) {
    if (shellOf[seed] >= 0) continue;
    const shell = count++;
    shellOf[seed] = shell;
    let head = 0;
    let tail = 0;
    queue[tail++] = seed;
    while (head < tail) {
      const t = queue[head++];
      for (let k = 0; k < 3; k++) {
        const h = t * 3 + k;
        const e = edges.edgeOf[h];
        if (edges.uses[e] !== 2) continue;
        const other = edges.firstHalfEdge[e] === h ? edges.secondHalfEdge[e] : edges.firstHalfEdge[e];
        const u = (other / 3) | 0;
        if (shellOf[u] >= 0) continue;
        // Consistent neighbours run a shared edge in opposite directions: same start vertex means one must turn.
        flip[u] = flip[t] ^ (indices[h] === indices[other] ? 1 : 0);
        shellOf[u] = shell;
        queue[tail++] = u;
      }
    }
  }
  const start = new Int32Array(count + 1);
  for (let t = 0; t < triangles; t++) start[shellOf[t] + 1]++;
  for (let s = 0; s < count; s++) start[s + 1] += start[s];
  const fill = start.slice(0, count);
  const order = new Int32Array(triangles);
  for (let t = 0; t < triangles; t++) order[fill[shellOf[t]]++] = t;
  return { count, shellOf, start, order };
}

/** Per shell: min x, y, z, max x, y, z. */
function shellBounds(v: Float32Array, indices: Uint32Array, shells: Shells): Float64Array {
  const box = new Float64Array(shells.count * 6);
  for (let s = 0; s < shells.count; s++) {
    box.fill(Infinity, s * 6, s * 6 + 3);
    box.fill(-Infinity, s * 6 + 3, s * 6 + 6);
  }
  for (let i = 0; i < indices.length; i++) {
    const o = indices[i] * 3;
    const b = shells.shellOf[(i / 3) | 0] * 6;
    for (let axis = 0; axis < 3; axis++) {
      const c = v[o + axis];
      if (c < box[b + axis]) box[b + axis] = c;
      if (c > box[b + 3 + axis]) box[b + 3 + axis] = c;
    }
  }
  return box;
}

/** Signed volume of one shell with the current flips, measured from its box centre to keep the sums small. */
function shellVolume(v: Float32Array, indices: Uint32Array, flip: Uint8Array, shells: Shells, s: number, box: Float64Array): number {
  const rx = (box[s * 6] + box[s * 6 + 3]) / 2;
  const ry = (box[s * 6 + 1] + box[s * 6 + 4]) / 2;
  const rz = (box[s * 6 + 2] + box[s * 6 + 5]) / 2;
  let sum = 0;
  for (let i = shells.start[s]; i < shells.start[s + 1]; i++) {
    const t = shells.order[i];
    const a = indices[t * 3] * 3;
    const b = indices[t * 3 + 1] * 3;
    const c = indices[t * 3 + 2] * 3;
    const ax = v[a] - rx,
      ay = v[a + 1] - ry,
      az = v[a + 2] - rz;
    const bx = v[b] - rx,
      by = v[b + 1] - ry,
      bz = v[b + 2] - rz;
    const cx = v[c] - rx,
      cy = v[c + 1] - ry,
      cz = v[c + 2] - rz;
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    sum += flip[t] ? -det : det;
  }
  return sum / 6;
}

/** Number of triangles of shell s that a ray from (ox, oy, oz) along RAY crosses (Möller–Trumbore). */
function rayCrossings(v: Float32Array, indices: Uint32Array, shells: Shells, s: number, ox: number, oy: number, oz: number): number {
  const [dx, dy, dz] = RAY;
  let hits = 0;
  for (let i = shells.start[s]; i < shells.start[s + 1]; i++) {
    const t = shells.order[i];
    const a = indices[t * 3] * 3;
    const b = indices[t * 3 + 1] * 3;
    const c = indices[t * 3 + 2] * 3;
    const e1x = v[b] - v[a],
      e1y = v[b + 1] - v[a + 1],
      e1z = v[b + 2] - v[a + 2];
    const e2x = v[c] - v[a],
      e2y = v[c + 1] - v[a + 1],
      e2z = v[c + 2] - v[a + 2];
    const px = dy * e2z - dz * e2y,
      py = dz * e2x - dx * e2z,
      pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (Math.abs(det) < 1e-18) continue;
    const inv = 1 / det;
    const sx = ox - v[a],
      sy = oy - v[a + 1],
      sz = oz - v[a + 2];
    const u = (sx * px + sy * py + sz * pz) * inv;
    if (u < 0 || u > 1) continue;
    const qx = sy * e1z - sz * e1y,
      qy = sz * e1x - sx * e1z,
      qz = sx * e1y - sy * e1x;
    const w = (dx * qx + dy * qy + dz * qz) * inv;
    if (w < 0 || u + w > 1) continue;
    if ((e2x * qx + e2y * qy + e2z * qz) * inv > 1e-9) hits++;
  }
  return hits;
}

/** How many other shells contain shell s, judged from the centroid of its first triangle. */
function nestingDepth(v: Float32Array, indices: Uint32Array, shells: Shells, s: number, box: Float64Array): number {
  const t = shells.order[shells.start[s]];
  const a = indices[t * 3] * 3;
  const b = indices[t * 3 + 1] * 3;
  const c = indices[t * 3 + 2] * 3;
  const ox = (v[a] + v[b] + v[c]) / 3;
  const oy = (v[a + 1] + v[b + 1] + v[c + 1]) / 3;
  const oz = (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
  let depth = 0;
  for (let other = 0; other < shells.count; other++) {
    if (other === s) continue;
    const o = other * 6;
    if (ox <= box[o] || oy <= box[o + 1] || oz <= box[o + 2] || ox >= box[o + 3] || oy >= box[o + 4] || oz >= box[o + 5]) continue;
    if (rayCrossings(v, indices, shells, other, ox, oy, oz) % 2 === 1) depth++;
  }
  return depth;
}

export function orientShells(vertices: Float32Array, indices: Uint32Array, edges: EdgeTable): Orientation {
  const flip = new Uint8Array(indices.length / 3);
  const shells = findShells(indices, edges, flip);
  const box = shellBounds(vertices, indices, shells);
  const volumes = new Float64Array(shells.count);
  for (let s = 0; s < shells.count; s++) volumes[s] = shellVolume(vertices, indices, flip, shells, s, box);

  let flippedTriangles = 0;
  let invertedShells = 0;
  let volume = 0;
  for (let s = 0; s < shells.count; s++) {
    const cavity = shells.count > 1 && nestingDepth(vertices, indices, shells, s, box) % 2 === 1;
    const turn = cavity ? volumes[s] > 0 : volumes[s] < 0;
    let reversed = 0;
    for (let i = shells.start[s]; i < shells.start[s + 1]; i++) {
      const t = shells.order[i];
      if (turn) flip[t] ^= 1;
      reversed += flip[t];
    }
    const size = shells.start[s + 1] - shells.start[s];
    if (reversed * 2 > size) invertedShells++;
    flippedTriangles += reversed;
    volume += turn ? -volumes[s] : volumes[s];
  }
  return { flip, shells: shells.count, flippedTriangles, invertedShells, volume };
}
