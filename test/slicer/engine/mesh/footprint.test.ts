import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import { convexHullXY, footprintFits } from '../../../../appliance/slicer/engine/mesh/footprint.js';
import { cubeWithHole, merge, overhang, cube } from '../../../fixtures/meshes.js';

const square = (x0: number, y0: number, x1: number, y1: number): Float64Array => Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);

describe('convexHullXY', () => {
  it('is the counter-clockwise outline of the projected points', () => {
    const hull = convexHullXY(cubeWithHole(20, 8, [5, 5, 5]));
    assert.equal(hull.length, 8);
    assert.equal(signedArea(hull), 400);
    assert.equal(signedArea(convexHullXY(overhang())), 300);
  });

  it('spans several shells', () => {
    const hull = convexHullXY(merge([cube(10), cube(10, [20, 20, 0])]));
    assert.equal(signedArea(hull), 30 * 30 - (2 * (20 * 20)) / 2);
  });
});

describe('footprintFits', () => {
  const hull = square(0, 0, 10, 10);
  it('accepts a footprint inside or touching the border, and refuses one across it', () => {
    assert.equal(footprintFits(hull, 5, 5, square(0, 0, 20, 20)), true);
    assert.equal(footprintFits(hull, 10, 10, square(0, 0, 20, 20)), true);
    assert.equal(footprintFits(hull, 10.01, 0, square(0, 0, 20, 20)), false);
  });

  it('refuses a footprint over the notch of a non-convex area', () => {
    // A U-shaped area: its notch (x 8..12, y 5..20) pokes into a footprint spanning it.
    const u = Float64Array.of(0, 0, 20, 0, 20, 20, 12, 20, 12, 5, 8, 5, 8, 20, 0, 20);
    assert.equal(footprintFits(square(0, 0, 18, 4), 1, 0.5, u), true);
    assert.equal(footprintFits(hull, 5, 8, u), false);
  });
});
