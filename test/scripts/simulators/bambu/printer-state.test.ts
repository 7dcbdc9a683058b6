import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAms, parseAmsMapping } from '../../../../scripts/simulators/bambu/ams.js';
import { planFromGcode } from '../../../../scripts/simulators/bambu/gcode-plan.js';
import { AMBIENT_C, PrinterState, PrintError, Stage, type NewJob } from '../../../../scripts/simulators/bambu/printer-state.js';
import { bambuGcode } from '../../../fixtures/virtual-bambu.js';

const ids = { subtaskId: '7', taskId: '0', projectId: '0', profileId: '0' };

function job(overrides: Partial<NewJob> = {}): NewJob {
  return {
    name: 'cube',
    file: 'cube.3mf',
    ids,
    plan: planFromGcode(bambuGcode(4, 8)),
    mapping: [2, 0],
    useAms: true,
    prepareSeconds: 5,
    now: 0,
    ...overrides,
  };
}

function runFor(state: PrinterState, seconds: number, step = 1): void {
  for (let t = 0; t < seconds; t += step) state.tick(step);
}

test('heaters heat at a fixed rate and cool toward ambient, never below a set target', () => {
  const state = new PrinterState([], ['chamber_light']);
  state.nozzle.target = 200;
  state.bed.target = 60;
  runFor(state, 10);
  assert.equal(state.nozzle.temp, AMBIENT_C + 50);
  assert.equal(state.bed.temp, AMBIENT_C + 10);
  runFor(state, 60);
  assert.equal(state.nozzle.temp, 200);
  assert.equal(state.bed.temp, 60);
  state.nozzle.target = 150;
  runFor(state, 600);
  assert.ok(state.nozzle.temp >= 150 && state.nozzle.temp < 151);
  state.nozzle.target = 0;
  runFor(state, 2000);
  assert.ok(state.nozzle.temp < AMBIENT_C + 1);
  assert.ok(state.chamber > AMBIENT_C, 'the hot bed warms the chamber');
});

test('a print goes PREPARE → RUNNING, waits for its heaters, follows the plan and ends in FINISH', () => {
  const state = new PrinterState(buildAms('01P00A000000001'), ['chamber_light']);
  state.begin(job());
  assert.equal(state.gcodeState, 'PREPARE');
  assert.equal(state.trayNow, 2, 'filament 0 comes from the tray ams_mapping names');
  runFor(state, 5);
  assert.equal(state.gcodeState, 'RUNNING');
  runFor(state, 2);
  assert.equal(state.stage, Stage.heatingBed, 'M190 holds the print until the bed is warm');
  assert.equal(state.job?.clock, 0);
  runFor(state, 60);
  assert.equal(state.stage, Stage.printing);
  assert.equal(state.reportedRemaining(), 8);
  runFor(state, 250);
  assert.equal(state.gcodeState, 'RUNNING');
  assert.ok((state.job?.percent ?? 0) >= 50 && (state.job?.percent ?? 0) < 100, `${state.job?.percent}`);
  assert.ok((state.job?.layer ?? 0) >= 2);
  assert.equal(state.trayNow, 0, 'T1 switched to the tray of filament 1');
  runFor(state, 300);
  assert.equal(state.gcodeState, 'FINISH');
  assert.deepEqual([state.job?.percent, state.reportedRemaining(), state.job?.layer], [100, 0, 4]);
  assert.deepEqual([state.nozzle.target, state.bed.target], [0, 0]);
});

test('pause freezes progress, resume continues, stop cancels into FAILED and a second stop clears it', () => {
  const state = new PrinterState(buildAms('01P00A000000001'), []);
  state.begin(job({ prepareSeconds: 0 }));
  runFor(state, 120);
  assert.equal(state.pause(), true);
  assert.equal(state.pause(), false, 'already paused');
  const clock = state.job?.clock;
  runFor(state, 100);
  assert.equal(state.job?.clock, clock);
  assert.equal(state.stage, Stage.pausedByUser);
  assert.equal(state.resume(), true);
  runFor(state, 10);
  assert.ok((state.job?.clock ?? 0) > (clock ?? 0));
  assert.equal(state.stop(), true);
  assert.deepEqual([state.gcodeState, state.printError, state.reportedRemaining()], ['FAILED', PrintError.cancelled, 0]);
  assert.equal(state.resume(), false);
  assert.equal(state.stop(), true);
  assert.deepEqual([state.gcodeState, state.printError], ['IDLE', PrintError.none]);
  assert.equal(state.stop(), false, 'nothing to stop');
});

test('speed levels scale the clock and the remaining time', () => {
  const state = new PrinterState([], []);
  state.begin(job({ prepareSeconds: 0, useAms: false }));
  state.nozzle.temp = state.nozzle.target = 220;
  state.bed.temp = state.bed.target = 55;
  runFor(state, 10);
  const at = state.job?.clock ?? 0;
  state.speedLevel = 4;
  runFor(state, 10);
  assert.ok(Math.abs((state.job?.clock ?? 0) - at - 16.6) < 1e-9);
  assert.equal(state.reportedRemaining(), Math.round(8 / 1.66));
  assert.equal(state.trayNow, 254, 'without use_ams the external spool feeds');
});

test('a job without a plan (started on the screen) stays RUNNING without progress', () => {
  const state = new PrinterState([], []);
  state.begin(job({ plan: null, prepareSeconds: 0 }));
  runFor(state, 1000);
  assert.deepEqual([state.gcodeState, state.job?.percent], ['RUNNING', 0]);
});

test('ams_mapping: arrays or comma strings of loaded trays, -1 for the external spool', () => {
  const ams = buildAms('01P00A000000001', { units: 1, trays: [{ type: 'PLA', color: 'FF0000' }, null] });
  assert.deepEqual(parseAmsMapping([0, -1, 2], ams), [0, -1, 2]);
  assert.deepEqual(parseAmsMapping('0,3', ams), [0, 3]);
  assert.deepEqual(parseAmsMapping(undefined, ams), []);
  assert.throws(() => parseAmsMapping([1], ams), /tray 1, which is not loaded/);
  assert.throws(() => parseAmsMapping([4], ams), /tray 4/);
  assert.throws(() => parseAmsMapping({ a: 1 }, ams), /array/);
  assert.throws(() => parseAmsMapping(['x'], ams), /integer/);
  assert.equal(ams[0].trays[0]?.color, 'FF0000FF');
  assert.throws(() => buildAms('01P00A000000001', { trays: [{ type: 'PLA', color: 'red' }] }), /colour/);
  assert.throws(() => buildAms('01P00A000000001', { units: 5 }), /from 0 to 4/);
});
