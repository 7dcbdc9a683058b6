/** Concentric fill: closed loops following the area outline inwards, one spacing apart. */
import { offsetEx, simplifyEx } from '../../geometry/clipper.js';
import { closeLoop, nearestVertex, polygonLength, rotateClosed } from '../../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../../geometry/types.js';

/** Outline detail below this (mm) is dropped before offsetting; it cannot be printed anyway. */
const SIMPLIFY = 0.005;

/**
 * Loops of every island, islands nearest-first from (x, y), each island from its outline inwards.
 * The first loop runs along the area edge (the area is where line centres go). Every loop starts
 * at its vertex nearest the previous loop's end and repeats its first point at the end.
 */
export function concentricLoops(area: readonly ExPolygon[], spacing: number, minLength: number, x: number, y: number): Float64Array[] {
  const out: Float64Array[] = [];
  const remaining = area.slice();
  let px = x;
  let py = y;
  while (remaining.length > 0) {
    const island = remaining.splice(
      nearestRingIndex(
        remaining.map((ex) => ex.contour),
        px,
        py,
      ),
      1,
    )[0];
    // Each level is offset from the one before: Clipper's offsets cost more the larger the delta.
    for (let level: ExPolygon[] = simplifyEx([island], SIMPLIFY); level.length > 0; level = offsetEx(level, -spacing)) {
      const rings = level.flatMap((ex) => [ex.contour, ...ex.holes]).filter((r) => polygonLength(r) >= minLength);
      while (rings.length > 0) {
        const ring = rings.splice(nearestRingIndex(rings, px, py), 1)[0];
        const loop = closeLoop(rotateClosed(ring, nearestVertex(ring, px, py)));
        out.push(loop);
        px = loop[0];
        py = loop[1];
      }
    }
  }
  return out;
}

function nearestRingIndex(rings: readonly Polygon[], x: number, y: number): number {
  let best = 0;
  let bestD = Infinity;
  rings.forEach((ring, i) => {
    const v = nearestVertex(ring, x, y);
    const d = (ring[v * 2] - x) ** 2 + (ring[v * 2 + 1] - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
