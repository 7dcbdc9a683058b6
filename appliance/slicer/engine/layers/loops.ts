/**
 * Chains a layer's segments into closed loops. First by topology: a segment that ends on mesh
 * edge e continues with the segment that starts on e. What a broken mesh leaves open is then
 * joined end-to-start by nearest neighbours with growing tolerance (up to 2 mm, as PrusaSlicer),
 * and finally, unlike PrusaSlicer and CuraEngine, whatever is still open is joined and closed at
 * any distance: a scan with holes must keep its layers rather than lose them.
 */
import type { Polygon } from '../geometry/types.js';
import type { LayerSegments } from './slice-mesh.js';
import { length2 } from '../geometry/polygon.js';

export interface LoopReport {
  loops: Polygon[];
  /** Open chains that needed gap closing (0 for a watertight mesh). */
  openChains: number;
  /** Largest gap that had to be bridged, in mm. */
  largestGap: number;
}

/** Reusable per-thread scratch: edge id → segment, sized for the mesh's edge count. */
export class ChainScratch {
  readonly edgeToSegment: Int32Array;
  constructor(edgeCount: number) {
    this.edgeToSegment = new Int32Array(edgeCount).fill(-1);
  }
}

const GAP_STEPS = [1e-4, 0.01, 0.05, 0.25, 0.5, 1, 2];
/** Consecutive points closer than this are merged. */
const MIN_STEP = 1e-4;

interface Chain {
  pts: number[];
}

export function chainLoops(seg: LayerSegments, scratch: ChainScratch): LoopReport {
  const n = seg.count;
  const map = scratch.edgeToSegment;
  const coords = seg.coords;
  for (let s = 0; s < n; s++) {
    if (map[seg.startEdge[s]] === -1) map[seg.startEdge[s]] = s;
  }
  const hasPred = new Uint8Array(n);
  const next = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    const m = map[seg.endEdge[s]];
    next[s] = m;
    if (m >= 0 && m !== s) hasPred[m] = 1;
  }
  for (let s = 0; s < n; s++) map[seg.startEdge[s]] = -1;

  const visited = new Uint8Array(n);
  const loops: Polygon[] = [];
  const open: Chain[] = [];
  const follow = (start: number): { pts: number[]; closed: boolean } => {
    const pts: number[] = [];
    let cur = start;
    for (;;) {
      visited[cur] = 1;
      pushPoint(pts, coords[cur * 4], coords[cur * 4 + 1]);
      const nx = next[cur];
      if (nx === start) return { pts, closed: true };
      if (nx < 0 || visited[nx]) {
        pushPoint(pts, coords[cur * 4 + 2], coords[cur * 4 + 3]);
        return { pts, closed: false };
      }
      cur = nx;
    }
  };
  // Open chains first, from their heads, so they are followed whole.
  for (let s = 0; s < n; s++) {
    if (!visited[s] && !hasPred[s]) open.push({ pts: follow(s).pts });
  }
  for (let s = 0; s < n; s++) {
    if (visited[s]) continue;
    const r = follow(s);
    if (r.closed) addLoop(loops, r.pts);
    else open.push({ pts: r.pts });
  }
  const openChains = open.length;
  const largestGap = open.length ? closeGaps(open, loops) : 0;
  return { loops, openChains, largestGap };
}

function pushPoint(pts: number[], x: number, y: number): void {
  const m = pts.length;
  if (m >= 2 && Math.abs(pts[m - 2] - x) < MIN_STEP && Math.abs(pts[m - 1] - y) < MIN_STEP) return;
  pts.push(x, y);
}

function addLoop(loops: Polygon[], pts: number[]): void {
  let m = pts.length;
  while (m >= 4 && Math.abs(pts[m - 2] - pts[0]) < MIN_STEP && Math.abs(pts[m - 1] - pts[1]) < MIN_STEP) m -= 2;
  if (m >= 6) loops.push(Float64Array.from(pts.slice(0, m)));
}

const dist = (ax: number, ay: number, bx: number, by: number) => length2(ax - bx, ay - by);

/**
 * Joins open chains. Each step links chain ends to chain starts (a chain's own start included,
 * which closes it) within the tolerance, nearest pairs first; links form paths and cycles.
 */
