import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { clearlyInside, sideOfSupport } from '../../../../appliance/slicer/engine/regions/loop-support.js';

/** A square ring, counter-clockwise, centred at (cx, cy). */
function square(cx: number, cy: number, side: number): Float64Array {
  const h = side / 2;
  return Float64Array.of(cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h);
}

/** A 20 mm square with a 6 mm square hole in its middle (the hole clockwise). */
const supported: ExPolygon[] = [{ contour: square(10, 10, 20), holes: [square(10, 10, 6).reverse()] }];

test('a loop clear of the supported edges is inside or outside as a whole', () => {
  assert.equal(sideOfSupport(square(3, 3, 2), supported), 'inside');
  assert.equal(sideOfSupport(square(10, 10, 3), supported), 'outside', 'within the hole');
  assert.equal(sideOfSupport(square(40, 40, 2), supported), 'outside', 'beside the area');
  assert.equal(sideOfSupport(square(40, 40, 2), []), 'outside');
});

test('a loop that crosses, touches or runs along an edge of the supported area is left to the clipper', () => {
  assert.equal(sideOfSupport(square(20, 10, 4), supported), null, 'across the outer edge');
  assert.equal(sideOfSupport(square(10, 10, 6), supported), null, 'on the hole exactly');
  assert.equal(sideOfSupport(square(10, 10, 6.0015), supported), null, 'within a micrometre of the hole');
  assert.equal(sideOfSupport(square(10, 10, 6.004), supported), 'inside', 'a few micrometres clear of the hole');
});

test('a large loop over a detailed area is left to the clipper rather than compared edge by edge', () => {
  const detailed = new Float64Array(2 * 4000);
  for (let k = 0; k < 4000; k++) {
    const a = (2 * Math.PI * k) / 4000;
    detailed[2 * k] = 50 + 40 * Math.cos(a);
    detailed[2 * k + 1] = 50 + 40 * Math.sin(a);
  }
  const ring = new Float64Array(2 * 400);
  for (let k = 0; k < 400; k++) {
    const a = (2 * Math.PI * k) / 400;
    ring[2 * k] = 50 + 39 * Math.cos(a);
    ring[2 * k + 1] = 50 + 39 * Math.sin(a);
  }
  assert.equal(sideOfSupport(ring, [{ contour: detailed, holes: [] }]), null);
});

test('a loop is clearly inside only when it lies in the area and clear of its edges', () => {
  assert.equal(clearlyInside(square(3, 3, 2), supported), true);
  assert.equal(clearlyInside(square(10, 10, 3), supported), false, 'within the hole');
  assert.equal(clearlyInside(square(40, 40, 2), supported), false, 'beside the area');
  assert.equal(clearlyInside(square(1, 10, 4), supported), false, 'across the outline');
  assert.equal(clearlyInside(square(3, 3, 2), []), false);
});

test('a detailed loop is found near an edge of the supported area at the one place it comes near', () => {
  // A 500-gon of radius 5 round (50, 50), and a triangle whose edge runs at 45° `gap` outside it.
  const ring = new Float64Array(2 * 500);
  for (let k = 0; k < 500; k++) {
    const a = (2 * Math.PI * (k + 0.5)) / 500;
    ring[2 * k] = 50 + 5 * Math.cos(a);
    ring[2 * k + 1] = 50 + 5 * Math.sin(a);
  }
  const beyond = (gap: number): ExPolygon[] => {
    const s = 100 + (5 + gap) * Math.SQRT2;
    return [{ contour: Float64Array.of(s - 45, 45, 80, 80, 45, s - 45), holes: [] }];
  };
  assert.equal(sideOfSupport(ring, beyond(0.0005)), null, 'half a micrometre outside the loop');
  assert.equal(sideOfSupport(ring, beyond(0.003)), 'outside', 'three micrometres clear of it');
  assert.equal(sideOfSupport(ring, beyond(-0.01)), null, 'across it');
});
