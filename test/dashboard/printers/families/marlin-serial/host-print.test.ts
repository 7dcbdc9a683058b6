import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PARK_LIFT_MM, PARK_RETRACT_MM } from '../../../../../appliance/dashboard/printers/families/marlin-serial/print-scripts.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../../../fixtures/virtual-marlin.js';
import { driverFor, PRINTER_ID, rejection, type DriverRun } from './driver-harness.js';
import { squares, twoTools } from './gcode-samples.js';

function near(actual: readonly number[], expected: readonly number[], what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (const [tool, mm] of actual.entries()) assert.ok(Math.abs(mm - expected[tool]) < 1e-6, `${what}: tool ${tool} ${mm} ≠ ${expected[tool]}`);
}

/** Waits until the printer has done every move it was given. */
async function settled(vm: VirtualMarlinFixture): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (vm.printer.state().queue.moves > 0 || vm.printer.state().queue.commands > 0) {
    if (Date.now() > deadline) throw new Error('the printer kept moving');
    await sleep(20);
  }
}

describe('host printing on a one-extruder printer', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin();
    run = driverFor(vm);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  test('a short print: stored on the box, streamed without comments, progress, finished when the moves are done', async () => {
    const sample = squares(6, 8, 6000);
    await run.upload('cube.gcode', sample.gcode);
    assert.equal(readFileSync(path.join(run.dataDir, 'printer-files', PRINTER_ID, 'cube.gcode'), 'utf8'), sample.gcode);
    run.clearReceived();
    await run.driver.start('cube.gcode');
    assert.equal(run.driver.status().state, 'printing');
    const busy = await rejection(run.driver.start('cube.gcode'));
    assert.equal(busy.status, 409);
    const jog = await rejection(run.driver.command({ kind: 'action', action: 'jog', params: { x: 5 } }));
    assert.deepEqual([jog.status, jog.code], [409, 'ERR_CONFLICT']);
    const done = await run.events.until('finished', () => run.events.statuses.findLast((s) => s.state === 'finished'));
    assert.deepEqual(
      [done.job?.file, done.job?.progress, done.job?.layer, done.job?.total_layers, done.job?.remaining_s],
      ['cube.gcode', 100, 6, 6, 0],
    );
    assert.equal(vm.printer.state().queue.moves, 0, 'finished only once the printer stopped moving');
    near(vm.printer.state().extruded, sample.extrudedMm, 'pushed by the printer');

    const progress = run.events.progresses.filter((p) => p.file === 'cube.gcode');
    const last = progress.at(-1);
    assert.ok(last);
    assert.equal(last.state, 'finished');
    assert.deepEqual(
      [last.bytes_done, last.bytes_total, last.lines_done, last.lines_total],
      [sample.gcode.length, sample.gcode.length, sample.commands, sample.commands],
    );
    near(last.extruded_mm ?? [], sample.extrudedMm, 'progress extrusion');
    const percents = progress.map((p) => p.progress);
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress never goes back',
    );
    assert.ok(
      progress.some((p) => p.state === 'printing' && p.progress > 0 && p.progress < 100 && p.remaining_s !== null && p.remaining_s > 0),
      'a remaining time while printing',
    );

    const sent = run.received().filter((c) => !/^M10[5]$/.test(c));
    assert.ok(!sent.some((c) => c.includes(';')), 'no comments on the wire');
    assert.deepEqual(sent.slice(0, 4), ['M302 S0', 'G28', 'G90', 'M82']);
    assert.deepEqual(sent.slice(-2), ['M140 S0', 'M400'], 'the file, then M400 to wait for the moves');
    assert.deepEqual(run.driver.state().details.last_print, {
      file: 'cube.gcode',
      result: 'finished',
      at: (run.driver.state().details.last_print as { at: string }).at,
    });
  });

  test('pause parks the head and keeps the heaters on; resume goes back and the print finishes', async () => {
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'tool0', target: 150 } });
    const sample = squares(10, 8, 6000);
    await run.upload('pause.gcode', sample.gcode);
    const extrudedBefore = vm.printer.state().extruded[0];
    await run.driver.start('pause.gcode');
    await run.events.until('a fifth printed', () => (run.driver.status().job?.progress ?? 0) >= 20);
    await run.driver.pause();
    assert.equal(run.driver.status().state, 'paused');
    await settled(vm);
    const parked = vm.printer.state();
    assert.deepEqual([parked.position.X, parked.position.Y], [0, 0], 'parked at X0 Y0');
    const layerZ = parked.position.Z - PARK_LIFT_MM;
    assert.ok(
      layerZ > 0 && Math.abs(layerZ / 0.2 - Math.round(layerZ / 0.2)) < 1e-6,
      `lifted ${PARK_LIFT_MM} mm above a layer: Z ${parked.position.Z}`,
    );
    assert.equal(parked.hotends[0].target, 150, 'heaters stay on');
    const line = parked.lastLineNumber;
    await sleep(300);
    assert.equal(vm.printer.state().lastLineNumber, line, 'nothing is sent while paused');
    assert.ok(run.events.progresses.some((p) => p.file === 'pause.gcode' && p.state === 'paused'));
    const again = await rejection(run.driver.pause());
    assert.equal(again.status, 409);

    await run.driver.resume();
    assert.equal(run.driver.status().state, 'printing');
    await run.events.until('finished', () => run.driver.status().state === 'finished' && run.driver.status().job?.file === 'pause.gcode');
    const end = vm.printer.state();
    assert.ok(
      Math.abs(end.extruded[0] - extrudedBefore - sample.extrudedMm[0]) < 1e-6,
      `the park's ${PARK_RETRACT_MM} mm retraction was pushed back`,
    );
    assert.deepEqual([end.position.X, end.position.Y], [20, 60], 'the print went on from where it was');
  });

  test('a pause the printer asks for (//action:pause) pauses the stream; resume finishes it', async () => {
    const lines = squares(2).gcode.split('\n');
    lines.splice(lines.indexOf(';LAYER_CHANGE', 12), 0, 'M118 A1 action:pause');
    await run.upload('asked.gcode', lines.join('\n'));
    run.clearReceived();
    await run.driver.start('asked.gcode');
    await run.events.until('paused by the printer', () => run.driver.status().state === 'paused');
    await run.events.until('parked', () => run.received().includes('G1 X0 Y0 F6000'));
    await run.driver.resume();
    await run.events.until('finished', () => run.driver.status().state === 'finished' && run.driver.status().job?.file === 'asked.gcode');
  });

  test('stop: the stream ends, the head parks, heaters, fan and motors go off, the printer is idle', async () => {
    await run.driver.command({ kind: 'gcode', lines: ['M104 S150', 'M140 S50'] });
    await run.upload('stop.gcode', squares(20).gcode);
    await run.driver.start('stop.gcode');
    await run.events.until('printing a while', () => (run.driver.status().job?.progress ?? 0) >= 10);
    await run.driver.stop();
    const status = run.driver.status();
    assert.deepEqual([status.state, status.job], ['idle', null]);
    assert.equal(run.events.progresses.at(-1)?.state, 'cancelled');
    const state = vm.printer.state();
    assert.deepEqual([state.hotends[0].target, state.bed.target, state.fans[0]], [0, 0, 0]);
    assert.deepEqual((run.driver.state().details.last_print as { result: string }).result, 'cancelled');
    const tail = run.received().slice(-10);
    assert.deepEqual(tail.slice(-4), ['M104 T0 S0', 'M140 S0', 'M107', 'M84']);
    assert.ok(tail.includes('G1 X0 Y0 F6000'), 'parked before');
    const line = vm.printer.state().lastLineNumber;
    await sleep(300);
    assert.equal(vm.printer.state().lastLineNumber, line, 'no print line after the stop');
    for (const control of [() => run.driver.pause(), () => run.driver.resume(), () => run.driver.stop()]) {
      const err = await rejection(control());
      assert.deepEqual([err.status, err.code], [409, 'ERR_CONFLICT']);
    }
  });

  test('stop during a heat-up: M108 ends the wait at once', async () => {
    // The bed needs over 10 s (at 20 times the speed of life) to reach 100 °C.
    await run.upload('hot.gcode', 'M140 S100\nM190 S100\nG28\nG1 X50 Y50 F3000\n');
    run.clearReceived();
    await run.driver.start('hot.gcode');
    await run.events.until('waiting for the bed', () => run.received().includes('M190 S100'));
    const started = Date.now();
    await run.driver.stop();
    assert.ok(Date.now() - started < 3_000, 'not after the heat-up');
    assert.ok(run.received().includes('M108'));
    assert.equal(vm.printer.state().bed.target, 0);
    assert.equal(run.driver.status().state, 'idle');
    assert.ok(!run.received().includes('G1 X50 Y50 F3000'), 'the rest of the file never went out');
  });
});

