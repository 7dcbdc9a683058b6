import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GcodeEstimator, type EstimateResult } from '../../../../appliance/slicer/engine/estimate/estimator.js';
import { MotionPlanner } from '../../../../appliance/slicer/engine/estimate/planner.js';
import { copyLimits, DEFAULT_LIMITS, type MachineLimits } from '../../../../appliance/slicer/engine/estimate/limits.js';
import { isAppError } from '../../../../appliance/common/errors.js';

function machine(patch: Partial<MachineLimits> = {}): MachineLimits {
  return Object.assign(
    copyLimits(DEFAULT_LIMITS),
    {
      junction: 'junction-deviation',
      junctionDeviation: 0.05,
      maxSpeed: { x: 500, y: 500, z: 12, e: 120 },
      maxAccel: { x: 5000, y: 5000, z: 200, e: 10000 },
      printAccel: 1000,
      travelAccel: 2000,
      retractAccel: 1500,
      minExtrudeRate: 0,
      minTravelRate: 0,
    },
    patch,
  );
}

const RETRACTION = [{ length: 1, speed: 30, unretractSpeed: 20, extraOnUnretract: 0.2 }];

function estimate(gcode: string, limits = machine()): EstimateResult {
  const estimator = new GcodeEstimator(limits, { firmwareRetraction: RETRACTION });
  estimator.feed(gcode);
  return estimator.finish();
}

/** The same moves given to the planner directly: [x, y, z, e, feedrate mm/s]. */
function planned(moves: number[][], limits = machine(), before?: (p: MotionPlanner) => void): number {
  const p = new MotionPlanner(limits);
  before?.(p);
  for (const [x, y, z, e, f] of moves) p.move(x, y, z, e, f);
  return p.finish().totalS;
}

