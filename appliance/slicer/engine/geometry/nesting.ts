/**
 * Groups clean polygons (non-overlapping, outer contours counter-clockwise, holes clockwise, as
 * Clipper returns them) into ExPolygons without another boolean pass: each hole goes to the
 * smallest contour that contains it.
 */
import type { ExPolygon, Polygon } from './types.js';
import { bboxOf, pointInRing, signedArea } from './polygon.js';

export function nestPolygons(paths: readonly Polygon[]): ExPolygon[] {
  const contours: { poly: Polygon; area: number; box: ReturnType<typeof bboxOf>; ex: ExPolygon }[] = [];
  const holes: Polygon[] = [];
  for (const p of paths) {
    const a = signedArea(p);
    if (a > 0) contours.push({ poly: p, area: a, box: bboxOf([p]), ex: { contour: p, holes: [] } });
    else if (a < 0) holes.push(p);
  }
  if (holes.length) {
    contours.sort((x, y) => x.area - y.area);
    for (const h of holes) {
      const hx = h[0];
      const hy = h[1];
      // A hole's vertices lie on or inside its parent; test a midpoint of its first edge to stay off shared vertices.
      const mx = (h[0] + h[2]) / 2;
      const my = (h[1] + h[3]) / 2;
      for (const c of contours) {
        const b = c.box;
        if (hx < b.minX || hx > b.maxX || hy < b.minY || hy > b.maxY) continue;
        if (pointInRing(mx, my, c.poly)) {
          c.ex.holes.push(h);
          break;
        }
      }
    }
  }
  return contours.map((c) => c.ex);
}
