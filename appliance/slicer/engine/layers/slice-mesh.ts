/**
 * Cuts a mesh with horizontal planes. Each triangle finds the planes that cross it by binary
 * search and emits one segment per plane, oriented so that the solid lies on its left (outer
 * contours come out counter-clockwise) and tagged with the ids of the two mesh edges it starts
 * and ends on. A vertex exactly on a plane counts as above it, which keeps neighbouring
 * triangles consistent without nudging coordinates.
 */
import type { IndexedMesh } from '../mesh/types.js';
import type { SliceEdges } from '../mesh/edges.js';
import { firstAbove, firstAtOrAbove } from '../geometry/search.js';

export interface LayerSegments {
  count: number;
  /** x0, y0, x1, y1 per segment. */
  coords: Float64Array;
  startEdge: Uint32Array;
  endEdge: Uint32Array;
}

/**
 * Planes whose section is the section of the plane below (1) or not (0). A plane crosses the
 * triangles with zmin < z <= zmax, so two planes with no vertex height in [below, above) cross the
 * same ones; when all of those stand vertical, the mesh is a prism between the planes and its
 * section does not change (the segments do: a wall's triangles are crossed at other points, but
 * they tile the same outline). The first plane has none below.
 */
export function repeatedSections(mesh: IndexedMesh, sliceZs: Float64Array): Uint8Array {
  const v = mesh.vertices;
  const idx = mesh.indices;
  const heights = Float64Array.from({ length: v.length / 3 }, (_, k) => v[k * 3 + 2]).sort();
  let distinct = 0;
  for (let k = 0; k < heights.length; k++) if (k === 0 || heights[k] !== heights[k - 1]) heights[distinct++] = heights[k];
  const levels = heights.subarray(0, distinct);
  // Slab k lies between levels[k - 1] and levels[k]: a plane at z is in slab (levels below z).
  const slabOf = (z: number) => firstAtOrAbove(levels, z);
  const sloped = new Int32Array(distinct + 2);
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t] * 3;
    const b = idx[t + 1] * 3;
    const c = idx[t + 2] * 3;
    const normalZ = (v[b] - v[a]) * (v[c + 1] - v[a + 1]) - (v[b + 1] - v[a + 1]) * (v[c] - v[a]);
    if (normalZ === 0) continue;
    const zmin = Math.min(v[a + 2], v[b + 2], v[c + 2]);
    const zmax = Math.max(v[a + 2], v[b + 2], v[c + 2]);
    // Crossed by the planes of slabs slabOf(zmin) + 1 to slabOf(zmax).
    sloped[slabOf(zmin) + 1]++;
    sloped[slabOf(zmax) + 1]--;
  }
  for (let k = 1; k < sloped.length; k++) sloped[k] += sloped[k - 1];
  const repeated = new Uint8Array(sliceZs.length);
  for (let p = 1; p < sliceZs.length; p++) {
    const slab = slabOf(sliceZs[p]);
    repeated[p] = slab === slabOf(sliceZs[p - 1]) && sloped[slab] === 0 ? 1 : 0;
  }
  return repeated;
}

/* Plain comparisons rather than Math.min/max, which treat NaN and -0 differently. */
function min3(a: number, b: number, c: number): number {
  if (a < b) return a < c ? a : c;
  return b < c ? b : c;
}

function max3(a: number, b: number, c: number): number {
  if (a > b) return a > c ? a : c;
  return b > c ? b : c;
}

/**
 * Segments for the planes sliceZs[first..last) (sliceZs sorted ascending). Returns one entry per
 * plane in that range; planes marked in `skip` (by plane index) are left empty, uncut.
 */
