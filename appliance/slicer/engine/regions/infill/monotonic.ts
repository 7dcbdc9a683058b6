/**
 * Monotonic order for single-direction fills: a line is printed only after every line of the
 * row below that touches it, so the whole surface is laid in one sweep (rows in increasing order,
 * i.e. across the lines towards +Y of the hatch frame) and no line is ever squeezed against an
 * already printed neighbour from the far side. That is what gives monotonic top surfaces their
 * even sheen.
 */
import { reachesLength } from '../../geometry/lines.js';
import { emptyBBox, reversed } from '../../geometry/polygon.js';
import type { Boundary } from './boundary.js';
import { buildChains, linkPieces, noLinks, type Chain } from './link.js';
import { NearestGrid } from './nearest.js';
import type { Pieces } from './pieces.js';

/** One island's chains and the "must print before" edges between them. */
export interface MonotonicIsland {
  chains: Chain[];
  /** Pairs (before, after) of chain indices. */
  edges: Int32Array;
}

/**
 * Chains of one island's pieces (one family, as `hatch` emits them: by row, then along the row),
 * joined into zig-zags only where a chain keeps climbing one row at a time.
 */
export function monotonicIsland(boundary: Boundary, pieces: Pieces, connect: boolean, maxArc: number): MonotonicIsland {
  const neighbours = rowNeighbours(pieces);
  const solePred = new Int32Array(pieces.count).fill(-1);
  const predCount = new Int32Array(pieces.count);
  for (let k = 0; k < neighbours.length; k += 2) {
    const q = neighbours[k + 1];
    predCount[q]++;
    solePred[q] = predCount[q] === 1 ? neighbours[k] : -1;
  }
  const links = connect ? linkPieces(boundary, pieces, { maxArc, neighbourRowsOnly: true, solePred }) : noLinks(pieces.count);
  const { chains, chainOf } = buildChains(boundary, pieces, links);
  for (const chain of chains) {
    if (pieces.row[chain.first] > pieces.row[chain.last]) {
      chain.points = reversed(chain.points);
      [chain.first, chain.last] = [chain.last, chain.first];
    }
  }
  const edges: number[] = [];
  for (let k = 0; k < neighbours.length; k += 2) {
    const a = chainOf[neighbours[k]];
    const b = chainOf[neighbours[k + 1]];
    if (a !== b) edges.push(a, b);
  }
  return { chains, edges: Int32Array.from(edges) };
}

/** Pairs (lower, upper) of pieces on consecutive rows whose extents along the rows overlap. */
function rowNeighbours(pieces: Pieces): Int32Array {
  const out: number[] = [];
  let prevStart = -1;
  let prevEnd = -1;
  let p = 0;
  while (p < pieces.count) {
    let end = p + 1;
    while (end < pieces.count && pieces.row[end] === pieces.row[p]) end++;
    if (prevStart >= 0 && pieces.row[prevStart] + 1 === pieces.row[p]) {
      let i = prevStart;
      let j = p;
      while (i < prevEnd && j < end) {
        if (pieces.lo[i] < pieces.hi[j] && pieces.lo[j] < pieces.hi[i]) out.push(i, j);
        if (pieces.hi[i] < pieces.hi[j]) i++;
        else j++;
      }
    }
    prevStart = p;
    prevEnd = end;
    p = end;
  }
  return Int32Array.from(out);
}

/**
 * Print order over all islands: among the chains whose predecessors are all printed, the one
 * nearest the nozzle goes next. A chain of several rows starts at its lowest row; a single line
 * may start at either end. Chains shorter than `minLength` are skipped (but still release the
 * chains that wait for them).
 */
export function orderMonotonic(islands: readonly MonotonicIsland[], x: number, y: number, minLength: number): Float64Array[] {
  const chains: Chain[] = [];
  const edgeFrom: number[] = [];
  const edgeTo: number[] = [];
  for (const island of islands) {
    const base = chains.length;
    chains.push(...island.chains);
    for (let k = 0; k < island.edges.length; k += 2) {
      edgeFrom.push(base + island.edges[k]);
      edgeTo.push(base + island.edges[k + 1]);
    }
  }
  const n = chains.length;
  const waiting = new Int32Array(n);
  const succStart = new Int32Array(n + 1);
  for (let k = 0; k < edgeFrom.length; k++) {
    waiting[edgeTo[k]]++;
    succStart[edgeFrom[k] + 1]++;
  }
  for (let c = 0; c < n; c++) succStart[c + 1] += succStart[c];
  const succ = new Int32Array(edgeFrom.length);
  const fillPos = succStart.slice(0, n);
  for (let k = 0; k < edgeFrom.length; k++) succ[fillPos[edgeFrom[k]]++] = edgeTo[k];

  const box = emptyBBox();
  for (const c of chains) {
    const p = c.points;
    box.minX = Math.min(box.minX, p[0], p[p.length - 2]);
    box.maxX = Math.max(box.maxX, p[0], p[p.length - 2]);
    box.minY = Math.min(box.minY, p[1], p[p.length - 1]);
    box.maxY = Math.max(box.maxY, p[1], p[p.length - 1]);
  }
  const grid = new NearestGrid(box, n * 2);
  const skipped: number[] = [];
  const release = (c: number) => {
    const p = chains[c].points;
    if (!reachesLength(p, minLength)) {
      skipped.push(c);
      return;
    }
    grid.insert(c * 2, p[0], p[1]);
    if (chains[c].first === chains[c].last) grid.insert(c * 2 + 1, p[p.length - 2], p[p.length - 1]);
  };
  const printed = (c: number) => {
    for (let k = succStart[c]; k < succStart[c + 1]; k++) if (--waiting[succ[k]] === 0) release(succ[k]);
  };
  for (let c = 0; c < n; c++) if (waiting[c] === 0) release(c);

  const out: Float64Array[] = [];
  let px = x;
  let py = y;
  for (;;) {
    for (let c = skipped.pop(); c !== undefined; c = skipped.pop()) printed(c);
    if (grid.size === 0) break;
    const id = grid.nearest(px, py);
    const c = id >> 1;
    grid.remove(c * 2);
    grid.remove(c * 2 + 1);
    const path = (id & 1) === 1 ? reversed(chains[c].points) : chains[c].points;
    out.push(path);
    px = path[path.length - 2];
    py = path[path.length - 1];
    printed(c);
  }
  return out;
}
