import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockQueue, trapezoidTime } from '../../../../appliance/slicer/engine/estimate/block-queue.js';

function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

test('trapezoid: ramps at the acceleration, cruise at the cruise speed', () => {
  near(trapezoidTime(100, 1000, 0, 0, 100 * 100), 1.1);
  near(trapezoidTime(100, 1000, 20 * 20, 10 * 10, 100 * 100), (100 - 20) / 1000 + (100 - 10) / 1000 + (100 - 4.8 - 4.95) / 100);
  near(trapezoidTime(4, 1000, 0, 0, 4000), (2 * Math.sqrt(4000)) / 1000);
});

test('trapezoid: a cruise below the entry speed is lifted to it', () => {
  near(trapezoidTime(10, 1000, 400, 0, 100), 0.02 + 9.8 / 20);
});

test('the queue plans junctions backward and forward, then ends at rest', () => {
  const q = new BlockQueue(16, false);
  // Two 100 mm moves at 100 mm/s with a 10 mm/s junction, from and to standstill.
  q.push(100, 1000, 1e4, 0, 0, 0);
  q.push(100, 1000, 1e4, 100, 0, 0);
  const times = new Float64Array(16);
  q.commit(2, times);
  const oneSide = 0.1 + (100 - 10) / 1000 + (100 - 5 - 4.95) / 100;
  near(times[0], oneSide);
  near(times[1], oneSide);
  assert.equal(q.count, 0);
});

test('a short move cannot reach its junction limit: the forward pass lowers the next entry', () => {
  const q = new BlockQueue(16, false);
  q.push(1, 1000, 1e4, 0, 0, 0);
  q.push(100, 1000, 1e4, 1e4, 0, 0);
  const times = new Float64Array(16);
  q.commit(2, times);
  // From rest over 1 mm the head reaches sqrt(2000) mm/s.
  near(times[0], Math.sqrt(2000) / 1000);
});

test('committing part of the queue keeps the speed where it was cut', () => {
  const blocks: [number, number][] = [
    [5, 2500],
    [20, 400],
    [3, 2500],
    [40, 900],
    [10, 100],
  ];
  const whole = new BlockQueue(16, false);
  for (const [length, entry2] of blocks) whole.push(length, 1000, 2500, entry2, 0, 0);
  const all = new Float64Array(16);
  whole.commit(blocks.length, all);

  const parts = new BlockQueue(16, false);
  const some = new Float64Array(16);
  for (const [length, entry2] of blocks.slice(0, 4)) parts.push(length, 1000, 2500, entry2, 0, 0);
  parts.commit(2, some);
  const first = [some[0], some[1]];
  parts.push(blocks[4][0], 1000, 2500, blocks[4][1], 0, 0);
  parts.commit(3, some);
  const sum = (xs: ArrayLike<number>, n: number): number =>
    Array.from(xs)
      .slice(0, n)
      .reduce((a, b) => a + b, 0);
  near(first[0] + first[1] + sum(some, 3), sum(all, 5), 1e-12);
});

test('when the assumed stop slowed the committed blocks, the rest continues from the speed they reached', () => {
  // Short blocks at 100 mm/s²: a window ending after block 3 must slow down from block 2 on.
  const lengths = [5, 2, 2, 2, 30];
  const times = new Float64Array(16);
  const cut = new BlockQueue(16, false);
  for (const [i, length] of lengths.slice(0, 4).entries()) cut.push(length, 100, 2500, i === 0 ? 0 : 2500, 0, 0);
  cut.commit(2, times);
  const committed = times[0] + times[1];
  cut.push(lengths[4], 100, 2500, 2500, 0, 0);
  cut.commit(3, times);
  const rest = times[0] + times[1] + times[2];

  // Independently: blocks 0-1 end at the 800 mm²/s² the window allowed (2 × 100 × 4 mm); blocks 2-4 start there.
  const head = new BlockQueue(16, false);
  for (const [i, length] of lengths.slice(0, 4).entries()) head.push(length, 100, 2500, i === 0 ? 0 : 2500, 0, 0);
  head.commit(4, times);
  near(committed, times[0] + times[1]);
  const tail = new BlockQueue(16, false);
  for (const [i, length] of lengths.slice(2).entries()) tail.push(length, 100, 2500, i === 0 ? 800 : 2500, 0, 0);
  tail.commit(3, times);
  near(rest, times[0] + times[1] + times[2]);
});

test('Klipper smoothing: zero cruise ratio leaves the plain profile, a ratio caps short moves', () => {
  const run = (ratio: number): number => {
    const q = new BlockQueue(16, true);
    // A 4 mm move between two stops at 1000 mm/s².
    q.push(4, 1000, 1e4, 0, 0, 2 * 1000 * (1 - ratio) * 4);
    const times = new Float64Array(16);
    q.commit(1, times);
    return times[0];
  };
  near(run(0), (2 * Math.sqrt(4000)) / 1000);
  const peak = Math.sqrt(2000);
  near(run(0.5), (2 * peak) / 1000 + 2 / peak);
});
