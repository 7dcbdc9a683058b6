/**
 * A hash of a layer's loops as shapes, so that a plane which cuts the same outline as the plane
 * below can take that layer's islands instead of computing them again (a union and a
 * simplification per layer). The raw loops of a prism's planes differ: each plane crosses other
 * triangles of the sides, and where it crosses a side's diagonal it adds a point whose place moves
 * with the height. So the hash ignores points on a straight edge, where a loop starts and the order
 * of the loops; coordinates count to 1 nm.
 */
import { HASH_SEED, mix } from '../geometry/hash.js';
import type { Polygon } from '../geometry/types.js';

/** A point is on a straight edge when the sine of the turn there is below this. */
const STRAIGHT = 1e-9;
const GRID = 1e6;

/* The kept points of the loop being hashed, reused from loop to loop (a scan's layers all differ: every one is hashed). */
let keptX = new Float64Array(1024);
let keptY = new Float64Array(1024);

function loopHash(loop: Polygon): number {
  const n = loop.length >> 1;
  if (keptX.length < n) {
    keptX = new Float64Array(n);
    keptY = new Float64Array(n);
  }
  const xs = keptX;
  const ys = keptY;
  let kept = 0;
  // The point before, at and after the one tested, carried along rather than found by index modulo n.
  let px = loop[(n - 1) * 2];
  let py = loop[(n - 1) * 2 + 1];
  let cx = loop[0];
  let cy = loop[1];
  for (let i = 0; i < n; i++) {
    const q = i + 1 < n ? (i + 1) * 2 : 0;
    const nx = loop[q];
    const ny = loop[q + 1];
    const ax = cx - px;
    const ay = cy - py;
    const bx = nx - cx;
    const by = ny - cy;
    const cross = ax * by - ay * bx;
    if (!(Math.abs(cross) <= STRAIGHT * Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by)))) {
      xs[kept] = Math.round(cx * GRID);
      ys[kept] = Math.round(cy * GRID);
      kept++;
    }
    px = cx;
    py = cy;
    cx = nx;
    cy = ny;
  }
  let start = 0;
  for (let i = 1; i < kept; i++) if (xs[i] < xs[start] || (xs[i] === xs[start] && ys[i] < ys[start])) start = i;
  let h = mix(HASH_SEED, kept);
  for (let k = 0; k < kept; k++) {
    const i = start + k < kept ? start + k : start + k - kept;
    h = mix(mix(h, xs[i] | 0), ys[i] | 0);
  }
  return h >>> 0;
}

export function loopShapeHash(loops: readonly Polygon[]): number {
  const hashes = Uint32Array.from(loops, loopHash).sort();
  let h = mix(HASH_SEED, hashes.length);
  for (const v of hashes) h = mix(h, v);
  return h >>> 0;
}
