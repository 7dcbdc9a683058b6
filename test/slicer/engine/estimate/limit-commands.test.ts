import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyExtendedCommand, applyLimitCommand } from '../../../../appliance/slicer/engine/estimate/limit-commands.js';
import { GcodeReader, type GcodeWords } from '../../../../appliance/slicer/engine/estimate/gcode-reader.js';
import { MotionPlanner } from '../../../../appliance/slicer/engine/estimate/planner.js';
import { copyLimits, DEFAULT_LIMITS, type CommandDialect, type MachineLimits } from '../../../../appliance/slicer/engine/estimate/limits.js';

function planner(dialect: CommandDialect): MotionPlanner {
  const junction = dialect === 'klipper' ? 'klipper' : 'jerk';
  return new MotionPlanner(Object.assign(copyLimits(DEFAULT_LIMITS), { dialect, junction }));
}

/** Runs M-code lines through the reader into applyLimitCommand. */
function apply(p: MotionPlanner, gcode: string, unit = 1): Readonly<MachineLimits> {
  const reader = new GcodeReader({
    command: (_letter: number, code: number, w: GcodeWords) => applyLimitCommand(code, w, unit, p),
    comment: () => {},
    extended: (line) => applyExtendedCommand(line, p),
  });
  reader.feed(gcode);
  reader.end();
  return p.currentLimits;
}

test('Marlin: M201, M203 in mm/s, M204 P/R/T, M205 jerk and minimum feedrates', () => {
  const l = apply(planner('marlin'), 'M201 X900 Y800 Z100 E4000\nM203 X150 Y140 Z10 E50\nM204 P700 R600 T1100\nM205 X6 Y5 Z0.2 E3 S1 T2\n');
  assert.deepEqual(l.maxAccel, { x: 900, y: 800, z: 100, e: 4000 });
  assert.deepEqual(l.maxSpeed, { x: 150, y: 140, z: 10, e: 50 });
  assert.deepEqual([l.printAccel, l.retractAccel, l.travelAccel], [700, 600, 1100]);
  assert.deepEqual(l.maxJerk, { x: 6, y: 5, z: 0.2, e: 3 });
  assert.deepEqual([l.minExtrudeRate, l.minTravelRate], [1, 2]);
});

test('Marlin: legacy M204 S sets print and travel, with T as the retract acceleration', () => {
  const l = apply(planner('marlin'), 'M204 S800 T500\n');
  assert.deepEqual([l.printAccel, l.travelAccel, l.retractAccel], [800, 800, 500]);
});

test('Marlin: M205 J switches to junction deviation; after G20 M203 is in inches', () => {
  const l = apply(planner('marlin'), 'M205 J0.02\n');
  assert.equal(l.junction, 'junction-deviation');
  assert.equal(l.junctionDeviation, 0.02);
  assert.equal(apply(planner('marlin'), 'M203 X2\n', 25.4).maxSpeed.x, 50.8);
});

test('RepRapFirmware: M203 and M566 in mm/min, M204 P/T, no feedrate floors from M205', () => {
  const l = apply(planner('reprap'), 'M203 X12000 Z600\nM566 X600 Y480\nM204 P500 T2000\nM205 S5\n');
  assert.equal(l.maxSpeed.x, 200);
  assert.equal(l.maxSpeed.z, 10);
  assert.deepEqual([l.maxJerk.x, l.maxJerk.y], [10, 8]);
  assert.deepEqual([l.printAccel, l.travelAccel], [500, 2000]);
  assert.equal(l.minExtrudeRate, DEFAULT_LIMITS.minExtrudeRate);
});

test('Klipper: M204 S or min(P, T); M201/M203/M205 are not Klipper commands', () => {
  const p = planner('klipper');
  let l = apply(p, 'M201 X1\nM203 X1\nM205 X1\nM204 P3000 T2000\n');
  assert.deepEqual(l.maxAccel, DEFAULT_LIMITS.maxAccel);
  assert.deepEqual(l.maxSpeed, DEFAULT_LIMITS.maxSpeed);
  assert.deepEqual([l.printAccel, l.travelAccel], [2000, 2000]);
  l = apply(p, 'M204 P1000\nM204 S4000\n');
  assert.deepEqual([l.printAccel, l.travelAccel], [4000, 4000]);
});

test('SET_VELOCITY_LIMIT sets velocity, acceleration, corner velocity and the cruise ratio', () => {
  const p = planner('klipper');
  let l = apply(p, 'SET_VELOCITY_LIMIT VELOCITY=300 ACCEL=5000 SQUARE_CORNER_VELOCITY=8 MINIMUM_CRUISE_RATIO=0.3\n');
  assert.deepEqual([l.maxVelocity, l.printAccel, l.travelAccel, l.squareCornerVelocity, l.minimumCruiseRatio], [300, 5000, 5000, 8, 0.3]);
  l = apply(p, 'set_velocity_limit accel_to_decel=1250\n');
  assert.equal(l.minimumCruiseRatio, 0.75);
  l = apply(p, 'PRINT_START BED=60\nSET_VELOCITY_LIMIT ACCEL=-5 VELOCITY=abc\n');
  assert.equal(l.printAccel, 5000);
  assert.equal(l.maxVelocity, 300);
});

test('non-positive accelerations are ignored rather than breaking the plan', () => {
  const l = apply(planner('marlin'), 'M204 P0 T-5 R600\n');
  assert.deepEqual([l.printAccel, l.travelAccel, l.retractAccel], [DEFAULT_LIMITS.printAccel, DEFAULT_LIMITS.travelAccel, 600]);
});
