/**
 * The parts of a piece whose outline touches itself: two gaps that meet at a point (or across a
 * neck of a grid step or two) come out of Clipper as one piece. Where a rule counts a piece's size
 * (the gap fill's "short lines of a small piece are left out"), such a piece is as many pieces as
 * it has parts: on the corpus's gearwheel the gaps of neighbouring teeth touch at the tooth roots,
 * and whether 2, 3 or 6 of them come out as one depended on a 0.2 µm change of the loop inside,
 * which printed their short lines or not (12 lines a layer, a minute of the print).
 */
import { pointInExPolygon, signedArea } from '../geometry/polygon.js';
import type { Polygon } from '../geometry/types.js';

/** Points of an outline closer than this (mm), not next to each other along it, pinch it in two. */
const PINCH = 1e-3;
/** Fewest points either side of a pinch: a ring of fewer has no area to speak of. */
const MIN_SIDE = 3;

/** A piece's contour cut at its pinches, the parts that keep its orientation (counter-clockwise); the contour alone where there is none. */
export function pinchedParts(contour: Polygon): Polygon[] {
  const pinch = findPinch(contour);
  if (!pinch) return [contour];
  const [i, j] = pinch;
  const n = contour.length >> 1;
  const first = contour.slice(2 * i, 2 * j);
  const second = new Float64Array(2 * (n - (j - i)));
  second.set(contour.subarray(2 * j));
  second.set(contour.subarray(0, 2 * i), 2 * (n - j));
  return [...pinchedParts(first), ...pinchedParts(second)].filter((part) => signedArea(part) > 0);
}

/**
 * Which part of `parts` (from `pinchedParts`) each point lies in, or -1 for none (a point on a
 * pinch, or parts of one whole contour).
 */
export function partOf(parts: readonly Polygon[], x: number, y: number): number {
  if (parts.length < 2) return parts.length - 1;
  return parts.findIndex((contour) => pointInExPolygon(x, y, { contour, holes: [] }));
}

/** Indices i < j of two points within `PINCH` of each other with at least `MIN_SIDE` points either side, else null. */
function findPinch(ring: Polygon): [number, number] | null {
  const n = ring.length >> 1;
  if (n < 2 * MIN_SIDE) return null;
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => ring[2 * a] - ring[2 * b]);
  for (let a = 0; a < n; a++) {
    const p = order[a];
    for (let b = a + 1; b < n && ring[2 * order[b]] - ring[2 * p] <= PINCH; b++) {
      const q = order[b];
      const i = Math.min(p, q);
      const j = Math.max(p, q);
      if (j - i < MIN_SIDE || n - (j - i) < MIN_SIDE) continue;
      if (Math.abs(ring[2 * q + 1] - ring[2 * p + 1]) <= PINCH && Math.hypot(ring[2 * q] - ring[2 * p], ring[2 * q + 1] - ring[2 * p + 1]) <= PINCH) {
        return [i, j];
      }
    }
  }
  return null;
}
