import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimClock } from '../../../../scripts/simulators/marlin/clock.js';
import { Periodic } from '../../../../scripts/simulators/marlin/periodic.js';

test('a periodic action repeats on the simulated clock until stopped', async () => {
  const clock = new SimClock(1000);
  const times: number[] = [];
  let reached: () => void = () => undefined;
  const three = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const periodic = new Periodic(clock, () => {
    times.push(clock.now());
    if (times.length === 3) reached();
  });
  const start = clock.now();
  periodic.start(1000);
  assert.equal(periodic.intervalMs, 1000);
  await three;
  periodic.stop();
  assert.equal(periodic.intervalMs, 0);
  assert.ok(times[0] - start >= 1000 && times[2] - start >= 3000, `every simulated second: ${times.join(' ')}`);
  clock.dispose();
});

test('interval 0 does not run at all', () => {
  const clock = new SimClock(1);
  const periodic = new Periodic(clock, () => assert.fail('must not run'));
  periodic.start(0);
  assert.equal(periodic.intervalMs, 0);
  clock.dispose();
});
