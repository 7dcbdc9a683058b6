import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planFromGcode, type PlanEvent } from '../../../../scripts/simulators/bambu/gcode-plan.js';
import { bambuGcode } from '../../../fixtures/virtual-bambu.js';

const layersOf = (events: PlanEvent[]) => events.filter((e) => e.layer !== undefined).map((e) => e.layer);

test('Bambu G-code: the clock follows M73 R, progress and layers come from M73 P / M73 L', () => {
  const plan = planFromGcode(bambuGcode(4, 8));
  assert.equal(plan.totalLayers, 4);
  assert.equal(plan.durationSec, 8 * 60);
  assert.equal(plan.progressFromFile, true);
  assert.equal(plan.remainingFromFile, true);
  assert.deepEqual(layersOf(plan.events), [1, 2, 3, 4], 'M73 L is preferred over the comments, each layer counted once');
  const progress = plan.events.filter((e) => e.percent !== undefined).map((e) => [e.percent, e.remainingMin, e.at]);
  assert.deepEqual(progress, [
    [0, 8, 0],
    [25, 6, 120],
    [50, 4, 240],
    [75, 2, 360],
    [100, 0, 480],
  ]);
  const layer3 = plan.events.find((e) => e.layer === 3) as PlanEvent;
  assert.equal(layer3.at, 240, 'layer 3 starts right after the M73 P50 line, with no motion between');
  const lastTarget = plan.events.at(-1) as PlanEvent;
  assert.deepEqual([lastTarget.partFan, lastTarget.at], [0, 480], 'the cool-down after the last M73 comes at the end');
  const times = plan.events.map((e) => e.at);
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    'events are in time order',
  );
});

test('heater targets, heating waits, tool changes and the part fan become events', () => {
  const plan = planFromGcode(bambuGcode(4, 8));
  const heat = plan.events.filter((e) => e.nozzleTarget !== undefined || e.bedTarget !== undefined);
  assert.deepEqual(
    heat.map(({ at: _at, ...e }) => e),
    [
      { bedTarget: 55, waitBed: false },
      { nozzleTarget: 220, waitNozzle: false },
      { bedTarget: 55, waitBed: true },
      { nozzleTarget: 220, waitNozzle: true },
      { nozzleTarget: 0, waitNozzle: false },
      { bedTarget: 0, waitBed: false },
    ],
  );
  const tool = plan.events.find((e) => e.tool !== undefined) as PlanEvent;
  assert.equal(tool.tool, 1);
  assert.ok(tool.at >= 240, 'the tool change comes with the third layer');
  assert.deepEqual(
    plan.events.filter((e) => e.partFan !== undefined).map((e) => e.partFan),
    [0],
  );
});

test('without M73, time comes from feed rates and dwells, layers from ;LAYER_CHANGE', () => {
  const gcode = [
    ';LAYER_CHANGE',
    'G1 Z0.2 F600',
    'G1 X60 F6000',
    'G1 Y80', // 0.2 mm at 10 mm/s, then 60 and 80 mm at 100 mm/s
    'G4 P500',
    'G4 S2',
    ';LAYER_CHANGE',
    'G91',
    'G1 Z0.2',
    'G1 X-60 E2 F1200', // relative: 0.2 mm at 100 mm/s, 60 mm at 20 mm/s
  ].join('\n');
  const plan = planFromGcode(gcode);
  assert.equal(plan.progressFromFile, false);
  assert.equal(plan.remainingFromFile, false);
  assert.equal(plan.totalLayers, 2);
  const [first, second] = plan.events.filter((e) => e.layer !== undefined);
  assert.equal(first.at, 0);
  const expected = 0.2 / 10 + 60 / 100 + 80 / 100 + 0.5 + 2;
  assert.ok(Math.abs(second.at - expected) < 1e-9, `second layer at ${second.at}, expected ${expected}`);
  assert.ok(Math.abs(plan.durationSec - (expected + 0.2 / 100 + 60 / 20)) < 1e-9, `duration ${plan.durationSec}`);
});

test('arcs take their arc length, homing and bed levelling a fixed time', () => {
  // A half circle of radius 10 from (10,0) to (-10,0) around the origin: 31.4 mm at 10 mm/s.
  const arc = planFromGcode('G1 X10 Y0 F600\nG3 X-10 Y0 I-10 J0 F600\n');
  assert.ok(Math.abs(arc.durationSec - (1 + Math.PI)) < 1e-6, `${arc.durationSec}`);
  const homing = planFromGcode('G28\nG29\n');
  assert.equal(homing.durationSec, 100);
});

test('Cura layers are 0-based, the header gives the total, and a file with no layers reports none', () => {
  const cura = planFromGcode(';LAYER_COUNT:3\n;LAYER:0\nG1 Z0.2\n;LAYER:1\nG1 Z0.4\n;LAYER:2\nG1 Z0.6\n');
  assert.deepEqual(layersOf(cura.events), [1, 2, 3]);
  assert.equal(cura.totalLayers, 3);
  const bare = planFromGcode('M104 S200\n');
  assert.equal(bare.totalLayers, 0);
  assert.equal(bare.durationSec, 1, 'a file with no motion still takes a moment');
});

test('data that is not G-code is refused', () => {
  assert.throws(() => planFromGcode(new Uint8Array(2 * 1024 * 1024).fill(65)), /not G-code/);
});
