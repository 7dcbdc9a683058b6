/**
 * What every layer of an `ensure_all` vertical shell window leaves as infill, found from groups of
 * consecutive layers whose intersections are kept from layer to layer.
 *
 * A layer's window is its shell neighbours, bottom to top; the next layer's window is the same but
 * one layer moved up. Cut into groups of half the window from its bottom, the upper group of a layer
 * is the lower group of the layer half a window up: each group is intersected once and used twice,
 * and a layer intersects one new group and then its groups, instead of all its layers in one
 * boolean (the corpus's bearing: 6 layers a window, the window's booleans took half the time).
 */
import { intersectionOfAll } from '../geometry/clipper.js';
import type { ExPolygon } from '../geometry/types.js';

/** A layer of the window with its inner area (the infill area of all its islands). */
export interface WindowLayer {
  hash: number;
  inner: ExPolygon[];
}

/**
 * Groups kept. A layer makes one new group (its window's top one) and uses it again half a window
 * later; 16 serve windows of up to 30 layers (0.08 mm layers under 9 top and 7 bottom layers: 15).
 */
const KEPT_GROUPS = 16;

/**
 * Intersections of groups by the identities of their operands: an inner area is the same array for
 * as long as the region cache keeps it, and a new array (another job's walls, an area computed
 * again) gets a new number, so a group found here is always the intersection of exactly its arrays.
 */
const kept = new Map<string, ExPolygon[]>();
const ids = new WeakMap<ExPolygon[], number>();
let nextId = 0;

function idOf(area: ExPolygon[]): number {
  let id = ids.get(area);
  if (id === undefined) {
    id = nextId++;
    ids.set(area, id);
  }
  return id;
}

/** The layers with outlines not met before in the list (by hash), in order: layers of equal outlines count once. */
export function distinctLayers<L extends { hash: number }>(layers: readonly L[]): L[] {
  return layers.filter((layer, k) => layers.findIndex((l) => l.hash === layer.hash) === k);
}

/** The intersection of the group's inner areas (layers with equal outlines counted once), kept by their identities. */
function groupIntersection(group: readonly WindowLayer[]): ExPolygon[] {
  const distinct = distinctLayers(group);
  if (distinct.length === 1) return distinct[0].inner;
  const key = distinct.map((layer) => idOf(layer.inner)).join(',');
  const hit = kept.get(key);
  if (hit) {
    // Most recently used last: the oldest groups go first.
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const value = intersectionOfAll(distinct.map((layer) => layer.inner));
  kept.set(key, value);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_GROUPS) break;
    kept.delete(oldest);
  }
  return value;
}

/**
 * The intersections of the window's groups: half the window each from its bottom (the rest, when
 * the window's size is odd, a last group of one layer). Their intersection is what every layer of
 * the window leaves as infill.
 * @param window the layers of the window, bottom to top, consecutive.
 */
export function windowGroups(window: readonly WindowLayer[]): ExPolygon[][] {
  const size = Math.max(1, Math.floor(window.length / 2));
  const groups: ExPolygon[][] = [];
  for (let k = 0; k < window.length; k += size) groups.push(groupIntersection(window.slice(k, k + size)));
  return groups;
}
