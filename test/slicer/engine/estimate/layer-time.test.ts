import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MOVE_STRIDE, estimateMoves } from '../../../../appliance/slicer/engine/estimate/layer-time.js';
import { MotionPlanner } from '../../../../appliance/slicer/engine/estimate/planner.js';
import { DEFAULT_LIMITS } from '../../../../appliance/slicer/engine/estimate/limits.js';
import { isAppError } from '../../../../appliance/common/errors.js';

function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

/** A square perimeter at z 0.2 with a retract and a travel: start, 4 sides, retract, travel. */
const SQUARE = Float64Array.from([
  10, 10, 0.2, 0, 0,
  30, 10, 0.2, 0.8, 40,
  30, 30, 0.2, 0.8, 40,
  10, 30, 0.2, 0.8, 40,
  10, 10, 0.2, 0.8, 40,
  10, 10, 0.2, -0.8, 35,
  50, 50, 0.2, 0, 150,
]);

test('a layer costs what the planner says for the same moves and accelerations', () => {
  const p = new MotionPlanner(DEFAULT_LIMITS);
  p.setAccelerations({ print: 800, travel: 1200 });
  p.setPosition(10, 10, 0.2, 0);
  let e = 0;
  for (let k = 1; k < SQUARE.length / MOVE_STRIDE; k++) {
    const o = k * MOVE_STRIDE;
    e += SQUARE[o + 3];
    p.move(SQUARE[o], SQUARE[o + 1], SQUARE[o + 2], e, SQUARE[o + 4]);
  }
  near(estimateMoves(SQUARE, DEFAULT_LIMITS, { print: 800, travel: 1200 }), p.finish().totalS);
  assert.ok(estimateMoves(SQUARE, DEFAULT_LIMITS, { print: 400 }) > estimateMoves(SQUARE, DEFAULT_LIMITS, { print: 2000 }));
});

test('per-move times add up to the layer time, zero for the start and for moves that go nowhere', () => {
  const moves = Float64Array.from([...SQUARE, 50, 50, 0.2, 0, 150]);
  const times = new Float64Array(moves.length / MOVE_STRIDE);
  const total = estimateMoves(moves, DEFAULT_LIMITS, {}, times);
  near(times.reduce((a, b) => a + b, 0), total);
  assert.equal(times[0], 0);
  assert.equal(times[7], 0);
  for (let k = 1; k < 7; k++) assert.ok(times[k] > 0);
  // The four sides are alike.
  near(times[2], times[3], 1e-12);
});

test('an empty layer takes no time; malformed input is a 400 AppError', () => {
  assert.equal(estimateMoves(new Float64Array(0), DEFAULT_LIMITS), 0);
  assert.equal(estimateMoves(Float64Array.of(1, 2, 3, 0, 0), DEFAULT_LIMITS), 0);
  assert.throws(() => estimateMoves(new Float64Array(7), DEFAULT_LIMITS), (err) => isAppError(err) && err.status === 400);
  assert.throws(() => estimateMoves(SQUARE, DEFAULT_LIMITS, {}, new Float64Array(2)), (err) => isAppError(err) && err.status === 400);
  assert.throws(() => estimateMoves(Float64Array.of(0, 0, 0, 0, 0, 5, 0, 0, 0, 0), DEFAULT_LIMITS), isAppError);
});
