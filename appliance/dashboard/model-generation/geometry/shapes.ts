/** 2D shapes the generators share, as manifold cross-sections. */
import type { CrossSection, ManifoldToplevel } from './manifold.js';

/** A rectangle centred on the origin with rounded corners (radius 0 = sharp). */
export function roundedRectangle(kernel: ManifoldToplevel, width: number, depth: number, radius: number): CrossSection {
  const r = Math.min(radius, width / 2 - 0.01, depth / 2 - 0.01);
  if (r <= 0) return kernel.CrossSection.square([width, depth], true);
  const inner = kernel.CrossSection.square([width - 2 * r, depth - 2 * r], true);
  const rounded = inner.offset(r, 'Round');
  inner.delete();
  return rounded;
}
