import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbortedError, SimClock } from '../../../../scripts/simulators/marlin/clock.js';

test('simulated time runs at the speed factor', () => {
  let real = 1000;
  const clock = new SimClock(25, () => real);
  assert.equal(clock.now(), 0);
  real += 200;
  assert.equal(clock.now(), 5000);
  assert.throws(() => new SimClock(0), RangeError);
});

test('sleeps resolve at their simulated deadline and reject when aborted', async () => {
  const clock = new SimClock(1000);
  const start = clock.now();
  await clock.sleep(500);
  assert.ok(clock.now() - start >= 500);
  const controller = new AbortController();
  const sleeping = clock.sleep(60_000, controller.signal);
  controller.abort();
  await assert.rejects(sleeping, AbortedError);
  await assert.rejects(clock.sleep(1, controller.signal), AbortedError);
  clock.dispose();
});
