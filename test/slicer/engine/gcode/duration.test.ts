import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration } from '../../../../appliance/slicer/engine/gcode/duration.js';

test('durations print like PrusaSlicer, largest unit first, zero units kept below it', () => {
  assert.equal(formatDuration(12), '12s');
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(300), '5m 0s');
  assert.equal(formatDuration(3600), '1h 0m 0s');
  assert.equal(formatDuration(93784), '1d 2h 3m 4s');
  assert.equal(formatDuration(86400 * 3 + 59), '3d 0h 0m 59s');
});

test('fractions round to the nearest second and negatives clamp to zero', () => {
  assert.equal(formatDuration(59.6), '1m 0s');
  assert.equal(formatDuration(59.4), '59s');
  assert.equal(formatDuration(-3), '0s');
});

test('a non-finite duration is an internal error', () => {
  assert.throws(() => formatDuration(Number.NaN), { code: 'ERR_INTERNAL' });
  assert.throws(() => formatDuration(Number.POSITIVE_INFINITY), { code: 'ERR_INTERNAL' });
});
