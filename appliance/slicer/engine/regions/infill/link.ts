/**
 * Joins fill pieces into chains by walking along the island boundary from the end of one piece
 * to the start of the next, so the nozzle zig-zags instead of travelling. Only ends that are
 * next to each other along a ring are joined: the walk between them then meets no other line,
 * and it stays on the boundary, so inside the area.
 */
import { PathBuilder } from '../../geometry/lines.js';
import type { Boundary } from './boundary.js';
import type { Pieces } from './pieces.js';
import { sortIndicesByKey } from './stable-sort.js';

export interface LinkRules {
  /** Longest walk along the boundary (mm) one link may take. */
  maxArc: number;
  /** Join only pieces of the same family on neighbouring rows (solid fills). */
  neighbourRowsOnly: boolean;
  /**
   * Monotonic order: for every piece, the only piece of the row below that overlaps it, or -1.
   * A piece is then joined only to that lower neighbour, and at most once upwards and once
   * downwards, so every chain climbs row by row.
   */
  solePred?: Int32Array;
}

export interface Links {
  /** For each end, the end it is joined to, or -1. */
  partner: Int32Array;
  /** 1 when the walk from this end to its partner follows the ring's vertex order. */
  forward: Uint8Array;
}

export interface Chain {
  points: Float64Array;
  /** Piece printed first and last. */
  first: number;
  last: number;
}

/** Chooses the joins: each end at most once, and never one that would close a chain into a loop. */
export function linkPieces(boundary: Boundary, pieces: Pieces, rules: LinkRules): Links {
  const ends = pieces.count * 2;
  const partner = new Int32Array(ends).fill(-1);
  const forward = new Uint8Array(ends);
  const cand = candidates(boundary, pieces, rules);
  if (cand.length === 0) return { partner, forward };
  const parent = new Int32Array(pieces.count);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const linkedUp = new Uint8Array(rules.solePred ? pieces.count : 0);
  const linkedDown = new Uint8Array(rules.solePred ? pieces.count : 0);
  for (let c = 0; c < cand.length; c += 2) {
    const a = cand[c];
    const b = cand[c + 1];
    if (partner[a] >= 0 || partner[b] >= 0) continue;
    const ra = find(a >> 1);
    const rb = find(b >> 1);
    if (ra === rb) continue;
    if (rules.solePred) {
      const aLower = pieces.row[a >> 1] < pieces.row[b >> 1];
      const lower = aLower ? a >> 1 : b >> 1;
      const upper = aLower ? b >> 1 : a >> 1;
      if (linkedUp[lower] || linkedDown[upper]) continue;
      linkedUp[lower] = 1;
      linkedDown[upper] = 1;
    }
    partner[a] = b;
    partner[b] = a;
    forward[a] = 1;
    parent[ra] = rb;
  }
  return { partner, forward };
}

/** Each ring's walks between neighbouring ends and whether they may be joined, kept from call to call (read up to the ring's count). */
let walkScratch = new Float64Array(64);
let usableScratch = new Uint8Array(64);

/**
 * Candidate links as (from end, to end) pairs, the walk going forward along the ring, in the
 * order they are tried: along each ring, starting just after a gap (two neighbouring ends that
 * may not be joined). Trying them in ring order pairs a row of evenly spaced ends alternately,
 * which is a clean zig-zag; trying shortest first would let rounding noise pick the pairs and
 * leave single ends stranded between two joins.
 */
