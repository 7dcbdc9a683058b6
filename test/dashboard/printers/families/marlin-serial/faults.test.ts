/**
 * The driver against the virtual Marlin's faults: damaged and lost lines, a busy firmware,
 * errors, a halt, a printer that stops answering, and a cable pulled during a print. The
 * simulator runs at 4 times the speed of life with a busy keepalive every second, so a busy
 * command lasts longer than the driver's line timeout while its keepalive lines come well within.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUSY_FAULT_MS } from '../../../../../scripts/simulators/marlin/firmware.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../../../fixtures/virtual-marlin.js';
import { driverFor, rejection, TEST_TIMINGS, type DriverRun } from './driver-harness.js';
import { squares } from './gcode-samples.js';

const SPEED = 4;

describe('faults on the wire', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin({ speed: SPEED, firmware: { keepaliveSeconds: 1 } });
    run = driverFor(vm);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  const resends = () => run.driver.state().details.resends as number;

  test('a forced resend: the line goes again and runs once', async () => {
    await run.driver.command({ kind: 'gcode', lines: ['G28', 'G92 E0', 'M83'] });
    const before = resends();
    run.clearReceived();
    vm.injectFault('resend');
    const answer = await run.driver.command({ kind: 'gcode', lines: ['G1 X10 F6000', 'M114'] });
    assert.match(answer.lines.at(-1) ?? '', /^X:10\.00 Y:0\.00/);
    assert.equal(resends(), before + 1);
    assert.deepEqual(
      run.received().filter((c) => c.startsWith('G1')),
      ['G1 X10 F6000', 'G1 X10 F6000'],
    );
  });

  test('a checksum error: the line goes again; no printer error is reported', async () => {
    const errors = run.events.errors.length;
    const before = resends();
    vm.injectFault('checksum');
    await run.driver.command({ kind: 'gcode', lines: ['G1 E2 F600'] });
    await run.driver.command({ kind: 'gcode', lines: ['M400'] });
    assert.equal(vm.printer.state().position.E, 2, 'extruded once');
    assert.equal(resends(), before + 1);
    assert.equal(run.events.errors.length, errors);
    assert.equal(run.driver.state().details.last_error, null);
    assert.ok(run.events.logs.some((l) => l.direction === 'info' && /refused a damaged line: Error:checksum mismatch/.test(l.line)));
  });

  test('a dropped line: a probe after the line timeout reveals it, it goes again and runs once', async () => {
    run.clearReceived();
    vm.injectFault('drop');
    const started = Date.now();
    await run.driver.command({ kind: 'gcode', lines: ['G1 X30 F6000'] });
    assert.ok(Date.now() - started >= TEST_TIMINGS.lineTimeoutMs - 50, 'answered after the timeout');
    // The probe went again right behind the line; it may reach the printer after the line's ok.
    await run.events.until('the probe sent again', () => run.received().length >= 4);
    assert.deepEqual(run.received(), ['G1 X30 F6000', 'M105', 'G1 X30 F6000', 'M105']);
    const answer = await run.driver.command({ kind: 'gcode', lines: ['M114'] });
    assert.match(answer.lines[0], /^X:30\.00/);
  });

  test('busy: keepalive lines hold a slow command without probes', async () => {
    run.clearReceived();
    vm.injectFault('busy');
    const started = Date.now();
    await run.driver.command({ kind: 'gcode', lines: ['M400'] });
    const took = Date.now() - started;
    assert.ok(took >= BUSY_FAULT_MS / SPEED - 100 && took > TEST_TIMINGS.lineTimeoutMs, `it took ${took} ms`);
    assert.deepEqual(run.received(), ['M400'], 'no probe');
    assert.ok(run.events.logs.some((l) => l.line === 'echo:busy: processing'));
  });

  test('Error: from the printer is reported with the answer; the printer goes on', async () => {
    const errors = run.events.errors.length;
    const answer = await run.driver.command({ kind: 'gcode', lines: ['G2 X10 Y10'] });
    assert.deepEqual(answer.lines, ['Error:G2/G3 bad parameters']);
    assert.equal(run.events.errors.length, errors + 1);
    assert.match(run.events.errors.at(-1)?.message ?? '', /G2\/G3 bad parameters/);
    assert.equal(run.driver.state().details.last_error, 'G2/G3 bad parameters');
    assert.equal(run.driver.status().state, 'idle');
  });

  test('random damaged and lost lines do not change what is printed', async () => {
    const sample = squares(3, 8, 12000);
    await run.upload('noisy.gcode', sample.gcode);
    const extruded = vm.printer.state().extruded[0];
    const before = resends();
    vm.setFaults({ resend: 0.05, checksum: 0.05, drop: 0.02 });
    try {
      await run.driver.start('noisy.gcode');
      await run.events.until('finished', () => run.driver.status().state === 'finished', 30_000);
    } finally {
      vm.setFaults({ resend: 0, checksum: 0, drop: 0 });
    }
    assert.ok(resends() > before, 'faults struck');
    const last = run.events.progresses.at(-1);
    assert.deepEqual([last?.state, last?.lines_done], ['finished', sample.commands]);
    assert.ok(Math.abs(vm.printer.state().extruded[0] - extruded - sample.extrudedMm[0]) < 1e-6, 'every extrusion ran once');
  });

  test('M112: the printer halts; commands are refused until a reconnect resets it', async () => {
    const halted = await rejection(run.driver.command({ kind: 'gcode', lines: ['M112'] }));
    assert.deepEqual([halted.status, halted.code], [409, 'ERR_CONFLICT']);
    assert.match(halted.message, /halted/);
    const status = run.driver.status();
    assert.deepEqual([status.state, status.online], ['error', true]);
    assert.match(status.error ?? '', /kill\(\) called/);
    const refused = await rejection(run.driver.command({ kind: 'action', action: 'home', params: {} }));
    assert.equal(refused.status, 409);
    await run.driver.disconnect();
    await vm.hostReady();
    await run.driver.connect();
    assert.deepEqual([run.driver.status().state, run.driver.status().error], ['finished', null], 'the fault is gone; the last print shows as before');
    await run.driver.command({ kind: 'action', action: 'home', params: {} });
  });
});

describe('losing the printer', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin({ speed: SPEED });
    run = driverFor(vm);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  test('cable pulled during a print: offline, the print interrupted, not resumed once the cable is back', async () => {
    await run.upload('long.gcode', squares(30, 8, 6000).gcode);
    await run.driver.start('long.gcode');
    await run.events.until('printing a while', () => (run.driver.status().job?.progress ?? 0) >= 5);
    await vm.pullCable();
    const lost = await run.events.until('disconnected', () => run.events.disconnects.at(-1));
    assert.equal(lost.retry, true);
    assert.match(lost.message, /serial port closed/);
    assert.equal(run.driver.status().state, 'offline');
    assert.match(
      run.events.errors.at(-1)?.message ?? '',
      /print of long\.gcode was interrupted at [\d.]+ % \(line \d+ of \d+\).*will not be resumed/,
    );
    const interrupted = run.events.progresses.at(-1);
    assert.equal(interrupted?.state, 'interrupted');
    const reconnect = run.reconnect();
    await sleep(300);
    await vm.plugCable();
    run.clearReceived();
    await reconnect;

    const status = run.driver.status();
    assert.deepEqual([status.online, status.state, status.job?.file, status.job?.progress], [true, 'error', 'long.gcode', interrupted?.progress]);
    assert.match(status.error ?? '', /interrupted/);
    await sleep(300);
    assert.ok(!run.received().some((c) => c.startsWith('G1')), `nothing of the print after the reconnect: ${run.received().join(', ')}`);
    for (const control of [() => run.driver.pause(), () => run.driver.resume()]) assert.equal((await rejection(control())).status, 409);

    await run.driver.stop();
    assert.deepEqual(run.received().slice(-4), ['M104 T0 S0', 'M140 S0', 'M107', 'M84'], 'heaters, fan, motors off; no park');
    assert.deepEqual([run.driver.status().state, run.driver.status().job], ['idle', null]);
    assert.equal((run.driver.state().details.last_print as { result: string }).result, 'interrupted');
  });

  test('a printer that takes no more lines is given up after the probes, and reported lost', async () => {
    await run.driver.disconnect();
    await vm.hostReady();
    const quick = driverFor(vm, { lineTimeoutMs: 300, maxProbes: 1 });
    try {
      await quick.driver.connect();
      vm.setFaults({ drop: 1 });
      const failed = await rejection(quick.driver.command({ kind: 'gcode', lines: ['M114'] }));
      assert.deepEqual([failed.status, failed.code], [503, 'ERR_UNAVAILABLE']);
      const lost = await quick.events.until('disconnected', () => quick.events.disconnects.at(-1));
      assert.equal(lost.retry, true);
      assert.match(lost.message, /answered neither line \d+ \(M114\) nor the 1 probe sent after it/);
    } finally {
      vm.setFaults({ drop: 0 });
      await quick.stop();
    }
  });
});
