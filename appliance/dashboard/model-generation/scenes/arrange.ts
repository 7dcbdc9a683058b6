/**
 * Laying a scene's objects out on a bed: shelf packing of their footprints' bounding boxes, the
 * tallest-footprint objects first, rows filled left to right and stacked front to back with
 * `spacing` between objects, then the whole arrangement centred on the bed. Objects keep their
 * rotation; only their place changes. Shelves waste some room next to short objects, but the
 * result is predictable and easy to check by eye, which matters more for a farm's plates than the
 * last few percent of bed area.
 */
import type { Point } from './placement.js';

export interface Footprint {
  /** Width and depth of the footprint's bounding box (mm). */
  size: Point;
  /** The bounding box's centre, relative to the point the scene places (the object's `translate`). */
  centre: Point;
}

/** The `translate` x/y of each object, relative to the bed's centre; null when they do not fit on `bed` (width, depth). */
export function arrange(footprints: readonly Footprint[], bed: Point, spacing: number): Point[] | null {
  const order = footprints.map((_, k) => k).sort((a, b) => footprints[b].size[1] - footprints[a].size[1] || a - b);
  const corners: Point[] = new Array(footprints.length);
  let x = 0;
  let y = 0;
  let rowDepth = 0;
  let width = 0;
  for (const k of order) {
    const [w, d] = footprints[k].size;
    if (w > bed[0] || d > bed[1]) return null;
    if (x > 0 && x + w > bed[0]) {
      y += rowDepth + spacing;
      x = 0;
      rowDepth = 0;
    }
    corners[k] = [x, y];
    x += w + spacing;
    rowDepth = Math.max(rowDepth, d);
    width = Math.max(width, x - spacing);
  }
  const depth = y + rowDepth;
  if (depth > bed[1]) return null;
  // Corners are from the arrangement's front-left; the bed's centre is the arrangement's centre.
  return footprints.map((f, k) => [corners[k][0] + f.size[0] / 2 - width / 2 - f.centre[0], corners[k][1] + f.size[1] / 2 - depth / 2 - f.centre[1]]);
}
