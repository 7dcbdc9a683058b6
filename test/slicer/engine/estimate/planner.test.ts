import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MotionPlanner } from '../../../../appliance/slicer/engine/estimate/planner.js';
import { copyLimits, DEFAULT_LIMITS, type JunctionModel, type MachineLimits } from '../../../../appliance/slicer/engine/estimate/limits.js';
import { isAppError } from '../../../../appliance/common/errors.js';

/** Round numbers so the expected times below can be worked out by hand. */
function limits(junction: JunctionModel, patch: Partial<MachineLimits> = {}): MachineLimits {
  const l = copyLimits(DEFAULT_LIMITS);
  Object.assign(
    l,
    {
      junction,
      maxSpeed: { x: 500, y: 500, z: 12, e: 120 },
      maxAccel: { x: 5000, y: 5000, z: 200, e: 10000 },
      maxJerk: { x: 10, y: 10, z: 0.4, e: 2.5 },
      junctionDeviation: 0.05,
      printAccel: 1000,
      retractAccel: 1250,
      travelAccel: 1000,
      minExtrudeRate: 0,
      minTravelRate: 0,
      squareCornerVelocity: 5,
      minimumCruiseRatio: 0.5,
    },
    patch,
  );
  return l;
}

function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

test('a single long move accelerates, cruises and decelerates', () => {
  for (const junction of ['junction-deviation', 'klipper'] as const) {
    const p = new MotionPlanner(limits(junction));
    p.move(100, 0, 0, 0, 100);
    // 5 mm up to 100 mm/s in 0.1 s, 90 mm at 100 mm/s, 5 mm down in 0.1 s.
    near(p.finish().totalS, 1.1);
  }
});

test('classic jerk starts and stops at the safe speed instead of zero', () => {
  const p = new MotionPlanner(limits('jerk'));
  p.move(100, 0, 0, 0, 100);
  // X jumps to its 10 mm/s jerk: 4.95 mm ramps of 0.09 s each and 90.1 mm of cruise.
  near(p.finish().totalS, 0.18 + 0.901);
});

test('a short move never reaches its feedrate: triangle profile', () => {
  const p = new MotionPlanner(limits('junction-deviation'));
  p.move(4, 0, 0, 0, 100);
  // Peak speed sqrt(a * L) = sqrt(4000) reached at mid-move.
  near(p.finish().totalS, (2 * Math.sqrt(4000)) / 1000);
});

test('a 90° corner under classic jerk passes at the jerk speed', () => {
  const p = new MotionPlanner(limits('jerk'));
  p.move(100, 0, 0, 0, 100);
  p.move(100, 100, 0, 0, 100);
  // X stops and Y starts within 10 mm/s: both moves run 10 → 100 → 10 mm/s.
  near(p.finish().totalS, 2 * (0.18 + 0.901));
});

test('a 90° corner under junction deviation passes at the centripetal speed', () => {
  const p = new MotionPlanner(limits('junction-deviation'));
  p.move(100, 0, 0, 0, 100);
  p.move(100, 100, 0, 0, 100);
  // v² = a·δ·sin(45°)/(1 − sin(45°)) = 1000 · 0.05 · (1 + √2).
  const corner2 = 1000 * 0.05 * (1 + Math.SQRT2);
  const corner = Math.sqrt(corner2);
  const oneMove = 0.1 + (100 - corner) / 1000 + (100 - 5 - (10000 - corner2) / 2000) / 100;
  near(p.finish().totalS, 2 * oneMove);
});

test('a 90° corner under Klipper passes at square_corner_velocity', () => {
  const p = new MotionPlanner(limits('klipper'));
  p.move(100, 0, 0, 0, 100);
  p.move(100, 100, 0, 0, 100);
  // At 90° Klipper's deviation is chosen so that the corner speed is exactly 5 mm/s.
  const oneMove = 0.1 + (100 - 5) / 1000 + (100 - 5 - (10000 - 25) / 2000) / 100;
  near(p.finish().totalS, 2 * oneMove);
});

test('Klipper minimum_cruise_ratio caps the peak of short moves', () => {
  // Back-and-forth moves of 4 mm stop at each reversal. Without the ratio each would be a
  // triangle peaking at sqrt(a·L); with 0.5 the peak is sqrt(a·L/2) and half the move cruises.
  const run = (ratio: number): number => {
    const p = new MotionPlanner(limits('klipper', { minimumCruiseRatio: ratio }));
    for (let i = 1; i <= 10; i++) p.move(i % 2 === 1 ? 4 : 0, 0, 0, 0, 100);
    return p.finish().totalS;
  };
  near(run(0), 10 * ((2 * Math.sqrt(4000)) / 1000));
  const peak = Math.sqrt(2000);
  near(run(0.5), 10 * ((2 * peak) / 1000 + 2 / peak));
});

