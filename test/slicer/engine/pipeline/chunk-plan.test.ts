import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkPlan, chunkStarts } from '../../../../appliance/slicer/engine/pipeline/chunk-plan.js';

test('chunk starts: chunks of at most the length asked, as even as they come, covering every layer', () => {
  const starts = chunkStarts(433, 24);
  assert.equal(starts.length, 20);
  assert.equal(starts[0], 0);
  assert.equal(starts.at(-1), 433);
  const lengths = starts.slice(1).map((s, k) => s - starts[k]);
  assert.ok(
    lengths.every((n) => n === 22 || n === 23),
    `lengths ${lengths}`,
  );
  assert.deepEqual(chunkStarts(5, 24), [0, 5]);
  assert.deepEqual(chunkStarts(6, 2), [0, 2, 4, 6]);
  assert.deepEqual(chunkStarts(1, 8), [0, 1]);
});

test('chunk plan: each lane builds a block of consecutive chunks and takes the next free block after it', () => {
  const plan = new ChunkPlan(12, 2, 4);
  const none = Number.POSITIVE_INFINITY;
  assert.deepEqual([plan.take(0, none), plan.take(1, none), plan.take(0, none), plan.take(1, none)], [0, 4, 1, 5]);
  assert.deepEqual([plan.take(1, none), plan.take(1, none)], [6, 7]);
  // Lane 1 is through its block first: it goes on with the next free one, not with lane 0's rest.
  assert.deepEqual([plan.take(1, none), plan.take(0, none), plan.take(0, none)], [8, 2, 3]);
  assert.deepEqual([plan.take(0, none), plan.take(1, none)], [10, 9]);
  assert.equal(plan.done, false);
  assert.deepEqual([plan.take(0, none), plan.take(1, none)], [11, null]);
  assert.equal(plan.done, true);
});

test('chunk plan: at the end a lane with no block left takes the upper half of the longest rest', () => {
  const plan = new ChunkPlan(6, 2, 4);
  const none = Number.POSITIVE_INFINITY;
  assert.deepEqual([plan.take(0, none), plan.take(1, none), plan.take(1, none)], [0, 4, 5]);
  // Lane 0 has 1, 2 and 3 still to build: lane 1 takes 2 and 3, lane 0 keeps 1, which is written first.
  assert.deepEqual([plan.take(1, none), plan.take(0, none), plan.take(1, none)], [2, 1, 3]);
  assert.equal(plan.take(0, none), null);
  assert.equal(plan.done, true);
});

test('chunk plan: no chunk at or past the limit is taken until the limit moves', () => {
  const plan = new ChunkPlan(8, 2, 4);
  assert.equal(plan.take(0, 3), 0);
  assert.equal(plan.take(1, 3), null, 'the second block starts past the limit');
  assert.deepEqual([plan.take(0, 3), plan.take(0, 3), plan.take(0, 3)], [1, 2, null]);
  assert.equal(plan.take(1, 5), 4);
  assert.equal(plan.take(0, 5), 3);
  // Lane 0 is through; what is left is lane 1's, whose upper half (6, 7) is past the limit.
  assert.equal(plan.take(0, 6), null);
  assert.equal(plan.take(0, 8), 6);
  // Lane 1 builds 5, then takes 7 from lane 0, which is still on 6.
  assert.deepEqual([plan.take(1, 8), plan.take(1, 8), plan.take(0, 8)], [5, 7, null]);
  assert.equal(plan.done, true);
});

test('chunk plan: every chunk is taken exactly once, whichever lane asks when', () => {
  for (const [chunks, lanes, block] of [
    [19, 2, 4],
    [37, 3, 4],
    [5, 2, 4],
    [1, 2, 4],
    [9, 4, 2],
  ]) {
    const plan = new ChunkPlan(chunks, lanes, block);
    const taken: number[] = [];
    // A fixed pseudo-random order of asking lanes and limits that move with what was taken.
    let seed = chunks * 31 + lanes;
    for (let turn = 0; turn < 10_000 && !plan.done; turn++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const lane = seed % lanes;
      let lowestLeft = 0;
      while (taken.includes(lowestLeft)) lowestLeft++;
      const k = plan.take(lane, lowestLeft + lanes * block);
      if (k !== null) taken.push(k);
    }
    assert.deepEqual(
      [...taken].sort((a, b) => a - b),
      Array.from({ length: chunks }, (_, c) => c),
      `${chunks} chunks on ${lanes} lanes`,
    );
  }
});
