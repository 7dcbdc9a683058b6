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
import { OFFSET_SCALE, offsetEx } from '../geometry/clipper.js';
import type { ExPolygon } from '../geometry/types.js';
import { stdRound } from '../geometry/wasm-paths.js';

/** Clipper's offset grid (0.1 µm) back to mm; coordinates are rounded onto it as Clipper rounds them (`stdRound`). */
const INVERSE_SCALE = 1 / OFFSET_SCALE;
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
  const move = inset * OFFSET_SCALE;
  if (!(move >= MIN_UNITS)) return null;
  const x0 = stdRound(ring[0] * OFFSET_SCALE);
  const y0 = stdRound(ring[1] * OFFSET_SCALE);
  const x1 = stdRound(ring[2] * OFFSET_SCALE);
  const y1 = stdRound(ring[3] * OFFSET_SCALE);
  const x2 = stdRound(ring[4] * OFFSET_SCALE);
  const y2 = stdRound(ring[5] * OFFSET_SCALE);
  const x3 = stdRound(ring[6] * OFFSET_SCALE);
  const y3 = stdRound(ring[7] * OFFSET_SCALE);
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
  const left = stdRound(minX + move);
  const right = stdRound(maxX - move);
  const bottom = stdRound(minY + move);
  const top = stdRound(maxY - move);
  if (right <= left || top <= bottom) return [];
  const r = right * INVERSE_SCALE;
  const l = left * INVERSE_SCALE;
  const b = bottom * INVERSE_SCALE;
  const t = top * INVERSE_SCALE;
  return [{ contour: Float64Array.of(r, b, r, t, l, t, l, b), holes: [] }];
}

/** `area` shrunk by `inset` (mm): a rectangle's worked out here (the same points), anything else by Clipper. */
export function insetArea(area: readonly ExPolygon[], inset: number): ExPolygon[] {
  return insetRectangle(area, inset) ?? offsetEx(area, -inset);
}
