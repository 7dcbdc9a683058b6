import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangeThrottle, keyWithoutTimestamp, progressPhase } from '../../../appliance/dashboard/printers/change-throttle.js';
import { ManualClock } from './manual-clock.js';

interface Reading {
  value: number;
  updated_at: string;
}

function setup(intervalMs = 250) {
  const clock = new ManualClock();
  const sent: number[] = [];
  let stamp = 0;
  const throttle = new ChangeThrottle<Reading>(intervalMs, keyWithoutTimestamp, (reading) => sent.push(reading.value), clock);
  const push = (value: number) => throttle.push({ value, updated_at: `t${stamp++}` });
  return { clock, sent, throttle, push };
}

test('repeats are dropped even when only the timestamp moves', () => {
  const { sent, push, clock } = setup();
  push(1);
  clock.advance(1000);
  push(1);
  push(1);
  assert.deepEqual(sent, [1]);
});

test('changes within the interval are held; only the newest goes out when it ends', () => {
  const { sent, push, clock } = setup(250);
  push(1);
  push(2);
  push(3);
  assert.deepEqual(sent, [1]);
  assert.deepEqual(clock.pendingDelays(), [250]);
  clock.advance(249);
  assert.deepEqual(sent, [1]);
  clock.advance(1);
  assert.deepEqual(sent, [1, 3]);
  push(4);
  assert.deepEqual(sent, [1, 3], 'the interval restarts from the last send');
  clock.advance(250);
  assert.deepEqual(sent, [1, 3, 4]);
});

test('a change that is undone before the interval ends is not sent', () => {
  const { sent, push, clock } = setup(250);
  push(1);
  push(2);
  push(1);
  clock.advance(500);
  assert.deepEqual(sent, [1]);
});

test('at most one value per interval however fast they come', () => {
  const { sent, push, clock } = setup(250);
  for (let ms = 0; ms < 1000; ms += 10) {
    push(ms);
    clock.advance(10);
  }
  clock.advance(250);
  assert.equal(sent.length, 5, `sent ${sent.join(',')}`);
  assert.equal(sent.at(-1), 990, 'the last value always gets through');
});

test('cancel drops the held value and keeps deduplicating against what was sent', () => {
  const { sent, push, clock, throttle } = setup(250);
  push(1);
  push(2);
  throttle.cancel();
  clock.advance(1000);
  assert.deepEqual(sent, [1]);
  push(1);
  assert.deepEqual(sent, [1]);
  push(2);
  assert.deepEqual(sent, [1, 2]);
});

test("a held value is sent at once when the next leaves its phase: no step of a print's story is lost", () => {
  const clock = new ManualClock();
  const sent: string[] = [];
  type Step = { state: string; file: string; progress: number; updated_at: string };
  const throttle = new ChangeThrottle<Step>(500, keyWithoutTimestamp, (s) => sent.push(`${s.file} ${s.state} ${s.progress}`), clock, progressPhase);
  const push = (file: string, state: string, progress: number) => throttle.push({ file, state, progress, updated_at: String(clock.now()) });
  push('a.gcode', 'printing', 90);
  push('a.gcode', 'finished', 100);
  // The next print starts and ends within the interval: each state still goes out, in order.
  push('b.gcode', 'printing', 0);
  push('b.gcode', 'printing', 40);
  push('b.gcode', 'printing', 80);
  push('b.gcode', 'finished', 100);
  assert.deepEqual(sent, ['a.gcode printing 90', 'a.gcode finished 100', 'b.gcode printing 80']);
  clock.advance(500);
  assert.deepEqual(sent, ['a.gcode printing 90', 'a.gcode finished 100', 'b.gcode printing 80', 'b.gcode finished 100']);
});
