import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MARLIN_MINIMUM_PLANNER_SPEED,
  deviationJunctionSpeed2,
  jerkJunctionSpeed,
  jerkSafeSpeed,
  klipperJunctionSpeed2,
  type KlipperSide,
} from '../../../../appliance/slicer/engine/estimate/junction.js';

const v = (x: number, y: number, z = 0, e = 0): Float64Array => Float64Array.of(x, y, z, e);
const JERK = v(10, 10, 0.4, 2.5);
/** A move as the jerk junction reads it: axis speeds, then nominal and safe speed. */
const jerkSide = (speeds: Float64Array, nominal: number, safe: number): Float64Array => Float64Array.of(...speeds, nominal, safe);
const MAX_ACCEL = v(5000, 5000, 200, 10000);

function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

test('safe speed: every axis may jump from zero by its jerk', () => {
  near(jerkSafeSpeed(v(60, 80), 100, JERK), 12.5);
  near(jerkSafeSpeed(v(5, 5), 7.07, JERK), 7.07);
  near(jerkSafeSpeed(v(0, 0, 0, -40), 40, JERK), 2.5);
});

test('classic jerk: a straight line keeps its speed, a reversal falls to the safe speed', () => {
  near(jerkJunctionSpeed(jerkSide(v(100, 0), 100, 10), jerkSide(v(100, 0), 100, 10), JERK), 100);
  near(jerkJunctionSpeed(jerkSide(v(100, 0), 100, 10), jerkSide(v(-100, 0), 100, 10), JERK), 10);
  near(jerkJunctionSpeed(jerkSide(v(100, 0), 100, 10), jerkSide(v(50, 0), 50, 10), JERK), 50);
});

test('classic jerk: a 90° corner is limited by the axis that stops', () => {
  // X drops from 100 to 0: the junction scales to 10 mm/s, where Y may start.
  near(jerkJunctionSpeed(jerkSide(v(100, 0), 100, 10), jerkSide(v(0, 100), 100, 10), JERK), 10);
  // A shallow corner: Y changes by 100·sin(5°) ≈ 8.7 mm/s, within its jerk; X by 0.4.
  const angle = (5 * Math.PI) / 180;
  near(jerkJunctionSpeed(jerkSide(v(100, 0), 100, 10), jerkSide(v(100 * Math.cos(angle), 100 * Math.sin(angle)), 100, 10), JERK), 100);
});

test("classic jerk keeps Marlin 2's treatment of a speed-up: the entry is taken at the new nominal speed", () => {
  // 50 → 100 mm/s along X: Marlin compares 50 with 100, a change of 50, and limits to 10 mm/s.
  near(jerkJunctionSpeed(jerkSide(v(50, 0), 50, 10), jerkSide(v(100, 0), 100, 10), JERK), 10);
});

test('junction deviation: centripetal speed at 90°, a stop at reversal, the nominal speed when straight', () => {
  const right = deviationJunctionSpeed2(v(1, 0), v(0, 1), 1000, MAX_ACCEL, 0.05, 1e4, 1e4);
  near(right, 1000 * 0.05 * (1 + Math.SQRT2));
  near(deviationJunctionSpeed2(v(1, 0), v(-1, 0), 1000, MAX_ACCEL, 0.05, 1e4, 1e4), MARLIN_MINIMUM_PLANNER_SPEED ** 2);
  near(deviationJunctionSpeed2(v(1, 0), v(1, 0), 1000, MAX_ACCEL, 0.05, 1e4, 2500), 2500);
});

test('junction deviation limits the acceleration along the junction by the axis maxima', () => {
  // The junction direction (-1, 1)/√2 puts 0.707 of it on X, whose limit is 500.
  const limited = deviationJunctionSpeed2(v(1, 0), v(0, 1), 1000, v(500, 5000, 200, 10000), 0.05, 1e4, 1e4);
  near(limited, (500 / Math.SQRT1_2) * 0.05 * (1 + Math.SQRT2));
});

function side(unit: Float64Array, patch: Partial<KlipperSide> = {}): KlipperSide {
  const scv = 5;
  return { unit, eRatio: 0, deviationAccel: scv * scv * (Math.SQRT2 - 1), delta2: 2 * 1000 * 100, cruise2: 1e4, ...patch };
}

test('Klipper: a 90° corner passes at square_corner_velocity, a reversal stops, a straight line keeps cruise', () => {
  near(klipperJunctionSpeed2(side(v(1, 0)), side(v(0, 1)), 1), 25);
  near(klipperJunctionSpeed2(side(v(1, 0)), side(v(-1, 0)), 1), 0);
  near(klipperJunctionSpeed2(side(v(1, 0)), side(v(1, 0), { cruise2: 900 }), 1), 900);
});

test('Klipper: short moves limit the corner so the arc touches them no further than midway', () => {
  // delta2 = 2·a·L with L = 0.01 mm: a quarter of it times tan(45°) is below scv².
  const short = { delta2: 2 * 1000 * 0.01 };
  near(klipperJunctionSpeed2(side(v(1, 0), short), side(v(0, 1), short), 1), 0.25 * 20);
});

test('Klipper: a change of extrusion ratio is limited by the extruder corner velocity', () => {
  near(klipperJunctionSpeed2(side(v(1, 0), { eRatio: 0.05 }), side(v(1, 0), { eRatio: 0.01 }), 1), (1 / 0.04) ** 2);
});
