/**
 * Offsets of a convex ring worked out directly (`convex-offsets.ts`) against Clipper's on the same
 * ring: the same region to Clipper's grid where the answer is given, and no answer where an inset
 * loses an edge or the ring is not one plain convex piece.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { offsetEx, xorEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { exArea, polygonLength } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { offsetConvexRing, soleConvexRing } from '../../../../appliance/slicer/engine/regions/convex-offsets.js';

const piece = (...xy: number[]): ExPolygon => ({ contour: Float64Array.from(xy), holes: [] });
/** A regular n-gon of radius r around (cx, cy), counter-clockwise. */
function regular(n: number, r: number, cx = 0, cy = 0): ExPolygon {
  const xy: number[] = [];
  for (let k = 0; k < n; k++) xy.push(cx + r * Math.cos((2 * Math.PI * k) / n), cy + r * Math.sin((2 * Math.PI * k) / n));
  return piece(...xy);
}
/** Area where the two regions differ. */
const mismatch = (a: ExPolygon[], b: ExPolygon[]) => xorEx(a, b).reduce((s, ex) => s + exArea(ex), 0);

describe('convex offsets', () => {
  const shapes: [string, ExPolygon][] = [
    ['a long bar', piece(30.15, 108.65, 189.85, 108.65, 189.85, 111.35, 30.15, 111.35)],
    ['a skewed quadrilateral', piece(0, 0, 10, 0, 12, 5, 1, 7)],
    ['a 64-gon', regular(64, 1.6, 5, 5)],
    ['a hexagon', regular(6, 3)],
  ];
  for (const [name, shape] of shapes) {
    it(`insets and grows ${name} as Clipper does`, () => {
      const ring = soleConvexRing([shape]);
      assert.ok(ring, 'a convex ring');
      for (const delta of [-0.6, -0.21, 0.2, 0.45]) {
        const moved = offsetConvexRing(ring, delta);
        assert.ok(moved, `an answer for ${delta}`);
        const clipper = offsetEx([shape], delta);
        assert.equal(clipper.length, 1);
        // Clipper snaps to a 0.1 µm grid: the regions differ by at most that along the outline.
        const grid = 1e-4 * polygonLength(clipper[0].contour);
        assert.ok(mismatch([{ contour: moved, holes: [] }], clipper) < grid, `${name} offset by ${delta}`);
      }
    });
  }

  it('gives no inset once an edge would vanish', () => {
    const ring = soleConvexRing([piece(0, 0, 10, 0, 10, 0.8, 0, 0.8)]);
    assert.ok(ring);
    assert.ok(offsetConvexRing(ring, -0.39));
    assert.equal(offsetConvexRing(ring, -0.4), null, 'the short edges shrink to nothing');
    assert.equal(offsetConvexRing(ring, -0.5), null);
    // An equilateral triangle's edges all vanish at its inradius (1.5 mm for this one).
    const triangle = soleConvexRing([piece(0, 0, 3 * Math.sqrt(3), 0, 1.5 * Math.sqrt(3), 4.5)]);
    assert.ok(triangle);
    assert.ok(offsetConvexRing(triangle, -1.49));
    assert.equal(offsetConvexRing(triangle, -1.51), null);
  });

  it('takes only one convex piece without holes, corners no sharper than Clipper mitres', () => {
    const square = piece(0, 0, 4, 0, 4, 4, 0, 4);
    assert.ok(soleConvexRing([square]));
    assert.equal(soleConvexRing([square, piece(10, 0, 14, 0, 14, 4, 10, 4)]), null, 'two pieces');
    assert.equal(soleConvexRing([{ contour: square.contour, holes: [Float64Array.of(1, 1, 1, 2, 2, 2, 2, 1)] }]), null, 'a hole');
    assert.equal(soleConvexRing([piece(0, 0, 4, 0, 2, 1, 4, 4, 0, 4)]), null, 'a notch');
    assert.equal(soleConvexRing([piece(0, 4, 4, 4, 4, 0, 0, 0)]), null, 'clockwise');
    assert.equal(soleConvexRing([piece(0, 0, 10, 0, 0, 1)]), null, 'a 6° corner, which Clipper squares off');
    assert.equal(soleConvexRing([piece(0, 0, 2, 0, 4, 0, 4, 4, 0, 4)]), null, 'a straight corner');
  });
});
