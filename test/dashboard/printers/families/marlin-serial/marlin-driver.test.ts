import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../../../fixtures/virtual-marlin.js';
import { driverFor, rejection, type DriverRun } from './driver-harness.js';

describe('a Marlin printer with auto-reports', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin();
    run = driverFor(vm);
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  test('connects: line numbers reset, M115 read, auto-reports asked for; identity and capabilities', async () => {
    await run.driver.connect();
    const received = run.received();
    const m115 = received.indexOf('M115');
    assert.ok(
      m115 > 0 && received.slice(0, m115).every((c) => c === 'M110 N0'),
      `M110 N0 (repeated while the board boots) first: ${received.join(', ')}`,
    );
    assert.deepEqual(received.slice(m115), ['M115', 'M155 S2', 'M27 S2', 'M105', 'M27']);
    assert.deepEqual(run.events.identities.at(-1), {
      vendor: null,
      model: 'Printyard Virtual Marlin',
      firmware: 'Marlin 2.1.2.1 (Jul 20 2023 11:02:55)',
    });
    const status = run.driver.status();
    assert.deepEqual([status.online, status.state, status.job, status.error], [true, 'idle', null, null]);
    assert.equal(status.temperatures.tool0.target, 0);
    assert.ok(status.temperatures.bed.actual > 15);
    const { details } = run.driver.state();
    assert.equal(details.firmware, 'Marlin 2.1.2.1 (Jul 20 2023 11:02:55)');
    assert.equal(details.extruder_count, 1);
    assert.deepEqual(details.auto_report, { temperature: true, sd_status: true });
    assert.equal((details.capabilities as Record<string, boolean>).EMERGENCY_PARSER, true);
    assert.deepEqual(details.extruded_mm, [0]);
    assert.deepEqual(run.driver.capabilities, {
      upload: true,
      ams: false,
      camera: false,
      gcode_console: true,
      actions: ['home', 'jog', 'temperature', 'fan', 'speed', 'load_filament', 'unload_filament'],
    });
  });

  test('temperatures arrive by auto-report: a target set shows, and the heater warms up', async () => {
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'bed', target: 60 } });
    const warm = await run.events.until('bed warming', () =>
      run.events.statuses.findLast((s) => s.temperatures.bed?.target === 60 && s.temperatures.bed.actual > 30),
    );
    assert.equal(warm.state, 'idle');
    assert.equal(vm.printer.state().bed.target, 60);
    const polls = run.received().filter((c) => c === 'M105').length;
    assert.ok(polls <= 1, `no M105 polls while the printer reports by itself (${polls})`);
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'bed', target: 0 } });
  });

  test('G-code lines: the answer up to ok, in order; console lines are checked', async () => {
    const m105 = await run.driver.command({ kind: 'gcode', lines: ['M105'] });
    assert.match(m105.lines[0], /^ok T:\d+\.\d+ \/0\.00 B:/);
    const m115 = await run.driver.command({ kind: 'gcode', lines: ['M115', 'M114 ; where is it?'] });
    assert.match(m115.lines[0], /^FIRMWARE_NAME:Marlin/);
    assert.ok(m115.lines.includes('Cap:AUTOREPORT_TEMP:1'));
    assert.match(m115.lines.at(-1) ?? '', /^X:0\.00 Y:0\.00 Z:0\.00 E:0\.00 Count/);
    const unknown = await run.driver.command({ kind: 'gcode', lines: ['M9999'] });
    assert.deepEqual(unknown.lines, ['echo:Unknown command: "M9999"']);
    for (const lines of [['; only a comment'], ['M110 N5'], ['G28\nG1 X5']]) {
      const refused = await rejection(run.driver.command({ kind: 'gcode', lines }));
      assert.deepEqual([refused.status, refused.code], [400, 'ERR_VALIDATION'], JSON.stringify(lines));
    }
  });

  test('actions: home, jog, fan, speed change the printer', async () => {
    const act = (action: string, params: Record<string, unknown>) => run.driver.command({ kind: 'action', action, params });
    await act('home', {});
    assert.deepEqual(vm.printer.state().homed, { X: true, Y: true, Z: true });
    await act('jog', { x: 12.5, z: 3 });
    await act('jog', { y: -1000 });
    await run.driver.command({ kind: 'gcode', lines: ['M400'] });
    const { position } = vm.printer.state();
    assert.deepEqual([position.X, position.Y, position.Z], [12.5, 0, 3], 'relative moves, clamped by the soft endstops');
    await act('fan', { fan: 'part', percent: 50 });
    assert.equal(vm.printer.state().fans[0], 128);
    await run.events.until('part fan in the status', () => run.driver.status().fans.part === 50);
    await act('fan', { fan: 'part', percent: 0 });
    assert.equal(vm.printer.state().fans[0], 0);
    await act('speed', { percent: 150 });
    assert.equal(vm.printer.state().feedratePercent, 150);
    await act('temperature', { heater: 'tool0', target: 180 });
    assert.equal(vm.printer.state().hotends[0].target, 180);
    await act('temperature', { heater: 'tool0', target: 0 });
  });

  test('actions the printer lacks are 422; bad parameters 400', async () => {
    const refused = async (action: string, params: Record<string, unknown>, status: number, pattern?: RegExp) => {
      const err = await rejection(run.driver.command({ kind: 'action', action, params }));
      assert.equal(err.status, status, `${action} ${JSON.stringify(params)}: ${err.message}`);
      if (pattern) assert.match(err.message, pattern);
    };
    await refused('light', { on: true }, 422, /does not offer "light"/);
    await refused('tool_change', { tool: 1 }, 422, /does not offer "tool_change"/);
    await refused('temperature', { heater: 'tool1', target: 200 }, 422, /1 extruder/);
    await refused('temperature', { heater: 'chamber', target: 40 }, 422, /chamber/);
    await refused('fan', { fan: 'aux', percent: 10 }, 422);
    await refused('speed', { level: 'sport' }, 422, /percentage/);
    await refused('jog', { feedrate: 100 }, 400);
    await refused('teleport', {}, 422);
  });

  test('filament load is offered until the firmware says it has no M701; then refused without asking', async () => {
    const first = await rejection(run.driver.command({ kind: 'action', action: 'load_filament', params: { tool: 0 } }));
    assert.deepEqual([first.status, first.code], [422, 'ERR_UNSUPPORTED_ACTION']);
    assert.match(first.message, /no M701/);
    assert.ok(run.received().includes('M701 T0'));
    assert.equal(run.driver.state().details.filament_load_unload, false);
    assert.deepEqual(run.driver.capabilities.actions, ['home', 'jog', 'temperature', 'fan', 'speed']);
    run.clearReceived();
    const again = await rejection(run.driver.command({ kind: 'action', action: 'unload_filament', params: {} }));
    assert.equal(again.status, 422);
    assert.ok(!run.received().some((c) => c.startsWith('M702')), 'nothing sent the second time');
  });

  test('upload: names are checked; a start of a file never uploaded is 404', async () => {
    for (const name of ['../escape.gcode', 'sub/dir.gcode', '.hidden.gcode', 'notes.txt', '']) {
      const err = await rejection(run.upload(name, 'G28\n'));
      assert.equal(err.status, 400, name);
    }
    const missing = await rejection(run.driver.start('never.gcode'));
    assert.deepEqual([missing.status, missing.code], [404, 'ERR_NOT_FOUND']);
  });

  test('disconnect: commands are 503 until connected again', async () => {
    await run.driver.disconnect();
    assert.equal(run.driver.status().state, 'offline');
    const err = await rejection(run.driver.command({ kind: 'gcode', lines: ['M105'] }));
    assert.deepEqual([err.status, err.code], [503, 'ERR_UNAVAILABLE']);
    assert.deepEqual(run.driver.capabilities.actions, ['home', 'jog', 'temperature', 'fan', 'speed'], 'known while offline');
    await vm.hostReady();
    await run.driver.connect();
    assert.equal(run.driver.status().state, 'idle');
  });
});