describe('host printing on a two-extruder printer', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin({ firmware: { extruders: 2 } });
    run = driverFor(vm);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  test('filament per tool follows E positions: G92 resets, M82/M83, G91, G10/G11 ignored, tool changes', async () => {
    const sample = twoTools();
    await run.upload('tools.gcode', sample.gcode);
    await run.driver.start('tools.gcode');
    await run.events.until('finished', () => run.driver.status().state === 'finished');
    near(run.events.progresses.at(-1)?.extruded_mm ?? [], sample.extrudedMm, 'progress');
    near(run.driver.state().details.extruded_mm as number[], sample.extrudedMm, '/state details');
    near(vm.printer.state().extruded, sample.extrudedMm, 'what the printer pushed');
    assert.equal(run.driver.state().details.active_tool, 0);
  });

  test('tool change and the second hotend are offered; a third is not there', async () => {
    assert.ok(run.driver.capabilities.actions?.includes('tool_change'));
    await run.driver.command({ kind: 'action', action: 'tool_change', params: { tool: 1 } });
    assert.equal(vm.printer.state().activeTool, 1);
    assert.equal(run.driver.state().details.active_tool, 1);
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'tool1', target: 120 } });
    assert.equal(vm.printer.state().hotends[1].target, 120);
    await run.events.until('tool1 in the status', () => run.driver.status().temperatures.tool1?.target === 120);
    const third = await rejection(run.driver.command({ kind: 'action', action: 'tool_change', params: { tool: 2 } }));
    assert.deepEqual([third.status, third.code], [422, 'ERR_UNSUPPORTED_ACTION']);
    await run.driver.command({ kind: 'gcode', lines: ['M104 T1 S0', 'T0'] });
  });
});
