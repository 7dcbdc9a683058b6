import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thickenPolylines, unionEx, xorEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { signedArea, totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import { segmentCapsules } from '../../../../appliance/slicer/engine/regions/capsules.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

test("a segment's capsule has the points of Clipper's thickening of it", () => {
  for (const width of [0.1, 0.42, 0.45, 1]) {
    const segment = Float64Array.of(1, 2, 6, 4.5);
    const clipper = thickenPolylines([segment], width)[0].contour;
    const [ours] = segmentCapsules([segment], width);
    assert.equal(ours.length, clipper.length, `width ${width}: as many points`);
    // The same ring, from another start: every point of ours is one of Clipper's (to its 0.1 µm grid).
    for (let i = 0; i < ours.length; i += 2) {
      let nearest = Number.POSITIVE_INFINITY;
      for (let k = 0; k < clipper.length; k += 2) nearest = Math.min(nearest, Math.hypot(ours[i] - clipper[k], ours[i + 1] - clipper[k + 1]));
      assert.ok(nearest < 2e-4, `width ${width}: point ${i / 2} is ${nearest} mm from Clipper's`);
    }
    assert.ok(signedArea(ours) > 0, 'counter-clockwise');
  }
});

test('the capsules of random polylines cover what Clipper thickens them to, to a thousandth of it', () => {
  const next = random(7);
  for (let round = 0; round < 20; round++) {
    const lines: Float64Array[] = [];
    for (let k = 0; k < 15; k++) {
      const points: number[] = [];
      let x = next() * 20;
      let y = next() * 20;
      for (let p = 0, n = 2 + Math.floor(next() * 3); p < n; p++) {
        points.push(x, y);
        x += (next() - 0.5) * 6;
        y += (next() - 0.5) * 6;
      }
      lines.push(Float64Array.from(points));
    }
    const width = 0.3 + next() * 0.3;
    const clipper = thickenPolylines(lines, width);
    const ours = unionEx(segmentCapsules(lines, width));
    const area = totalArea(clipper);
    assert.ok(totalArea(xorEx(clipper, ours)) < 1e-3 * area, `round ${round}: the covers differ by under 0.1 %`);
  }
});

test('a line of one point is a disc of the width', () => {
  const [disc] = segmentCapsules([Float64Array.of(3, 3, 3, 3)], 0.5);
  const area = signedArea(disc);
  assert.ok(area > 0.95 * Math.PI * 0.25 ** 2 && area <= Math.PI * 0.25 ** 2, `area ${area}`);
});
