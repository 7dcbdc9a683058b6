import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offsetEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { insetRectangle } from '../../../../appliance/slicer/engine/regions/rectangle-inset.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const plain = (list: readonly ExPolygon[]) => list.map((ex) => ({ contour: Array.from(ex.contour), holes: ex.holes.map((h) => Array.from(h)) }));

test("a rectangle's inset is Clipper's offset, bit for bit, from whichever corner it starts", () => {
  const next = random(18);
  let worked = 0;
  let emptied = 0;
  for (let k = 0; k < 20000; k++) {
    // Corners as an STL gives them (single precision), sides from under a millimetre to 50 mm.
    const x = Math.fround(next() * 400 - 100);
    const y = Math.fround(next() * 400 - 100);
    const right = Math.fround(x + (next() < 0.2 ? next() * 0.6 : next() * 50));
    const top = Math.fround(y + (next() < 0.2 ? next() * 0.6 : next() * 50));
    const corners = [x, y, right, y, right, top, x, top];
    const start = 2 * Math.floor(next() * 4);
    const area = [{ contour: Float64Array.from([...corners.slice(start), ...corners.slice(0, start)]), holes: [] }];
    const inset = next() * 0.3;
    const ours = insetRectangle(area, inset);
    if (ours === null) continue;
    worked++;
    if (ours.length === 0) emptied++;
    assert.deepEqual(plain(ours), plain(offsetEx(area, -inset)), `rectangle ${corners.join(',')} inset by ${inset}`);
  }
  assert.ok(worked > 19000 && emptied > 500, `${worked} rectangles worked out, ${emptied} of them emptied`);
});

test('anything but one counter-clockwise axis-aligned rectangle is left to Clipper', () => {
  const ring = (...points: number[]) => [{ contour: Float64Array.from(points), holes: [] }];
  assert.equal(insetRectangle(ring(0, 0, 10, 0, 10, 5, 0, 5), 0.1)?.length, 1);
  assert.equal(insetRectangle(ring(0, 0, 0, 5, 10, 5, 10, 0), 0.1), null, 'clockwise');
  assert.equal(insetRectangle(ring(0, 0, 10, 0, 11, 5, 0, 5), 0.1), null, 'not square');
  assert.equal(insetRectangle(ring(0, 0, 10, 0, 10, 5), 0.1), null, 'a triangle');
  assert.equal(insetRectangle([...ring(0, 0, 1, 0, 1, 1, 0, 1), ...ring(2, 0, 3, 0, 3, 1, 2, 1)], 0.1), null, 'two pieces');
  assert.equal(insetRectangle([{ contour: Float64Array.of(0, 0, 10, 0, 10, 5, 0, 5), holes: [Float64Array.of(1, 1, 1, 2, 2, 2, 2, 1)] }], 0.1), null);
  assert.equal(insetRectangle(ring(0, 0, 10, 0, 10, 5, 0, 5), 1e-5), null, 'a move under the grid step Clipper snaps to');
});
