import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NearestGrid } from '../../../../../appliance/slicer/engine/regions/infill/nearest.js';

/** A small deterministic generator so failures can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('nearest agrees with a brute-force search through removals and late insertions', () => {
  const rnd = random(7);
  const n = 500;
  const xs = Float64Array.from({ length: n }, () => rnd() * 100);
  const ys = Float64Array.from({ length: n }, () => rnd() * 30);
  const grid = new NearestGrid({ minX: 0, minY: 0, maxX: 100, maxY: 30 }, n);
  const live = new Set<number>();
  for (let i = 0; i < n / 2; i++) {
    grid.insert(i, xs[i], ys[i]);
    live.add(i);
  }
  let next = n / 2;
  for (let round = 0; round < 400; round++) {
    const qx = rnd() * 160 - 30;
    const qy = rnd() * 90 - 30;
    let best = -1;
    let bestD = Infinity;
    for (const i of live) {
      const d = (xs[i] - qx) ** 2 + (ys[i] - qy) ** 2;
      if (d < bestD) [best, bestD] = [i, d];
    }
    const got = grid.nearest(qx, qy);
    assert.equal((xs[got] - qx) ** 2 + (ys[got] - qy) ** 2, bestD, `query ${round}`);
    grid.remove(best);
    live.delete(best);
    if (next < n) {
      grid.insert(next, xs[next], ys[next]);
      live.add(next++);
    }
  }
  assert.equal(grid.size, live.size);
});

test('an empty grid answers -1', () => {
  const grid = new NearestGrid({ minX: 0, minY: 0, maxX: 1, maxY: 1 }, 2);
  assert.equal(grid.nearest(0, 0), -1);
  grid.insert(1, 0.5, 0.5);
  grid.remove(1);
  assert.equal(grid.nearest(0, 0), -1);
});
