/**
 * Screw holes to subtract from a part: a shank through it and, where asked, a 90° countersink at
 * the face the screw enters from. A hole that will lie horizontal in print is a teardrop (its top
 * closes at 45°), so it prints without support.
 */
import type { CrossSection, Manifold, ManifoldToplevel } from './manifold.js';

export interface ScrewHole {
  /** Shank diameter (mm). */
  shank: number;
  /** Diameter of a countersunk head at the face (mm); 0 for a plain hole. */
  head: number;
  /** Thickness of the material the hole goes through (mm). */
  depth: number;
  /** A point towards +y, for a hole that is turned to lie horizontal with +y up. */
  teardrop: boolean;
}

const SEGMENTS = 48;
/** How far the cutter reaches past both faces, so the boolean leaves no skin. */
const OVERSHOOT = 1;

/** The hole's section at diameter d, in the xy plane around the origin. */
function section(kernel: ManifoldToplevel, d: number, teardrop: boolean, keep: <O extends { delete(): void }>(o: O) => O): CrossSection {
  const circle = keep(kernel.CrossSection.circle(d / 2, SEGMENTS));
  if (!teardrop) return circle;
  const r = d / 2;
  const tangent = r / Math.SQRT2;
  const tip = keep(
    new kernel.CrossSection([
      [
        [-tangent, tangent],
        [tangent, tangent],
        [0, r * Math.SQRT2],
      ],
    ]),
  );
  return keep(kernel.CrossSection.hull([circle, tip]));
}

/**
 * The cutter of one hole along +z: the material spans z = 0 to `depth`, the screw enters at
 * z = depth (where the countersink widens).
 */
export function screwHoleCutter(kernel: ManifoldToplevel, hole: ScrewHole, keep: <O extends { delete(): void }>(o: O) => O): Manifold {
  const shank = section(kernel, hole.shank, hole.teardrop, keep);
  const parts = [keep(keep(shank.extrude(hole.depth + 2 * OVERSHOOT)).translate([0, 0, -OVERSHOOT]))];
  if (hole.head > hole.shank) {
    const sink = (hole.head - hole.shank) / 2;
    const ratio = hole.head / hole.shank;
    parts.push(keep(keep(shank.extrude(sink, 0, 0, [ratio, ratio])).translate([0, 0, hole.depth - sink])));
    parts.push(keep(keep(keep(shank.scale(ratio)).extrude(OVERSHOOT)).translate([0, 0, hole.depth])));
  }
  return keep(kernel.Manifold.union(parts));
}
