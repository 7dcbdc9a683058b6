import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSERTION_SORT_MAX, sortIndicesByKey } from '../../../../../appliance/slicer/engine/regions/infill/stable-sort.js';

test('indices sorted by key keep the order of equal keys, as the built-in stable sort does, at every length', () => {
  let state = 11;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  for (const n of [0, 1, 2, INSERTION_SORT_MAX, INSERTION_SORT_MAX + 1, 3 * INSERTION_SORT_MAX + 5, 1000]) {
    // Few distinct keys, so most have equals; the indices point anywhere in a longer key array.
    const key = Float64Array.from({ length: n + 10 }, () => Math.floor(random() * 7) - 3);
    const order = Int32Array.from({ length: n + 3 }, (_, k) => (k * 37 + 5) % (n + 10));
    const expected = Array.from(order.subarray(0, n)).sort((a, b) => key[a] - key[b]);
    const tail = Array.from(order.subarray(n));
    sortIndicesByKey(order, n, key);
    assert.deepEqual(Array.from(order.subarray(0, n)), expected, `n = ${n}`);
    assert.deepEqual(Array.from(order.subarray(n)), tail, 'entries past n untouched');
  }
});