describe('a Marlin printer without auto-reports', () => {
  let vm: VirtualMarlinFixture;
  let run: DriverRun;

  before(async () => {
    vm = await startVirtualMarlin();
    vm.setAutoReport(false);
    run = driverFor(vm);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vm.stop();
  });

  test('temperatures and the SD status are polled (M105, M27)', async () => {
    assert.deepEqual(run.driver.state().details.auto_report, { temperature: false, sd_status: false });
    assert.ok(!run.received().some((c) => c.startsWith('M155')), 'no M155 without Cap:AUTOREPORT_TEMP');
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'tool0', target: 100 } });
    await run.events.until('nozzle warming', () => (run.driver.status().temperatures.tool0?.actual ?? 0) > 40);
    await run.events.until('three polls of each', () => ['M105', 'M27'].every((poll) => run.received().filter((c) => c === poll).length >= 3));
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'tool0', target: 0 } });
  });

  test('an SD print started on the printer is followed by polling, named, and stopped with M524', async () => {
    vm.printer.putSdFile('benchy.gco', `M302 S0\nG28\n${'G1 X100 Y100 F6000\nG1 X0 Y0\n'.repeat(200)}`);
    await run.driver.command({ kind: 'gcode', lines: ['M23 BENCHY.GCO', 'M24'] });
    const printing = await run.events.until('SD print seen', () =>
      run.events.statuses.findLast((s) => s.state === 'printing' && s.job?.file === 'benchy.gco'),
    );
    assert.ok(printing.job && printing.job.progress >= 0 && printing.job.progress < 100);
    const conflict = await rejection(run.driver.command({ kind: 'action', action: 'home', params: {} }));
    assert.equal(conflict.status, 409);
    await run.driver.pause();
    assert.equal(run.driver.status().state, 'paused');
    assert.equal(vm.printer.state().sd.print?.printing, false);
    await run.driver.resume();
    assert.equal(vm.printer.state().sd.print?.printing, true);
    await run.driver.stop();
    assert.equal(vm.printer.state().sd.print, null);
    await run.events.until('idle', () => run.driver.status().state === 'idle');
  });
});
