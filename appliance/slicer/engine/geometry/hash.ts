/**
 * Content hashes of polygons. Prismatic parts repeat the same outline layer after layer (the
 * same vertical mesh edges cut at any height give the same points), so equal hashes let the
 * region stage reuse walls and infill instead of recomputing them, as Kiri:Moto's fill
 * fingerprints do.
 */
import type { ExPolygon } from './types.js';

/** FNV-1a's starting value. */
export const HASH_SEED = 0x811c9dc5;

/** One FNV-1a step: `v` (a 32-bit word) mixed into the running hash `h`. */
export function mix(h: number, v: number): number {
  h ^= v;
  return Math.imul(h, 0x01000193);
}

export function hashPath(path: Float64Array, seed = HASH_SEED): number {
  const words = new Uint32Array(path.buffer, path.byteOffset, path.length * 2);
  let h = mix(seed, path.length);
  for (let k = 0; k < words.length; k++) h = mix(h, words[k]);
  return h >>> 0;
}

export function hashExPolygon(ex: ExPolygon, seed = HASH_SEED): number {
  let h = hashPath(ex.contour, seed);
  for (const hole of ex.holes) h = hashPath(hole, h);
  return h >>> 0;
}

const islandHashes = new WeakMap<ExPolygon, number>();

/** `hashExPolygon`, memoised per object: ExPolygons are never modified in place. */
export function islandHash(ex: ExPolygon): number {
  let h = islandHashes.get(ex);
  if (h === undefined) {
    h = hashExPolygon(ex);
    islandHashes.set(ex, h);
  }
  return h;
}

export function hashExPolygons(list: readonly ExPolygon[]): number {
  let h = mix(HASH_SEED, list.length);
  for (const ex of list) h = hashExPolygon(ex, h);
  return h >>> 0;
}
