import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbortedError, SimClock } from '../../../../scripts/simulators/marlin/clock.js';
import { BLOCK_BUFFER_SIZE, Planner } from '../../../../scripts/simulators/marlin/planner.js';

const SPEED = 1000;

test('blocks finish in order and synchronize waits for the last one', async () => {
  const clock = new SimClock(SPEED);
  const planner = new Planner(clock);
  const done: number[] = [];
  const signal = new AbortController().signal;
  // 5 × 40 simulated seconds is 200 ms of real time: long enough that a loaded machine still sees them moving.
  for (let k = 0; k < 5; k++) await planner.add({ durationMs: 40_000, onDone: () => done.push(k) }, signal);
  assert.ok(planner.moving);
  await planner.synchronize(signal);
  assert.deepEqual(done, [0, 1, 2, 3, 4]);
  assert.equal(planner.queued, 0);
  assert.equal(planner.free, BLOCK_BUFFER_SIZE - 1);
  clock.dispose();
});

test('a full queue refuses tryAdd and makes add wait for a free slot', async () => {
  const clock = new SimClock(SPEED);
  const planner = new Planner(clock);
  const signal = new AbortController().signal;
  for (let k = 0; k < BLOCK_BUFFER_SIZE - 1; k++) assert.equal(planner.tryAdd({ durationMs: 20_000 }), true);
  assert.equal(planner.tryAdd({ durationMs: 1 }), false);
  assert.equal(planner.free, 0);
  let added = false;
  const waiting = planner.add({ durationMs: 1 }, signal).then(() => {
    added = true;
  });
  assert.equal(added, false);
  await waiting;
  assert.equal(added, true);
  planner.clear();
  clock.dispose();
});

test('clear drops queued moves without their effects and releases waiters', async () => {
  const clock = new SimClock(SPEED);
  const planner = new Planner(clock);
  const signal = new AbortController().signal;
  let effects = 0;
  for (let k = 0; k < 3; k++)
    planner.tryAdd({
      durationMs: 60_000,
      onDone: () => {
        effects++;
      },
    });
  const synced = planner.synchronize(signal);
  planner.clear();
  await synced;
  assert.equal(effects, 0);
  assert.equal(planner.queued, 0);
  clock.dispose();
});

test('an aborted wait rejects with AbortedError', async () => {
  const clock = new SimClock(SPEED);
  const planner = new Planner(clock);
  const controller = new AbortController();
  planner.tryAdd({ durationMs: 60_000 });
  const synced = planner.synchronize(controller.signal);
  controller.abort();
  await assert.rejects(synced, AbortedError);
  planner.clear();
  clock.dispose();
});