function closeGaps(open: Chain[], loops: Polygon[]): number {
  let largest = 0;
  let chains = open;
  for (const tol of GAP_STEPS) {
    const r = linkWithin(chains, tol);
    for (const c of r.closed) addLoop(loops, c.pts);
    largest = Math.max(largest, r.largestGap);
    chains = r.open;
    if (chains.length === 0) return largest;
  }
  return Math.max(largest, joinRemaining(chains, loops));
}

function linkWithin(chains: Chain[], tol: number): { open: Chain[]; closed: Chain[]; largestGap: number } {
  const n = chains.length;
  const cell = Math.max(tol, 1e-3);
  const grid = new Map<string, number[]>();
  const key = (x: number, y: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  chains.forEach((c, i) => {
    const k = key(c.pts[0], c.pts[1]);
    const list = grid.get(k);
    if (list) list.push(i);
    else grid.set(k, [i]);
  });
  const cands: { d: number; from: number; to: number }[] = [];
  chains.forEach((c, i) => {
    const ex = c.pts[c.pts.length - 2];
    const ey = c.pts[c.pts.length - 1];
    const cx = Math.floor(ex / cell);
    const cy = Math.floor(ey / cell);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const j of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
          const o = chains[j];
          const d = dist(ex, ey, o.pts[0], o.pts[1]);
          // A chain may close on itself only if it is more than a sliver.
          if (d <= tol && (j !== i || c.pts.length >= 6)) cands.push({ d, from: i, to: j });
        }
      }
    }
  });
  cands.sort((a, b) => a.d - b.d);
  const succ = new Int32Array(n).fill(-1);
  const hasPred = new Uint8Array(n);
  let largestGap = 0;
  for (const c of cands) {
    if (succ[c.from] !== -1 || hasPred[c.to]) continue;
    succ[c.from] = c.to;
    hasPred[c.to] = 1;
    largestGap = Math.max(largestGap, c.d);
  }
  const done = new Uint8Array(n);
  const assemble = (head: number): number[] => {
    const pts: number[] = [];
    for (let cur = head; cur >= 0 && !done[cur]; cur = succ[cur]) {
      done[cur] = 1;
      const p = chains[cur].pts;
      for (let k = 0; k < p.length; k += 2) pushPoint(pts, p[k], p[k + 1]);
    }
    return pts;
  };
  const open: Chain[] = [];
  const closed: Chain[] = [];
  for (let i = 0; i < n; i++) if (!hasPred[i]) open.push({ pts: assemble(i) });
  for (let i = 0; i < n; i++) if (!done[i]) closed.push({ pts: assemble(i) });
  return { open, closed, largestGap };
}

/**
 * What is still open after 2 mm: grow one chain at a time by the nearest free end of any other
 * chain (reversing it when its end is nearer than its start; orientation is unreliable on such
 * meshes and the non-zero union tolerates it), closing the chain when its own start is nearest.
 */
function joinRemaining(chains: Chain[], loops: Polygon[]): number {
  let largest = 0;
  const pool = chains.slice();
  for (let chain = pool.pop(); chain !== undefined; chain = pool.pop()) {
    const cur = chain.pts;
    for (;;) {
      const ex = cur[cur.length - 2];
      const ey = cur[cur.length - 1];
      let best = -1;
      let bestD = dist(ex, ey, cur[0], cur[1]);
      let reverse = false;
      for (let j = 0; j < pool.length; j++) {
        const p = pool[j].pts;
        const ds = dist(ex, ey, p[0], p[1]);
        const de = dist(ex, ey, p[p.length - 2], p[p.length - 1]);
        if (ds < bestD) {
          bestD = ds;
          best = j;
          reverse = false;
        }
        if (de < bestD) {
          bestD = de;
          best = j;
          reverse = true;
        }
      }
      largest = Math.max(largest, bestD);
      if (best < 0) break;
      const p = pool.splice(best, 1)[0].pts;
      if (reverse) for (let k = p.length - 2; k >= 0; k -= 2) pushPoint(cur, p[k], p[k + 1]);
      else for (let k = 0; k < p.length; k += 2) pushPoint(cur, p[k], p[k + 1]);
    }
    addLoop(loops, cur);
  }
  return largest;
}
