import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimClock } from '../../../../scripts/simulators/marlin/clock.js';
import { BED_MODEL, Heater, HOTEND_MODEL } from '../../../../scripts/simulators/marlin/heater.js';

/** A clock whose time only moves when the test says so. */
function manualClock() {
  let now = 0;
  return {
    clock: new SimClock(1, () => now),
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
  };
}

test('a hotend heats at full power, then settles on its target without overshooting', () => {
  const { clock, advance } = manualClock();
  const hotend = new Heater(HOTEND_MODEL, clock);
  assert.equal(hotend.current, HOTEND_MODEL.ambient);
  assert.equal(hotend.power, 0);
  hotend.setTarget(200);
  advance(20);
  assert.ok(hotend.current > 80 && hotend.current < 200, `half way: ${hotend.current}`);
  assert.equal(hotend.power, 1);
  let highest = 0;
  for (let s = 0; s < 100; s++) {
    advance(1);
    highest = Math.max(highest, hotend.current);
  }
  assert.ok(Math.abs(hotend.current - 200) < 0.5, `settled: ${hotend.current}`);
  assert.ok(highest < 200.5, `no overshoot: ${highest}`);
  assert.ok(hotend.power > 0 && hotend.power < 1, `holding power: ${hotend.power}`);
});

test('a heater switched off cools towards the room', () => {
  const { clock, advance } = manualClock();
  const hotend = new Heater(HOTEND_MODEL, clock, 210);
  advance(60);
  const after60 = hotend.current;
  assert.ok(after60 < 210 && after60 > 40);
  advance(600);
  assert.ok(hotend.current < 30, `near room temperature: ${hotend.current}`);
});

test('targets are clamped like Marlin does', () => {
  const { clock } = manualClock();
  const hotend = new Heater(HOTEND_MODEL, clock);
  hotend.setTarget(400);
  assert.equal(hotend.target, HOTEND_MODEL.maxTarget);
  hotend.setTarget(-5);
  assert.equal(hotend.target, 0);
});

test('the bed is slower than the hotend', () => {
  const { clock, advance } = manualClock();
  const hotend = new Heater(HOTEND_MODEL, clock);
  const bed = new Heater(BED_MODEL, clock);
  hotend.setTarget(100);
  bed.setTarget(100);
  advance(15);
  assert.ok(bed.current - BED_MODEL.ambient < hotend.current - HOTEND_MODEL.ambient);
});

test('with thermistor noise the readings jitter around the model, which stays exact', async () => {
  const { seededRandom } = await import('../../../../scripts/simulators/marlin/faults.js');
  const { thermistorNoise } = await import('../../../../scripts/simulators/marlin/heater.js');
  const { temperatureReport } = await import('../../../../scripts/simulators/marlin/reports.js');
  const { clock } = manualClock();
  const noisy = new Heater(HOTEND_MODEL, clock, undefined, thermistorNoise(0.25, seededRandom(7)));
  const bed = new Heater(BED_MODEL, clock);
  const readings = Array.from({ length: 50 }, () => noisy.reading);
  assert.equal(noisy.current, HOTEND_MODEL.ambient);
  assert.ok(
    readings.every((r) => Math.abs(r - HOTEND_MODEL.ambient) <= 0.25),
    `within ±0.25: ${readings}`,
  );
  assert.ok(new Set(readings.map((r) => r.toFixed(2))).size > 10, 'the readings differ');
  assert.equal(bed.reading, BED_MODEL.ambient, 'no noise unless asked for');
  const lines = new Set(Array.from({ length: 5 }, () => temperatureReport({ hotends: [noisy], bed }, 0)));
  assert.ok(lines.size > 1, 'reports show the readings');
  for (const line of lines) assert.match(line, /^ T:2[45]\.\d\d \/0\.00 B:25\.00 \/0\.00 @:0 B@:0$/);
});
