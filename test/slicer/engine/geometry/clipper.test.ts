import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clipPolylines,
  differenceEx,
  intersectionEx,
  intersectionOfAll,
  offset,
  offsetEx,
  simplifyEx,
  simplifyPolygons,
  subtractFromPolylines,
  thickenPolylines,
  union,
  xorEx,
} from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { mayHoldDisc, signedArea, totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';

/** A counter-clockwise square. */
function square(x: number, y: number, size: number): Float64Array {
  return Float64Array.of(x, y, x + size, y, x + size, y + size, x, y + size);
}

/** The same ring the other way round: a hole. */
function reversed(ring: Float64Array): Float64Array {
  const out = new Float64Array(ring.length);
  for (let k = 0; k < ring.length; k += 2) {
    out[k] = ring[ring.length - 2 - k];
    out[k + 1] = ring[ring.length - 1 - k];
  }
  return out;
}

function circle(cx: number, cy: number, r: number, points: number): Float64Array {
  const out = new Float64Array(points * 2);
  for (let k = 0; k < points; k++) {
    const a = (k / points) * 2 * Math.PI;
    out[k * 2] = cx + r * Math.cos(a);
    out[k * 2 + 1] = cy + r * Math.sin(a);
  }
  return out;
}

test('booleans keep holes and areas: a frame minus a bar', () => {
  const frame = { contour: square(0, 0, 10), holes: [reversed(square(2, 2, 6))] };
  const bar = { contour: Float64Array.of(-1, 4, 11, 4, 11, 6, -1, 6), holes: [] };
  const rest = differenceEx([frame], [bar]);
  assert.equal(rest.length, 2, 'the bar cuts the frame in two');
  assert.ok(rest.every((ex) => ex.holes.length === 0));
  assert.ok(Math.abs(totalArea(rest) - (100 - 36 - 2 * 2 * 2)) < 1e-6, `area ${totalArea(rest)}`);
});

test('open polylines are clipped to a region and to what lies outside it', () => {
  const region = [{ contour: square(0, 0, 10), holes: [] }];
  const line = Float64Array.of(-5, 5, 15, 5);
  const inside = clipPolylines([line], region);
  const outside = subtractFromPolylines([line], region);
  const length = (ls: Float64Array[]) => ls.reduce((a, l) => a + Math.hypot(l[2] - l[0], l[3] - l[1]), 0);
  assert.ok(Math.abs(length(inside) - 10) < 1e-6);
  assert.equal(outside.length, 2);
  assert.ok(Math.abs(length(outside) - 10) < 1e-6);
  const band = thickenPolylines(inside, 0.4);
  assert.ok(Math.abs(totalArea(band) - (10 * 0.4 + Math.PI * 0.04)) < 0.01, 'a round-ended band of the width');
});

test('simplification drops the points a straight edge does not need and rings that collapse', () => {
  const dense = Float64Array.of(0, 0, 5, 0, 10, 0, 10, 10, 0, 10);
  const [simple] = simplifyPolygons([dense], 0.01);
  assert.deepEqual(Array.from(simple), [0, 0, 10, 0, 10, 10, 0, 10]);
  assert.deepEqual(simplifyPolygons([Float64Array.of(0, 0, 1, 0, 2, 0)], 0.01), [], 'a ring with no area');
});

test('results stay right when the booleans need more WASM memory than they started with', () => {
  // 400 circles of 2,000 points: the union and its offset need tens of MB inside Clipper.
  const circles = Array.from({ length: 400 }, (_, c) => circle((c % 20) * 30, Math.floor(c / 20) * 30, 10, 2000));
  const merged = union(circles);
  assert.equal(merged.length, 400);
  const grown = offset(merged, 1);
  const area = grown.reduce((a, p) => a + signedArea(p), 0);
  assert.ok(Math.abs(area - 400 * Math.PI * 121) < 5, `area ${area}`);
});

test('small results share storage but keep their own points while later booleans run', () => {
  // 3,000 results of 4 points fill several of the slabs small results are carved from.
  const kept = Array.from({ length: 3000 }, (_, k) => union([square(k * 3, k * 2, 1 + (k % 7))]));
  kept.forEach(([ring], k) => {
    assert.deepEqual(
      [...ring].sort((a, b) => a - b),
      [k * 3, k * 3, k * 3 + 1 + (k % 7), k * 3 + 1 + (k % 7), k * 2, k * 2, k * 2 + 1 + (k % 7), k * 2 + 1 + (k % 7)].sort((a, b) => a - b),
      `result ${k}`,
    );
  });
});

test('paths written straight into WASM memory keep their own points whatever was loaded before', () => {
  // Clipper's input storage grows for the 5,000-point circle and is then reused for a square.
  const big = union([circle(0, 0, 10, 5000)]);
  assert.equal(big.length, 1);
  assert.ok(Math.abs(signedArea(big[0]) - Math.PI * 100) < 0.01, `area ${signedArea(big[0])}`);
  const [alone] = union([square(50, 50, 2)]);
  assert.deepEqual(
    [...alone].sort((a, b) => a - b),
    [50, 50, 50, 50, 52, 52, 52, 52],
  );
  const both = union([square(0, 0, 1), circle(20, 0, 5, 300)]);
  assert.equal(both.length, 2);
  assert.ok(Math.abs(both.reduce((a, p) => a + signedArea(p), 0) - (1 + Math.PI * 25)) < 0.01);
});

test('what every list covers, in one boolean: the same area as intersecting them one by one', () => {
  const frame = { contour: square(0, 0, 10), holes: [reversed(square(3, 3, 4))] };
  const lists = [
    [frame],
    [
      { contour: square(2, 1, 10), holes: [] },
      { contour: square(-5, -5, 3), holes: [] },
    ],
    [{ contour: circle(5, 5, 5.5, 64), holes: [] }],
  ];
  const once = intersectionOfAll(lists);
  const stepwise = intersectionEx(intersectionEx(lists[0], lists[1]), lists[2]);
  assert.ok(totalArea(once) > 10, `area ${totalArea(once)}`);
  assert.ok(totalArea(xorEx(once, stepwise)) < 1e-6, 'the same region');
  assert.ok(
    once.some((ex) => ex.holes.length === 1),
    'the frame keeps its hole',
  );
  assert.deepEqual(intersectionOfAll([lists[0], []]), []);
  assert.deepEqual(intersectionOfAll([lists[1]]), lists[1]);
  assert.deepEqual(
    intersectionOfAll([[{ contour: square(0, 0, 1), holes: [] }], [{ contour: square(5, 5, 1), holes: [] }]]),
    [],
    'apart: nothing in common',
  );
});

test('simplifying ExPolygons keeps each ring with its island and drops what collapses', () => {
  const bumpy = (x: number, y: number) => Float64Array.of(x, y, x + 5, y + 0.001, x + 10, y, x + 10, y + 10, x, y + 10);
  const islands = [
    { contour: bumpy(0, 0), holes: [reversed(square(2, 2, 2)), reversed(square(6, 6, 0.01))] },
    { contour: square(20, 0, 0.01), holes: [] },
    { contour: bumpy(40, 0), holes: [] },
  ];
  const out = simplifyEx(islands, 0.05);
  assert.equal(out.length, 2, 'the tiny island goes');
  assert.deepEqual(
    out.map((ex) => [ex.contour.length / 2, ex.holes.length]),
    [
      [4, 1],
      [4, 0],
    ],
  );
  assert.ok(Math.abs(out[0].holes[0][0] - 2) < 1e-9 || Math.abs(out[0].holes[0][0] - 4) < 1e-9, 'the hole is the 2 mm square');
  assert.ok(
    out[1].contour.every((v, k) => k % 2 === 1 || v >= 40),
    'the second island keeps its place',
  );
});

test('mayHoldDisc leaves out only pieces that an inward offset by the radius leaves nothing of', () => {
  const ex = (contour: Float64Array): ExPolygon => ({ contour, holes: [] });
  const pieces = [
    ex(square(0, 0, 1)), // holds a disc of 0.4
    ex(Float64Array.of(10, 0, 20, 0, 20, 0.7, 10, 0.7)), // a long strip 0.7 wide: too narrow
    // An L of two 0.3 mm strips: box and area pass the cheap test, the offset finds nothing.
    ex(Float64Array.of(30, 0, 35, 0, 35, 0.3, 30.3, 0.3, 30.3, 5, 30, 5)),
    ex(circle(50, 0, 0.45, 64)), // a disc a little larger than the radius
    ex(Float64Array.of(60, 0, 60.45, -0.45, 60.9, 0, 60.45, 0.45)), // a 0.9 mm diamond: box wide enough, area too small
  ];
  const kept = mayHoldDisc(pieces, 0.4);
  assert.deepEqual(
    kept.map((p) => pieces.indexOf(p)),
    [0, 2, 3],
  );
  for (const piece of pieces) if (!kept.includes(piece)) assert.equal(offsetEx([piece], -0.4).length, 0);
  assert.ok(offsetEx([pieces[0]], -0.4).length > 0 && offsetEx([pieces[3]], -0.4).length > 0);
});
