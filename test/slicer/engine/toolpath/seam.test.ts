import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseSeam, startLoopInto, trimEndInPlace, type SeamContext } from '../../../../appliance/slicer/engine/toolpath/seam.js';

// An L-shaped outline, counter-clockwise, first point repeated at the end. Its one concave corner is (5,5).
const L = Float64Array.from([0, 0, 10, 0, 10, 5, 5, 5, 5, 10, 0, 10, 0, 0]);
const ctx = (over: Partial<SeamContext>): SeamContext => ({ mode: 'aligned', x: 0, y: 0, previous: null, rearY: 10, layer: 3, ...over });

test('nearest picks the vertex closest to the nozzle', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'nearest', x: 11, y: -1 })), 1);
});

test('aligned hides the seam in the concave corner when it is near the previous seam', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'aligned', previous: [6, 6] })), 3);
});

test('aligned follows the previous layer seam over a distant corner', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'aligned', previous: [0, 0] })), 0);
});

test('back picks a rearmost vertex', () => {
  const i = chooseSeam(L, ctx({ mode: 'back' }));
  assert.equal(L[i * 2 + 1], 10);
});

test('random is deterministic per layer and stays in range', () => {
  const a = chooseSeam(L, ctx({ mode: 'random', layer: 7 }));
  assert.equal(chooseSeam(L, ctx({ mode: 'random', layer: 7 })), a);
  assert.ok(a >= 0 && a < 6);
});

test('startLoopInto rotates and keeps the loop closed, in a buffer longer than the loop', () => {
  const r = new Float64Array(L.length + 4).fill(-1);
  startLoopInto(L, 3, r);
  assert.deepEqual([...r.subarray(0, 2)], [5, 5]);
  assert.deepEqual([...r.subarray(L.length - 2, L.length)], [5, 5]);
  assert.deepEqual([...r.subarray(L.length)], [-1, -1, -1, -1], 'nothing is written past the loop');
  startLoopInto(L, 0, r);
  assert.deepEqual([...r.subarray(0, L.length)], [...L]);
});

test('trimEndInPlace shortens the path by the gap', () => {
  const line = Float64Array.from([0, 0, 10, 0, 10, 10]);
  assert.equal(trimEndInPlace(line, line.length, 2), 6);
  assert.deepEqual([...line], [0, 0, 10, 0, 10, 8]);
  const again = Float64Array.from([0, 0, 10, 0, 10, 10]);
  assert.equal(trimEndInPlace(again, again.length, 12), 4);
  assert.deepEqual([...again.subarray(0, 2 * 2)], [0, 0, 8, 0]);
  assert.equal(trimEndInPlace(again, 4, 50), 4, 'one segment stays, however short');
});