export function sliceMesh(
  mesh: IndexedMesh,
  edges: SliceEdges,
  sliceZs: Float64Array,
  first: number,
  last: number,
  skip?: Uint8Array,
): LayerSegments[] {
  const v = mesh.vertices;
  const idx = mesh.indices;
  const triCount = idx.length / 3;
  const planes = last - first;
  const counts = new Uint32Array(planes);
  const zLow = sliceZs[first];
  const zHigh = sliceZs[last - 1];
  // Only the planes to cut are walked: a wall of a prism crosses every plane, most of which are
  // skipped (the rigid3d platform: 705 of 850), and testing each of them per triangle was most of
  // the cut's time. The planes in (zmin, zmax] are the same, in the same order.
  const cutZ = new Float64Array(planes);
  const cutPlane = new Int32Array(planes);
  let cutCount = 0;
  for (let p = first; p < last; p++) {
    if (skip?.[p]) continue;
    cutZ[cutCount] = sliceZs[p];
    cutPlane[cutCount++] = p;
  }

  for (let t = 0; t < triCount; t++) {
    const z0 = v[idx[t * 3] * 3 + 2];
    const z1 = v[idx[t * 3 + 1] * 3 + 2];
    const z2 = v[idx[t * 3 + 2] * 3 + 2];
    const zmin = min3(z0, z1, z2);
    const zmax = max3(z0, z1, z2);
    if (zmax < zLow || zmin >= zHigh) continue;
    for (let j = firstAbove(cutZ, zmin, 0, cutCount); j < cutCount && cutZ[j] <= zmax; j++) counts[cutPlane[j] - first]++;
  }

  const out: LayerSegments[] = new Array(planes);
  // Planes with nothing to cut (skipped, or above or below the mesh) share one empty entry: the cut
  // below never writes to a plane no triangle crosses.
  const none: LayerSegments = { count: 0, coords: new Float64Array(0), startEdge: new Uint32Array(0), endEdge: new Uint32Array(0) };
  for (let p = 0; p < planes; p++) {
    const n = counts[p];
    out[p] = n === 0 ? none : { count: 0, coords: new Float64Array(n * 4), startEdge: new Uint32Array(n), endEdge: new Uint32Array(n) };
  }

  const te = edges.edgeOf;
  // Interpolate from the lower vertex index to the higher one, so that both triangles sharing the
  // edge compute bit-identical points.
  const crossX = (i: number, j: number, z: number, axis: 0 | 1): number => {
    const a = (i < j ? i : j) * 3;
    const b = (i < j ? j : i) * 3;
    const za = v[a + 2];
    const k = (z - za) / (v[b + 2] - za);
    return v[a + axis] + k * (v[b + axis] - v[a + axis]);
  };

  for (let t = 0; t < triCount; t++) {
    const i0 = idx[t * 3];
    const i1 = idx[t * 3 + 1];
    const i2 = idx[t * 3 + 2];
    const z0 = v[i0 * 3 + 2];
    const z1 = v[i1 * 3 + 2];
    const z2 = v[i2 * 3 + 2];
    const zmin = min3(z0, z1, z2);
    const zmax = max3(z0, z1, z2);
    if (zmax < zLow || zmin >= zHigh) continue;
    for (let j = firstAbove(cutZ, zmin, 0, cutCount); j < cutCount && cutZ[j] <= zmax; j++) {
      const p = cutPlane[j];
      const z = cutZ[j];
      const a0 = z0 >= z;
      const a1 = z1 >= z;
      const a2 = z2 >= z;
      // Edge k runs from vertex k to vertex k+1. The segment starts where the boundary goes from
      // above to below and ends where it comes back up.
      let from: number;
      let to: number;
      if (a0 && !a1) from = 0;
      else if (a1 && !a2) from = 1;
      else from = 2;
      if (!a0 && a1) to = 0;
      else if (!a1 && a2) to = 1;
      else to = 2;
      const eFrom = te[t * 3 + from];
      const eTo = te[t * 3 + to];
      const fa = idx[t * 3 + from];
      const fb = idx[t * 3 + ((from + 1) % 3)];
      const ta = idx[t * 3 + to];
      const tb = idx[t * 3 + ((to + 1) % 3)];
      const layer = out[p - first];
      const s = layer.count++;
      layer.coords[s * 4] = crossX(fa, fb, z, 0);
      layer.coords[s * 4 + 1] = crossX(fa, fb, z, 1);
      layer.coords[s * 4 + 2] = crossX(ta, tb, z, 0);
      layer.coords[s * 4 + 3] = crossX(ta, tb, z, 1);
      layer.startEdge[s] = eFrom;
      layer.endEdge[s] = eTo;
    }
  }
  return out;
}