test('a straight line cut into 0.1 mm segments times like one move under every junction model', () => {
  for (const junction of ['junction-deviation', 'klipper'] as const) {
    const p = new MotionPlanner(limits(junction));
    for (let i = 1; i <= 1000; i++) p.move(i * 0.1, 0, 0, 0, 100);
    near(p.finish().totalS, 1.1, 1e-9);
  }
  const jerk = new MotionPlanner(limits('jerk'));
  for (let i = 1; i <= 1000; i++) jerk.move(i * 0.1, 0, 0, 0, 100);
  near(jerk.finish().totalS, 0.18 + 0.901, 1e-9);
});

test('an extruder-only retract is limited by the E axis and uses the retract acceleration', () => {
  const p = new MotionPlanner(limits('junction-deviation'));
  p.move(0, 0, 0, -2, 40);
  // 0.64 mm ramps at 1250 mm/s² to 40 mm/s, 0.72 mm of cruise.
  near(p.finish().totalS, 2 * 0.032 + 0.72 / 40);

  const slowE = new MotionPlanner(limits('junction-deviation', { maxSpeed: { x: 500, y: 500, z: 12, e: 25 } }));
  slowE.move(0, 0, 0, -2, 40);
  near(slowE.finish().totalS, 2 * 0.02 + (2 - 0.5) / 25);
});

test('a Z move is limited by the Z feedrate and acceleration', () => {
  const p = new MotionPlanner(limits('junction-deviation'));
  p.move(0, 0, 10, 0, 100);
  // 12 mm/s at 200 mm/s²: 0.36 mm ramps of 0.06 s, 9.28 mm of cruise.
  near(p.finish().totalS, 0.12 + 9.28 / 12);
});

test('the acceleration of a diagonal move is the per-axis limit projected onto it', () => {
  const p = new MotionPlanner(limits('junction-deviation', { maxAccel: { x: 500, y: 5000, z: 200, e: 10000 } }));
  p.move(30, 40, 0, 0, 50);
  // X carries 3/5 of the move, so the move accelerates at 500 / 0.6 mm/s².
  const a = 500 / 0.6;
  const ramp = (50 * 50) / (2 * a);
  near(p.finish().totalS, (2 * 50) / a + (50 - 2 * ramp) / 50);
});

test('minimum feedrates lift slow moves', () => {
  const p = new MotionPlanner(limits('junction-deviation', { minTravelRate: 20 }));
  p.move(100, 0, 0, 0, 1);
  near(p.finish().totalS, 2 * 0.02 + (100 - 0.4) / 20);
});

test('dwell stops the machine and adds its time; markers report the time at their point', () => {
  const p = new MotionPlanner(limits('junction-deviation'));
  p.marker('start');
  p.move(100, 0, 0, 0, 100);
  p.marker('before-dwell');
  p.dwell(2);
  p.marker('after-dwell');
  p.move(200, 0, 0, 0, 100);
  p.marker('end');
  const result = p.finish();
  near(result.totalS, 1.1 + 2 + 1.1);
  assert.deepEqual(
    result.markers.map((m) => m.tag),
    ['start', 'before-dwell', 'after-dwell', 'end'],
  );
  near(result.markers[0].timeS, 0);
  near(result.markers[1].timeS, 1.1);
  near(result.markers[2].timeS, 3.1);
  near(result.markers[3].timeS, 4.2);
});

test('a long stream keeps a bounded queue and matches the time of the same moves planned at once', () => {
  const zigzag = (p: MotionPlanner): number => {
    for (let i = 0; i < 5000; i++) p.move(i % 2 === 0 ? 50 : 0, i * 0.5, 0, i * 0.1, 80);
    return p.finish().totalS;
  };
  const small = zigzag(new MotionPlanner(limits('jerk'), { lookahead: 64 }));
  const large = zigzag(new MotionPlanner(limits('jerk'), { lookahead: 8192 }));
  near(small, large, 1e-6);
  const smallKlipper = zigzag(new MotionPlanner(limits('klipper'), { lookahead: 64 }));
  const largeKlipper = zigzag(new MotionPlanner(limits('klipper'), { lookahead: 8192 }));
  near(smallKlipper, largeKlipper, 1e-6);
});

test('rejects a non-positive feedrate and bad accelerations with AppError', () => {
  const p = new MotionPlanner(limits('jerk'));
  assert.throws(
    () => p.move(1, 0, 0, 0, 0),
    (err) => isAppError(err) && err.status === 400,
  );
  assert.throws(
    () => p.setAccelerations({ print: -1 }),
    (err) => isAppError(err) && err.code === 'ERR_INVALID_SETTING',
  );
  assert.throws(() => new MotionPlanner(limits('jerk'), { lookahead: 100 }), isAppError);
});