function near(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

test('absolute and relative coordinates describe the same moves', () => {
  const absolute = estimate('G90\nM82\nG1 X10 Y0 E1 F1200\nG1 X10 Y10 E2\nG1 X0 Y10 E3 F600\n');
  const relative = estimate('G91\nG1 X10 E1 F1200\nG1 Y10 E1\nG1 X-10 E1 F600\n');
  const mixed = estimate('G90\nM83\nG1 X10 Y0 E1 F1200\nG1 X10 Y10 E1\nG1 X0 Y10 E1 F600\n');
  const expected = planned([
    [10, 0, 0, 1, 20],
    [10, 10, 0, 2, 20],
    [0, 10, 0, 3, 10],
  ]);
  near(absolute.totalS, expected);
  near(relative.totalS, expected);
  near(mixed.totalS, expected);
  for (const r of [absolute, relative, mixed]) {
    near(r.filamentMm[0], 3);
    assert.equal(r.moves, 3);
    assert.equal(r.extrusions, 3);
  }
});

test('G92 moves the coordinate system, not the machine', () => {
  const r = estimate('G1 X10 E5 F600\nG92 X0 E0\nG1 X10 E5\n');
  near(
    r.totalS,
    planned([
      [10, 0, 0, 5, 10],
      [20, 0, 0, 10, 10],
    ]),
  );
  near(r.filamentMm[0], 10);
  assert.deepEqual(r.bounds, [0, 0, 0, 10, 0, 0]);
});

test('G20 switches to inches for coordinates and feedrates', () => {
  const r = estimate('G20\nG1 X1 F60\nG21\nG1 X35.4\n');
  near(
    r.totalS,
    planned([
      [25.4, 0, 0, 0, 25.4],
      [35.4, 0, 0, 0, 25.4],
    ]),
  );
});

test('moves before any F run at 25 mm/s; F0 is ignored; M220 scales every move after it', () => {
  near(estimate('G1 X50\n').totalS, planned([[50, 0, 0, 0, 25]]));
  near(
    estimate('G1 X50 F3000\nG1 X100 F0\n').totalS,
    planned([
      [50, 0, 0, 0, 50],
      [100, 0, 0, 0, 50],
    ]),
  );
  near(
    estimate('G1 X50 F3000\nM220 S50\nG1 X100\nM220 B\nM220 S200\nG1 X150\nM220 R\nG1 X200\n').totalS,
    planned([
      [50, 0, 0, 0, 50],
      [100, 0, 0, 0, 25],
      [150, 0, 0, 0, 100],
      [200, 0, 0, 0, 25],
    ]),
  );
});

test('G4 dwells in seconds (S) or milliseconds (P), stopping the machine; M73 and unknown commands change nothing', () => {
  const base = estimate('G1 X50 F3000\nG1 X100\n').totalS;
  near(estimate('G1 X50 F3000\nG4 S2\nG1 X100\n').totalS, planned([[50, 0, 0, 0, 50]]) * 2 + 2);
  near(estimate('G1 X50 F3000\nG4 P500\nG1 X100\n').totalS, planned([[50, 0, 0, 0, 50]]) * 2 + 0.5);
  near(estimate('G1 X50 F3000\nM73 P10 R5\nM117 Hello X9\nM104 S200\nG1 X100\n').totalS, base);
});

test('G10/G11 retract by the firmware settings without changing the file E coordinate', () => {
  const r = estimate('M83\nG1 X10 E1 F600\nG10\nG10\nG1 X20 F600\nG11\nG1 X30 E1\n');
  near(
    r.totalS,
    planned([
      [10, 0, 0, 1, 10],
      [10, 0, 0, 0, 30],
      [20, 0, 0, 0, 10],
      [20, 0, 0, 1.2, 20],
      [30, 0, 0, 2.2, 10],
    ]),
  );
  near(r.filamentMm[0], 2.2);
  const absolute = estimate('M82\nG1 X10 E1 F600\nG10\nG11\nG1 X20 E2\n');
  near(absolute.filamentMm[0], 2.2);
});

test('RepRapFirmware G10 with P or S sets a tool, it does not retract', () => {
  const reprap = machine({ dialect: 'reprap' });
  near(estimate('G10 P0 S200\nG1 X10 F600\n', reprap).totalS, planned([[10, 0, 0, 0, 10]], reprap));
});

test('G28 homes: a move to 0 on the named axes that also clears their G92 offset', () => {
  const r = estimate('G1 X50 Y40 F3000\nG92 X0\nG28 X\nG1 X10 F3000\n');
  near(
    r.totalS,
    planned([
      [50, 40, 0, 0, 50],
      [0, 40, 0, 0, 50],
      [10, 40, 0, 0, 50],
    ]),
  );
  assert.equal(r.moves, 3);
  near(
    estimate('G1 X50 Y40 Z5 F3000\nG28\n').totalS,
    planned([
      [50, 40, 5, 0, 50],
      [0, 0, 0, 0, 50],
    ]),
  );
});

test('arcs follow the circle: G2 and G3 full circles by I/J, a half circle by R', () => {
  const ccw = estimate('G1 X10 Y0 F600\nG92 E0\nG3 X10 Y0 I-10 J0 E6.2832\n');
  const cw = estimate('G1 X10 Y0 F600\nG92 E0\nG2 X10 Y0 I-10 J0 E6.2832\n');
  assert.equal(ccw.moves, 2);
  assert.equal(ccw.extrusions, 1);
  const [minX, minY, , maxX, maxY] = ccw.bounds!;
  // Chords of at most 1 mm stay within 0.02 mm of the circle.
  near(minX, -10, 0.02);
  near(maxX, 10, 1e-9);
  near(minY, -10, 0.02);
  near(maxY, 10, 0.02);
  near(cw.totalS, ccw.totalS, 1e-9);
  const circle = ccw.totalS - planned([[10, 0, 0, 0, 10]]);
  // 62.8 mm at 10 mm/s: the chords between arc points are too gentle to slow down at.
  assert.ok(circle > 0.99 * ((2 * Math.PI * 10) / 10) && circle < 1.01 * ((2 * Math.PI * 10) / 10), `circle took ${circle}`);

  const half = estimate('G1 X0 Y0 F600\nG2 X20 Y0 R10\n');
  const halfByCentre = estimate('G1 X0 Y0 F600\nG2 X20 Y0 I10 J0\n');
  near(half.totalS, halfByCentre.totalS, 1e-9);
  assert.ok(half.totalS > (Math.PI * 10) / 10);
});

test('tool changes count filament per extruder', () => {
  const r = estimate('M83\nT0\nG1 X10 E2 F600\nT1\nG1 X20 E3\nG1 E-1\nT0\nG1 X30 E1\n');
  assert.deepEqual(r.filamentMm, [3, 2]);
});

test('bounds and counts cover extruding moves only', () => {
  const r = estimate('G1 X100 Y100 Z5 F6000\nG1 X10 Y20 Z0.2\nG1 X30 Y20 E1 F1200\nG1 X30 Y40 E2\nG1 E1.5\nG1 X200 Y200\n');
  assert.deepEqual(r.bounds, [10, 20, 0.2, 30, 40, 0.2]);
  assert.equal(r.moves, 6);
  assert.equal(r.extrusions, 2);
  assert.equal(estimate('G1 X10 F600\n').bounds, null);
});

/** Marker times of a reference plan: moves as above, 'mark' entries where a layer should start. */
function plannedMarks(steps: (number[] | 'mark')[]): number[] {
  const p = new MotionPlanner(machine());
  for (const step of steps) {
    if (step === 'mark') p.marker('layer');
    else p.move(step[0], step[1], step[2], step[3], step[4]);
  }
  return p.finish().markers.map((m) => m.timeS);
}

test('layers start at the slicer layer-change comments, first convention only', () => {
  const gcode = [
    ';LAYER_CHANGE',
    '; CHANGE_LAYER',
    'G1 Z0.2 F600',
    'G1 X20 E1',
    ';LAYER_CHANGE',
    'G1 Z0.4',
    'G1 X0 E2',
    ';LAYER_CHANGE',
    'G1 Z0.6',
    'G1 X20 E3',
    '',
  ].join('\n');
  const r = estimate(gcode);
  assert.equal(r.layerSource, 'comments');
  const expected = plannedMarks([
    'mark',
    [0, 0, 0.2, 0, 10],
    [20, 0, 0.2, 1, 10],
    'mark',
    [20, 0, 0.4, 1, 10],
    [0, 0, 0.4, 2, 10],
    'mark',
    [0, 0, 0.6, 2, 10],
    [20, 0, 0.6, 3, 10],
  ]);
  assert.equal(r.layerStartS.length, 3);
  for (const [i, t] of r.layerStartS.entries()) near(t, expected[i]);
  assert.ok(expected[1] > 0 && expected[2] > expected[1]);

  const cura = estimate(';LAYER:0\nG1 Z0.2 X5 E1 F600\n;LAYER:1\nG1 Z0.4 X0 E2\n');
  assert.equal(cura.layerStartS.length, 2);
});

test('without comments, layers start at the Z move that leads to extrusion higher than before', () => {
  const gcode = [
    'G1 Z0.2 F600',
    'G1 X20 E1',
    'G1 Z0.8',
    'G1 X0',
    'G1 Z0.2',
    'G1 X10 E2', // a Z hop is not a layer
    'G1 Z0.4',
    'G1 X0',
    'G1 X20 E3',
    'G1 Z0.6',
    'G1 X0 E4',
    '',
  ].join('\n');
  const r = estimate(gcode);
  assert.equal(r.layerSource, 'z');
  const expected = plannedMarks([
    'mark',
    [0, 0, 0.2, 0, 10],
    [20, 0, 0.2, 1, 10],
    [20, 0, 0.8, 1, 10],
    [0, 0, 0.8, 1, 10],
    [0, 0, 0.2, 1, 10],
    [10, 0, 0.2, 2, 10],
    'mark',
    [10, 0, 0.4, 2, 10],
    [0, 0, 0.4, 2, 10],
    [20, 0, 0.4, 3, 10],
    'mark',
    [20, 0, 0.6, 3, 10],
    [0, 0, 0.6, 4, 10],
  ]);
  assert.equal(r.layerStartS.length, 3);
  for (const [i, t] of r.layerStartS.entries()) near(t, expected[i]);
});

test('layer starts found by Z stay right when the look-ahead is full of layers', () => {
  const lines = ['G1 F3000'];
  for (let layer = 1; layer <= 400; layer++) {
    lines.push(`G1 Z${(layer * 0.2).toFixed(1)}`);
    for (let i = 0; i < 10; i++) lines.push(`G1 X${i % 2 === 0 ? 20 : 0} Y${i} E${layer * 10 + i}`);
  }
  const r = estimate(lines.join('\n'));
  assert.equal(r.layerStartS.length, 400);
  for (let i = 1; i < 400; i++) assert.ok(r.layerStartS[i] > r.layerStartS[i - 1]);
  const perLayer = r.layerStartS[200] - r.layerStartS[199];
  near(r.layerStartS[300] - r.layerStartS[299], perLayer, 1e-6);
});

test('limit commands in the file change the plan', () => {
  const slow = estimate('M204 P500\nG1 X100 E5 F6000\n');
  near(
    slow.totalS,
    planned([[100, 0, 0, 5, 100]], machine(), (p) => p.setAccelerations({ print: 500 })),
  );
  const capped = estimate('M203 X50\nG1 X100 F6000\n');
  near(capped.totalS, planned([[100, 0, 0, 0, 50]]));
  const klipper = machine({ junction: 'klipper', dialect: 'klipper' });
  const k = estimate('SET_VELOCITY_LIMIT ACCEL=500 VELOCITY=80\nG1 X100 F6000\n', klipper);
  near(
    k.totalS,
    planned([[100, 0, 0, 0, 80]], klipper, (p) => p.setAccelerations({ print: 500, travel: 500 })),
  );
});

test('chunk boundaries do not change the result', () => {
  const gcode = 'G21\nG90\nM83\n;LAYER_CHANGE\nG1 Z0.2 F600\nG1 X10.5 Y3.25 E0.5 F1200\nG2 X20 Y3.25 I4.75 J0 E0.4\nG1 E-0.8 F2400\nG1 X0 Y0 F6000\n';
  const whole = estimate(gcode);
  for (const size of [1, 3, 7, 16]) {
    const estimator = new GcodeEstimator(machine(), { firmwareRetraction: RETRACTION });
    for (let i = 0; i < gcode.length; i += size) estimator.feed(gcode.slice(i, i + size));
    assert.deepEqual(estimator.finish(), whole);
  }
});

test('feeding after finish is an error', () => {
  const estimator = new GcodeEstimator(machine());
  estimator.feed('G1 X1\n');
  estimator.finish();
  assert.throws(() => estimator.feed('G1 X2\n'), isAppError);
});