function candidates(boundary: Boundary, pieces: Pieces, rules: LinkRules): Int32Array {
  const ends = pieces.count * 2;
  const ringCount = boundary.rings.length;
  const start = new Int32Array(ringCount + 1);
  for (let e = 0; e < ends; e++) if (pieces.endRing[e] >= 0) start[pieces.endRing[e] + 1]++;
  for (let r = 0; r < ringCount; r++) start[r + 1] += start[r];
  const byRing = new Int32Array(start[ringCount]);
  const fillPos = start.slice(0, ringCount);
  for (let e = 0; e < ends; e++) if (pieces.endRing[e] >= 0) byRing[fillPos[pieces.endRing[e]]++] = e;

  // A ring of m ends gives at most m pairs.
  const out = new Int32Array(2 * ends);
  let used = 0;
  for (let r = 0; r < ringCount; r++) {
    const m = start[r + 1] - start[r];
    if (m < 2) continue;
    const list = byRing.subarray(start[r], start[r + 1]);
    sortIndicesByKey(list, list.length, pieces.endArc);
    const len = boundary.ringLength(r);
    if (walkScratch.length < m) {
      walkScratch = new Float64Array(Math.max(m, 2 * walkScratch.length));
      usableScratch = new Uint8Array(walkScratch.length);
    }
    const walk = walkScratch;
    const usable = usableScratch;
    for (let j = 0; j < m; j++) {
      const a = list[j];
      const b = list[j + 1 < m ? j + 1 : 0];
      walk[j] = pieces.endArc[b] - pieces.endArc[a] + (j + 1 === m ? len : 0);
      usable[j] = walk[j] <= rules.maxArc && compatible(pieces, rules, a >> 1, b >> 1) ? 1 : 0;
    }
    let first = 0;
    while (first < m && !(usable[first] && !usable[(first + m - 1) % m])) first++;
    if (first === m) first = m === 2 && walk[1] < walk[0] ? 1 : 0;
    for (let k = 0; k < m; k++) {
      const j = (first + k) % m;
      if (usable[j]) {
        out[used++] = list[j];
        out[used++] = list[j + 1 < m ? j + 1 : 0];
      }
    }
  }
  return out.subarray(0, used);
}

function compatible(pieces: Pieces, rules: LinkRules, p: number, q: number): boolean {
  if (p === q) return false;
  if (!rules.neighbourRowsOnly && !rules.solePred) return true;
  if (pieces.family[p] !== pieces.family[q]) return false;
  const dr = pieces.row[q] - pieces.row[p];
  if (dr !== 1 && dr !== -1) return false;
  if (!rules.solePred) return true;
  return dr === 1 ? rules.solePred[q] === p : rules.solePred[p] === q;
}

/** One builder for every chain (buildChains never runs inside itself); each chain gets a copy. */
const builder = new PathBuilder(256);

/**
 * Doubles of the slabs that chains' points are carved from: a fill line's points are a few dozen
 * bytes, and a typed array of their own is an allocation outside the heap each (a layer's fills
 * are hundreds of chains). A slab is freed with the last chain in it; the fills that a layer's
 * cache keeps hold theirs for two layers.
 */
const SLAB_DOUBLES = 2048;
let slab = new Float64Array(SLAB_DOUBLES);
let slabUsed = 0;

/** A copy of `points`: a piece of the current slab, or an array of its own when large. */
function chainPoints(points: Float64Array): Float64Array {
  const n = points.length;
  if (n > SLAB_DOUBLES / 8) return points.slice();
  if (slabUsed + n > SLAB_DOUBLES) {
    slab = new Float64Array(SLAB_DOUBLES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + n);
  out.set(points);
  slabUsed += n;
  return out;
}

/** Follows the links from every free end into chains; `chainOf` maps each piece to its chain. */
export function buildChains(boundary: Boundary, pieces: Pieces, links: Links): { chains: Chain[]; chainOf: Int32Array } {
  const chainOf = new Int32Array(pieces.count).fill(-1);
  const chains: Chain[] = [];
  const { partner, forward } = links;
  for (let e = 0; e < pieces.count * 2; e++) {
    if (partner[e] >= 0 || chainOf[e >> 1] >= 0) continue;
    builder.clear();
    const id = chains.length;
    let entry = e;
    let last = e >> 1;
    for (;;) {
      const p = entry >> 1;
      chainOf[p] = id;
      last = p;
      builder.pushRange(pieces.coords, pieces.start[p], pieces.start[p + 1], (entry & 1) === 1);
      const exit = entry ^ 1;
      const to = partner[exit];
      if (to < 0) break;
      boundary.appendWalk(builder, pieces.endRing[exit], pieces.endArc[exit], pieces.endArc[to], forward[exit] === 1);
      entry = to;
    }
    chains.push({ points: chainPoints(builder.view()), first: e >> 1, last });
  }
  return { chains, chainOf };
}

/** No joins at all: every piece becomes its own chain. */
export function noLinks(pieceCount: number): Links {
  return { partner: new Int32Array(pieceCount * 2).fill(-1), forward: new Uint8Array(pieceCount * 2) };
}
