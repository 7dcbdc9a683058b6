import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseSeam, startLoopAt, trimEnd, type SeamContext } from '../../../../appliance/slicer/engine/toolpath/seam.js';

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

test('startLoopAt rotates and keeps the loop closed', () => {
  const r = startLoopAt(L, 3);
  assert.deepEqual([...r.subarray(0, 2)], [5, 5]);
  assert.deepEqual([...r.subarray(r.length - 2)], [5, 5]);
  assert.equal(r.length, L.length);
});

test('trimEnd shortens the path by the gap', () => {
  const line = Float64Array.from([0, 0, 10, 0, 10, 10]);
  const t = trimEnd(line, 2);
  assert.deepEqual([...t], [0, 0, 10, 0, 10, 8]);
  const t2 = trimEnd(line, 12);
  assert.deepEqual([...t2], [0, 0, 8, 0]);
});
