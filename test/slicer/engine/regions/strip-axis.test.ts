/**
 * The axis of a rectangular strip worked out directly (`strip-axis.ts`) against `medialAxis` on the
 * same strip: the same centreline at the same width, ending where the sampled axis ends to within
 * a sample's spacing; other pieces are left to `medialAxis`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { type MedialPath, medialAxis } from '../../../../appliance/slicer/engine/regions/medial-axis.js';
import { stripAxis } from '../../../../appliance/slicer/engine/regions/strip-axis.js';

const options = { step: 0.04, minThickness: 0.08, maxThickness: 0.9 };
const piece = (...xy: number[]): ExPolygon => ({ contour: Float64Array.from(xy), holes: [] });
/** A w × h rectangle turned by `angle` around the origin, counter-clockwise, starting at `first`. */
function rectangle(w: number, h: number, angle = 0, first = 0): ExPolygon {
  const corners = [0, 0, w, 0, w, h, 0, h];
  const xy: number[] = [];
  for (let k = 0; k < 4; k++) {
    const j = (k + first) % 4;
    const [x, y] = [corners[2 * j], corners[2 * j + 1]];
    xy.push(x * Math.cos(angle) - y * Math.sin(angle), x * Math.sin(angle) + y * Math.cos(angle));
  }
  return piece(...xy);
}
const ends = (p: MedialPath) => [p.points.slice(0, 2), p.points.slice(-2)];

describe('strip axis', () => {
  for (const [name, strip] of [
    ['a long gap 0.82 mm wide', rectangle(157.8, 0.82)],
    ['a strip starting at its short side', rectangle(12, 0.5, 0, 1)],
    ['a turned strip', rectangle(6, 0.6, 0.7)],
  ] as const) {
    it(`finds ${name}'s centreline as the medial axis does`, () => {
      const direct = stripAxis(strip, options);
      const sampled = medialAxis([strip], options);
      assert.ok(direct);
      assert.equal(direct.length, 1);
      assert.equal(sampled.length, 1);
      const [a, b] = [direct[0], sampled[0]];
      assert.ok(Math.abs(a.points.length - b.points.length) <= 4, `${a.points.length / 2} against ${b.points.length / 2} points`);
      for (const t of [...a.thickness, ...b.thickness]) assert.ok(Math.abs(t - a.thickness[0]) < 1e-3);
      // Same direction, ends within a sample's spacing or two.
      const [a0, a1] = ends(a);
      const [b0, b1] = ends(b);
      assert.ok(Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) < 2.5 * options.step);
      assert.ok(Math.hypot(a1[0] - b1[0], a1[1] - b1[1]) < 2.5 * options.step);
    });
  }

  it('leaves other pieces to the medial axis', () => {
    assert.equal(stripAxis(rectangle(2, 0.8), options), null, 'too short for its width');
    assert.equal(stripAxis(rectangle(20, 1.2), options), null, 'wider than the thickest line');
    assert.equal(stripAxis(rectangle(20, 0.05), options), null, 'thinner than the thinnest');
    assert.equal(stripAxis(piece(0, 0, 10, 0, 10.3, 0.5, 0.3, 0.5), options), null, 'a parallelogram');
    assert.equal(stripAxis(piece(0, 0, 10, 0, 10, 0.5, 0, 0.6), options), null, 'a trapezium');
    assert.equal(stripAxis({ contour: rectangle(10, 0.5).contour, holes: [Float64Array.of(1, 0.2, 1, 0.3, 2, 0.3)] }, options), null);
  });
});
