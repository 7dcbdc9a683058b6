/**
 * The undirected edges of an indexed mesh, found with one hash table pass. Half-edge h = 3t + k
 * runs from corner k to corner (k + 1) % 3 of triangle t. Repair uses the table to count open
 * and non-manifold edges and to walk across shared edges; the slicer can use the edge ids to
 * chain intersection segments topologically.
 */

export interface EdgeTable {
  /** Number of distinct undirected edges. */
  count: number;
  /** Edge id of each half-edge. */
  edgeOf: Int32Array;
  /** Number of half-edges on each edge: 1 = open, 2 = manifold, more = non-manifold. */
  uses: Uint32Array;
  /** The first and second half-edge found on each edge (-1 when there is none). */
  firstHalfEdge: Int32Array;
  secondHalfEdge: Int32Array;
}

export function buildEdgeTable(indices: Uint32Array): EdgeTable {
  const halfEdges = indices.length;
  let size = 64;
  while (size < halfEdges * 2) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const low = new Uint32Array(halfEdges);
  const high = new Uint32Array(halfEdges);
  const uses = new Uint32Array(halfEdges);
  const firstHalfEdge = new Int32Array(halfEdges);
  const secondHalfEdge = new Int32Array(halfEdges).fill(-1);
  const edgeOf = new Int32Array(halfEdges);
  let count = 0;

  for (let h = 0; h < halfEdges; h++) {
    const a = indices[h];
    const b = indices[h % 3 === 2 ? h - 2 : h + 1];
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let key = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77);
    key ^= key >>> 16;
    let slot = key & mask;
    let edge = -1;
    for (;;) {
      const e = table[slot];
      if (e < 0) break;
      if (low[e] === lo && high[e] === hi) {
        edge = e;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (edge < 0) {
      edge = count++;
      table[slot] = edge;
      low[edge] = lo;
      high[edge] = hi;
      firstHalfEdge[edge] = h;
    } else if (uses[edge] === 1) {
      secondHalfEdge[edge] = h;
    }
    uses[edge]++;
    edgeOf[h] = edge;
  }
  return {
    count,
    edgeOf,
    uses: uses.slice(0, count),
    firstHalfEdge: firstHalfEdge.slice(0, count),
    secondHalfEdge: secondHalfEdge.slice(0, count),
  };
}

/** Counts of open (one triangle) and non-manifold (more than two triangles) edges. */
export function edgeDefects(edges: EdgeTable): { openEdges: number; nonManifoldEdges: number } {
  let openEdges = 0;
  let nonManifoldEdges = 0;
  for (let e = 0; e < edges.count; e++) {
    if (edges.uses[e] === 1) openEdges++;
    else if (edges.uses[e] > 2) nonManifoldEdges++;
  }
  return { openEdges, nonManifoldEdges };
}
