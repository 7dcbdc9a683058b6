/**
 * Pieces whose outline touches itself (`pinches.ts`): cut into their parts at the pinch, and the
 * gap fill's "short lines of a small piece are left out" judged part by part, so that gaps which
 * touch at a point print as they would apart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { axisLines } from '../../../../appliance/slicer/engine/regions/axis-lines.js';
import { partOf, pinchedParts } from '../../../../appliance/slicer/engine/regions/pinches.js';

/**
 * `count` strips 1.2 × 0.25 mm in a staircase, each touching the next at a corner, as one
 * counter-clockwise contour (up the right-hand sides, back down the left-hand ones); `neck` opens
 * each touching corner into a neck that wide.
 */
function staircase(count: number, neck = 0): Float64Array {
  const up: number[] = [];
  const down: number[] = [];
  for (let k = 0; k < count; k++) {
    const x = 1.2 * k;
    const y = 0.25 * k;
    up.push(x + (k === 0 ? 0 : neck), y, x + 1.2, y);
    down.unshift(x + 1.2, y + 0.25, x, y + 0.25);
  }
  return Float64Array.from([...up, ...down]);
}

const gapOptions = {
  minThickness: 0.08,
  minLength: 1,
  maxThickness: 0.9,
  beadsOf: () => 1 as const,
  spacingFor: (t: number) => t,
  widthOf: (t: number) => t,
};

describe('pinches', () => {
  it('cuts a contour where it touches itself, into parts of the same orientation', () => {
    const contour = staircase(3);
    const parts = pinchedParts(contour);
    assert.equal(parts.length, 3);
    for (const part of parts) assert.ok(Math.abs(signedArea(part) - 1.2 * 0.25) < 1e-9);
    // One point in each strip, each in a part of its own; a point outside them in none.
    const owners = [partOf(parts, 0.6, 0.1), partOf(parts, 1.8, 0.35), partOf(parts, 3, 0.6)];
    assert.deepEqual([...owners].sort(), [0, 1, 2]);
    assert.equal(partOf(parts, 3, 0.1), -1);
  });

  it('leaves a contour alone that keeps a neck a line could pass, or never touches itself', () => {
    assert.equal(pinchedParts(staircase(3, 0.05)).length, 1);
    const square = Float64Array.of(0, 0, 1, 0, 1, 1, 0, 1);
    assert.deepEqual(pinchedParts(square), [square]);
  });

  it('leaves out the short lines of gaps that touch at a point, as it does when they lie apart', () => {
    const island: ExPolygon = { contour: Float64Array.of(-1, -1, 9, -1, 9, 3, -1, 3), holes: [] };
    const touching: ExPolygon = { contour: staircase(6), holes: [] };
    assert.equal(axisLines([touching], island, 'gap-fill', 0.2, gapOptions).length, 0);
    // The same strips apart: each is a small piece with a line shorter than the 1 mm kept.
    const apart = pinchedParts(touching.contour).map((contour) => ({ contour, holes: [] }));
    assert.equal(apart.length, 6);
    assert.equal(axisLines(apart, island, 'gap-fill', 0.2, gapOptions).length, 0);
    // One strip as long as the six (a large piece): its line is printed.
    const long: ExPolygon = { contour: Float64Array.of(0, 0, 7.2, 0, 7.2, 0.25, 0, 0.25), holes: [] };
    assert.ok(axisLines([long], island, 'gap-fill', 0.2, gapOptions).length > 0);
  });
});
