/**
 * The medial axis of a rectangular strip, worked out directly: the centreline from half the
 * strip's width inside one end to half its width inside the other, at the strip's width. A
 * rectangle is the common gap between the loops of a straight bar (the corpus's rigid3d platform:
 * every gap it fills), and `medialAxis` samples its whole boundary every 0.05 mm and searches a
 * disc for each sample to find that line: half the variable walls' time on that model.
 *
 * The points lie where `medialAxis` finds them (one per boundary sample of the first long side in
 * ring order, moved half the width along its normal); only near the ends, where its sampled discs
 * stop a little before or after half a width, does it differ, by at most a sample's spacing.
 */
import { signedArea } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import type { MedialOptions, MedialPath } from './medial-axis.js';

/** Tolerance (mm) of the rectangle test: Clipper's results lie on a 0.1 µm grid. */
const SQUARE = 2e-4;
/** Strips shorter than this many widths are left to `medialAxis`: their ends make up most of their axis. */
const MIN_ASPECT = 3;

/**
 * The axis of `piece` when it is a rectangle at least `MIN_ASPECT` times as long as it is wide
 * and between the options' thicknesses; null for any other piece (then `medialAxis` finds it).
 */
export function stripAxis(piece: ExPolygon, o: MedialOptions): MedialPath[] | null {
  const c = piece.contour;
  if (piece.holes.length !== 0 || c.length !== 8) return null;
  const dx = (k: number) => c[(2 * k + 2) % 8] - c[2 * k];
  const dy = (k: number) => c[(2 * k + 3) % 8] - c[2 * k + 1];
  const len = (k: number) => Math.hypot(dx(k), dy(k));
  // Opposite sides equal and parallel (a parallelogram), and a right angle: a rectangle.
  if (Math.abs(dx(0) + dx(2)) > SQUARE || Math.abs(dy(0) + dy(2)) > SQUARE) return null;
  if (Math.abs(dx(1) + dx(3)) > SQUARE || Math.abs(dy(1) + dy(3)) > SQUARE) return null;
  if (Math.abs(dx(0) * dx(1) + dy(0) * dy(1)) > SQUARE * (len(0) + len(1))) return null;
  // The first long side in ring order: `medialAxis` keeps the axis points found from it.
  const side = len(0) >= len(1) ? 0 : 1;
  const length = len(side);
  const width = len(1 - side);
  if (length < MIN_ASPECT * width || width < o.minThickness || width > o.maxThickness) return null;
  const ax = c[2 * side];
  const ay = c[2 * side + 1];
  const ux = dx(side) / length;
  const uy = dy(side) / length;
  // Counter-clockwise ring: the inside is to the left of each side.
  const sign = signedArea(c) > 0 ? 1 : -1;
  const nx = -uy * sign;
  const ny = ux * sign;
  const half = width / 2;
  const pieces = Math.ceil(length / o.step);
  const points: number[] = [];
  const thickness: number[] = [];
  for (let k = 0; k < pieces; k++) {
    const t = (k + 0.5) / pieces;
    const along = t * length;
    if (along < half || along > length - half) continue;
    points.push(ax + dx(side) * t + nx * half, ay + dy(side) * t + ny * half);
    thickness.push(width);
  }
  return points.length >= 4 ? [{ points, thickness }] : null;
}
