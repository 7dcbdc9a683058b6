import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pointInExPolygon } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import { travelStaysInside } from '../../../../appliance/slicer/engine/toolpath/travel.js';

// A 20 mm square with a 6 mm square hole in the middle.
const island = {
  contour: Float64Array.from([0, 0, 20, 0, 20, 20, 0, 20]),
  holes: [Float64Array.from([7, 7, 7, 13, 13, 13, 13, 7])],
};

test('a travel inside the island stays inside', () => {
  assert.equal(travelStaysInside(1, 1, 19, 2, island), true);
});

test('a travel across the hole leaves the island', () => {
  assert.equal(travelStaysInside(1, 10, 19, 10, island), false);
});

test('a travel to a point outside leaves the island', () => {
  assert.equal(travelStaysInside(1, 1, 25, 1, island), false);
});

test('a travel stays inside exactly when both ends are inside and it crosses no edge, on an L with a notched hole', () => {
  const shape = {
    contour: Float64Array.from([0, 0, 30, 0, 30, 12, 12, 12, 12, 30, 0, 30]),
    holes: [Float64Array.from([3, 3, 3, 9, 6, 6, 9, 9, 9, 3])],
  };
  const rings = [shape.contour, ...shape.holes];
  // Proper crossings only: the shape's vertices are on a 3 mm grid, the travels' ends are not.
  const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number) => {
    const side = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
    return side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0 && side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0;
  };
  const crossesAny = (ax: number, ay: number, bx: number, by: number) =>
    rings.some((r) => {
      for (let k = 0; k < r.length; k += 2) {
        const j = (k + r.length - 2) % r.length;
        if (cross(ax, ay, bx, by, r[j], r[j + 1], r[k], r[k + 1])) return true;
      }
      return false;
    });
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 33 - 1.5 + 0.0123;
  };
  let inside = 0;
  for (let k = 0; k < 3000; k++) {
    const [ax, ay, bx, by] = [random(), random(), random(), random()];
    const expected = pointInExPolygon(ax, ay, shape) && pointInExPolygon(bx, by, shape) && !crossesAny(ax, ay, bx, by);
    assert.equal(travelStaysInside(ax, ay, bx, by, shape), expected, `travel ${ax},${ay} -> ${bx},${by}`);
    if (expected) inside++;
  }
  assert.ok(inside > 100 && inside < 2900, `both answers are tried (${inside} of 3000 inside)`);
});
