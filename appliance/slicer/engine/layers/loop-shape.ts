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

function loopHash(loop: Polygon): number {
  const n = loop.length >> 1;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = ((i + n - 1) % n) * 2;
    const q = ((i + 1) % n) * 2;
    const ax = loop[i * 2] - loop[p];
    const ay = loop[i * 2 + 1] - loop[p + 1];
    const bx = loop[q] - loop[i * 2];
    const by = loop[q + 1] - loop[i * 2 + 1];
    const cross = ax * by - ay * bx;
    if (Math.abs(cross) <= STRAIGHT * Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by))) continue;
    xs.push(Math.round(loop[i * 2] * GRID));
    ys.push(Math.round(loop[i * 2 + 1] * GRID));
  }
  let start = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] < xs[start] || (xs[i] === xs[start] && ys[i] < ys[start])) start = i;
  let h = mix(HASH_SEED, xs.length);
  for (let k = 0; k < xs.length; k++) {
    const i = (start + k) % xs.length;
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
