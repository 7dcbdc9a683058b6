/**
 * The inset of a fill area that is one axis-aligned rectangle, worked out without Clipper. A bar
 * or a plate standing square on the bed has such fill areas on most of its layers (the corpus's
 * rigid3d platform: 228 of its 423 fill areas), and a call into Clipper for four points costs far
 * more than its geometry. The answer is Clipper's own, bit for bit: Clipper2 snaps the corners to
 * its integer grid (0.1 µm, rounding half away from zero), moves each edge by the distance on that
 * grid and rounds again, and returns the points scaled back by multiplying with 1e-4, the ring
 * starting at the corner of largest x and least y and running counter-clockwise. That was checked
 * against Clipper on 400,000 random rectangles (test/…/rectangle-inset.test.ts checks it on more).
 */
import type { ExPolygon } from '../geometry/types.js';

/** Clipper's grid: geometry/clipper.ts's precision of 4 decimals. */
const SCALE = 1e4;
const INVERSE_SCALE = 1 / SCALE;
/**
 * Least inset and least side (grid units, 1 µm) taken here. A shorter move leaves Clipper's ring
 * starting at another corner, and a sliver of a rectangle comes back from Clipper in other shapes.
 */
const MIN_UNITS = 10;

/**
 * `area` shrunk by `inset` (mm, positive) as offsetEx(area, -inset) gives it, when `area` is one
 * counter-clockwise axis-aligned rectangle without holes; else null (the caller asks Clipper).
 */
export function insetRectangle(area: readonly ExPolygon[], inset: number): ExPolygon[] | null {
  if (area.length !== 1 || area[0].holes.length !== 0 || area[0].contour.length !== 8) return null;
  const ring = area[0].contour;
  const move = inset * SCALE;
  if (!(move >= MIN_UNITS)) return null;
  const x0 = toGrid(ring[0] * SCALE);
  const y0 = toGrid(ring[1] * SCALE);
  const x1 = toGrid(ring[2] * SCALE);
  const y1 = toGrid(ring[3] * SCALE);
  const x2 = toGrid(ring[4] * SCALE);
  const y2 = toGrid(ring[5] * SCALE);
  const x3 = toGrid(ring[6] * SCALE);
  const y3 = toGrid(ring[7] * SCALE);
  // Sides alternately along x and along y, on the grid Clipper sees.
  const firstAlongX = y0 === y1 && x1 === x2 && y2 === y3 && x3 === x0;
  const firstAlongY = x0 === x1 && y1 === y2 && x2 === x3 && y3 === y0;
  if (!firstAlongX && !firstAlongY) return null;
  const minX = Math.min(x0, x2);
  const maxX = Math.max(x0, x2);
  const minY = Math.min(y0, y2);
  const maxY = Math.max(y0, y2);
  if (maxX - minX < MIN_UNITS || maxY - minY < MIN_UNITS) return null;
  // Counter-clockwise: the first side runs along +x at the bottom or the top side along -x, and so on.
  const doubledArea = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (!(doubledArea > 0)) return null;
  const left = toGrid(minX + move);
  const right = toGrid(maxX - move);
  const bottom = toGrid(minY + move);
  const top = toGrid(maxY - move);
  if (right <= left || top <= bottom) return [];
  const r = right * INVERSE_SCALE;
  const l = left * INVERSE_SCALE;
  const b = bottom * INVERSE_SCALE;
  const t = top * INVERSE_SCALE;
  return [{ contour: Float64Array.of(r, b, r, t, l, t, l, b), holes: [] }];
}

/** A scaled coordinate rounded onto Clipper's grid: half away from zero, as C++'s std::round. */
function toGrid(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}
