import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderNearest } from '../../../../../appliance/slicer/engine/regions/infill/order.js';

test('paths are taken nearest-first and turned round when their far end is nearer', () => {
  const a = Float64Array.of(10, 0, 20, 0);
  const b = Float64Array.of(0, 5, 0, 1);
  const c = Float64Array.of(30, 0, 21, 0);
  const out = orderNearest([a, b, c], 0, 0);
  assert.deepEqual(
    out.map((p) => Array.from(p)),
    [
      [0, 1, 0, 5],
      [10, 0, 20, 0],
      [21, 0, 30, 0],
    ],
  );
});

test('a single path starts at its end nearer the nozzle', () => {
  assert.deepEqual(Array.from(orderNearest([Float64Array.of(0, 0, 5, 5)], 6, 6)[0]), [5, 5, 0, 0]);
  assert.deepEqual(orderNearest([], 0, 0), []);
});

test('ordering many short lines travels far less than taking them as given', () => {
  const lines: Float64Array[] = [];
  for (let i = 0; i < 400; i++) {
    const x = (i * 37) % 101;
    const y = (i * 53) % 97;
    lines.push(Float64Array.of(x, y, x + 0.5, y));
  }
  const travel = (paths: Float64Array[]) => {
    let t = 0;
    for (let k = 1; k < paths.length; k++) t += Math.hypot(paths[k][0] - paths[k - 1][2], paths[k][1] - paths[k - 1][3]);
    return t;
  };
  const ordered = orderNearest(lines, 0, 0);
  assert.equal(ordered.length, lines.length);
  assert.ok(travel(ordered) < travel(lines) / 5);
});
