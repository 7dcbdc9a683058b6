import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { PermanentConnectError, type UploadProgress } from '../../../../../appliance/dashboard/printers/driver.js';
import { startVirtualBambu, type VirtualBambu } from '../../../../fixtures/virtual-bambu.js';
import { driverFor, type DriverRun } from './driver-harness.js';
import { project, TWO_FILAMENTS } from './project-file.js';
import { rejection } from '../../../../fixtures/rejection.js';

type Request = { message: unknown; outcome: string };

/** Requests the virtual printer read from now on, as `class.command`. */
function recordRequests(vb: VirtualBambu): { commands: string[]; stop(): void } {
  const commands: string[] = [];
  const onRequest = (r: Request) => {
    const [kind, body] = Object.entries(r.message as Record<string, { command?: string }>)[0] ?? [];
    commands.push(`${kind}.${body?.command}`);
  };
  vb.printer.on('request', onRequest);
  return { commands, stop: () => vb.printer.off('request', onRequest) };
}

async function printing(run: DriverRun, vb: VirtualBambu, name: string, minutes = 30): Promise<void> {
  await run.driver.upload({ stream: streamOf(project(TWO_FILAMENTS, 6, minutes)) }, name);
  await run.driver.start(name);
  await run.events.until('printing', () => run.driver.status().state === 'printing');
  assert.equal(vb.printer.state.gcodeState, 'RUNNING');
}

function streamOf(bytes: Uint8Array): Readable {
  return Readable.from([Buffer.from(bytes)]);
}

describe('a P1S (delta pushes)', () => {
  let vb: VirtualBambu;
  let run: DriverRun;

  before(async () => {
    vb = await startVirtualBambu({ model: 'P1S' });
    run = driverFor(vb);
  });

  after(async () => {
    await run.stop();
    await vb.stop();
  });

  test('connects over TLS verified with the CA and the serial as SNI, asks get_version and pushall, publishes only requests', async () => {
    const requests = recordRequests(vb);
    await run.driver.connect();
    requests.stop();
    assert.deepEqual(requests.commands.slice(0, 2), ['info.get_version', 'pushing.pushall']);
    const status = run.driver.status();
    assert.deepEqual([status.online, status.state, status.error], [true, 'idle', null]);
    assert.equal(status.temperatures.tool0.target, 0);
    await run.events.until('identity', () => run.events.identities.at(-1));
    assert.deepEqual(run.events.identities.at(-1), { vendor: 'Bambu Lab', model: 'P1S', firmware: '01.08.02.00' });
    const ams = run.driver.state().ams;
    assert.ok(ams);
    assert.deepEqual(
      ams.units[0].trays.map((t) => [t.material, t.color]),
      [
        ['PLA', '#FFFFFFFF'],
        ['PLA', '#000000FF'],
        ['PETG', '#F72323FF'],
        ['PLA', '#0A2989FF'],
      ],
    );
    assert.equal(ams.external?.material, 'PLA');
    assert.equal(ams.active_tray, null);
  });

  test('status stays whole while the printer sends only what changed', async () => {
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'bed', target: 60 } });
    const warm = await run.events.until('the bed heating', () => run.events.statuses.findLast((s) => (s.temperatures.bed?.actual ?? 0) > 27));
    assert.equal(warm.temperatures.bed.target, 60);
    assert.equal(warm.state, 'idle', 'a delta without gcode_state does not lose the state');
    assert.ok('tool0' in warm.temperatures && 'part' in warm.fans, 'fields no delta repeats are still there');
    assert.equal(run.driver.state().details.speed_level, 2);
    await run.driver.command({ kind: 'action', action: 'temperature', params: { heater: 'bed', target: 0 } });
  });

  test('AMS trays merge by id: a delta about tray 2 changes tray 2 only', async () => {
    const before = run.driver.state().ams;
    const tray = vb.printer.state.ams[0].trays[2];
    assert.ok(tray && before);
    tray.remain = 33;
    const update = await run.events.until('tray 2 at 33 %', () =>
      run.events.amsUpdates.findLast((a) => a.units[0]?.trays[2].remaining_percent === 33),
    );
    assert.deepEqual(
      update.units[0].trays.map((t) => t.remaining_percent),
      [100, 85, 33, 40],
    );
    assert.deepEqual(
      update.units[0].trays.map((t) => t.material),
      before.units[0].trays.map((t) => t.material),
    );
  });

  test('a full short print: upload over FTPS, project_file with the mapping for these trays, progress, FINISH', async () => {
    const progress: UploadProgress[] = [];
    const bytes = project(TWO_FILAMENTS, 4, 4);
    await run.driver.upload({ stream: streamOf(bytes), size: bytes.length }, 'cube.gcode.3mf', (p) => progress.push(p));
    assert.ok(existsSync(path.join(vb.sdDir, 'cube.gcode.3mf')), 'the file is on the card');
    assert.deepEqual(progress.at(-1), { sent_bytes: bytes.length, total_bytes: bytes.length });
    await run.driver.start('cube.gcode.3mf');
    await run.events.until('preparing', () => run.events.statuses.some((s) => s.state === 'preparing' && s.job?.file === 'cube'));
    assert.deepEqual(vb.printer.state.job?.mapping, [1, 2], 'black PLA from tray 1, red PETG from tray 2');
    const done = await run.events.until('FINISH', () => run.events.statuses.findLast((s) => s.state === 'finished'), 20_000);
    assert.deepEqual([done.job?.file, done.job?.progress, done.job?.layer, done.job?.total_layers], ['cube', 100, 4, 4]);
    const percents = run.events.progresses.filter((p) => p.file === 'cube').map((p) => p.progress);
    assert.ok(
      percents.some((p) => p > 0 && p < 100),
      `progress in between: ${percents.join(',')}`,
    );
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress never goes back',
    );
    const running = run.events.progresses.find((p) => p.file === 'cube' && p.progress > 0 && p.progress < 100);
    assert.ok(
      running && running.remaining_s !== null && running.remaining_s % 60 === 0 && running.remaining_s <= 4 * 60,
      'remaining minutes become seconds',
    );
  });

  test('pause, resume and stop; pause while idle is a conflict', async () => {
    await printing(run, vb, 'long.gcode.3mf');
    await run.driver.pause();
    await run.events.until('paused', () => run.driver.status().state === 'paused');
    await run.driver.resume();
    await run.events.until('printing again', () => run.driver.status().state === 'printing');
    const again = await rejection(run.driver.resume());
    assert.deepEqual([again.status, again.code], [409, 'ERR_CONFLICT'], 'resume while printing');
    await run.driver.stop();
    const stopped = await run.events.until('stopped', () => run.events.statuses.findLast((s) => s.state === 'error'));
    assert.match(stopped.error ?? '', /cancelled \(0300-400C\)/);
    const idle = await rejection(run.driver.pause());
    assert.deepEqual([idle.status, idle.code], [409, 'ERR_CONFLICT']);
    assert.match(idle.message, /cannot pause: the printer is FAILED/);
  });

  test('speed, light and G-code lines are confirmed; actions the printer lacks are 422', async () => {
    await run.driver.command({ kind: 'action', action: 'speed', params: { level: 'sport' } });
    await run.events.until('sport speed', () => run.driver.state().details.speed_level === 3);
    await run.driver.command({ kind: 'action', action: 'light', params: { on: false } });
    await run.events.until('light off', () => (run.driver.state().details.lights as Record<string, string>).chamber_light === 'off');
    await run.driver.command({ kind: 'gcode', lines: ['M106 P2 S255'] });
    await run.events.until('aux fan', () => run.driver.status().fans.aux === 100);
    for (const [action, params] of [
      ['light', { light: 'work', on: true }],
      ['tool_change', { tool: 1 }],
      ['temperature', { heater: 'chamber', target: 40 }],
      ['speed', { percent: 120 }],
    ] as const) {
      const refused = await rejection(run.driver.command({ kind: 'action', action, params }));
      assert.deepEqual([refused.status, refused.code], [422, 'ERR_UNSUPPORTED_ACTION'], `${action} ${JSON.stringify(params)}`);
    }
    await run.driver.command({ kind: 'action', action: 'speed', params: { level: 'standard' } });
    await run.driver.command({ kind: 'gcode', lines: ['M106 P2 S0'] });
  });

  test('busy: a start while the printer runs its own job is refused with 409, nothing sent', async () => {
    await vb.setFault('busy', true);
    await run.events.until('busy', () => run.driver.status().state === 'printing');
    const requests = recordRequests(vb);
    const refused = await rejection(run.driver.start('cube.gcode.3mf'));
    requests.stop();
    assert.deepEqual([refused.status, refused.code], [409, 'ERR_CONFLICT']);
    assert.match(refused.message, /busy \(RUNNING\)/);
    assert.deepEqual(requests.commands, []);
    await vb.setFault('busy', false);
    await run.events.until('the screen job done', () => run.driver.status().state === 'finished');
  });

  test('start watchdog: a start the printer accepts but cannot print is reported as an error', async () => {
    await run.driver.start('missing.gcode.3mf', { ams_mapping: [] });
    const failed = await run.events.until('the failed start', () => run.events.errors.find((e) => /missing\.gcode\.3mf/.test(e.message)));
    assert.match(failed.message, /could not start missing\.gcode\.3mf: unable to parse the file \(0500-4003\)/);
    assert.deepEqual([run.driver.status().state, run.driver.status().error], ['error', failed.message]);
  });

  test('start watchdog: a start that never shows within the time is reported', async () => {
    await vb.printer.stop();
    try {
      await run.driver.start('cube.gcode.3mf', { ams_mapping: [] });
      const late = await run.events.until(
        'the late start',
        () => run.events.errors.find((e) => /did not start cube\.gcode\.3mf within 5 s/.test(e.message)),
        20_000,
      );
      assert.equal(run.driver.status().error, late.message);
      assert.equal(run.driver.status().state, 'error');
    } finally {
      await vb.printer.start();
    }
  });

  test('dropped publishes are tolerated: lost replies and deltas are made good by effects and a pushall', async () => {
    await printing(run, vb, 'lossy.gcode.3mf');
    await vb.setFault('dropPublishes', true);
    try {
      const requests = recordRequests(vb);
      await run.driver.pause();
      await run.events.until('paused', () => run.driver.status().state === 'paused');
      await run.driver.resume();
      await run.events.until('printing again', () => run.driver.status().state === 'printing');
      await run.driver.stop();
      await run.events.until('stopped', () => run.driver.status().state === 'error');
      await run.events.until('a gap in the reports asks for the whole state', () => requests.commands.includes('pushing.pushall'));
      requests.stop();
    } finally {
      await vb.setFault('dropPublishes', false);
    }
  });

  test('developer mode off: commands fail with an error naming it instead of hanging', async () => {
    await vb.setFault('developerModeOff', true);
    try {
      const refused = await rejection(run.driver.command({ kind: 'action', action: 'light', params: { on: true } }));
      assert.deepEqual([refused.status, refused.code], [409, 'ERR_CONFLICT']);
      assert.match(refused.message, /Developer Mode/);
      assert.ok(run.events.errors.some((e) => /Developer Mode/.test(e.message)));
      assert.equal(run.driver.state().details.developer_mode, false);
      assert.deepEqual(run.driver.state().details.hms, ['0500050000010007']);
    } finally {
      await vb.setFault('developerModeOff', false);
    }
    await run.events.until('HMS gone', () => run.driver.state().details.developer_mode === null);
    await run.driver.command({ kind: 'action', action: 'light', params: { on: true } });
  });

  test('a broker restart: the loss is reported for a retry, and connecting again works', async () => {
    const lost = run.events.disconnects.length;
    await vb.restartBroker();
    const reason = await run.events.until('the loss', () => run.events.disconnects[lost]);
    assert.equal(reason.retry, true);
    assert.equal(run.driver.status().online, false);
    await run.driver.connect();
    assert.equal(run.driver.status().online, true);
  });

  test('a wrong access code: the session drops, reconnecting fails permanently and says why', async () => {
    const lost = run.events.disconnects.length;
    await vb.setFault('wrongAccessCode', true);
    try {
      await run.events.until('the dropped session', () => run.events.disconnects[lost]);
      const refused = await rejection(run.driver.connect());
      assert.ok(refused instanceof PermanentConnectError, `${refused.name}: ${refused.message}`);
      assert.match(refused.message, /refused the access code \(MQTT CONNACK 5/);
      const upload = await rejection(run.driver.upload({ stream: streamOf(new Uint8Array(4)) }, 'x.3mf'));
      assert.equal(upload.status, 503, 'nothing works while not connected');
    } finally {
      await vb.setFault('wrongAccessCode', false);
    }
    await run.driver.connect();
  });
});

describe('silence', () => {
  let vb: VirtualBambu;
  let run: DriverRun;

  before(async () => {
    vb = await startVirtualBambu({ model: 'P1S' });
    run = driverFor(vb, { timings: { silenceMs: 1_000, silenceRecoveryMs: 1_500, connectTimeoutMs: 2_000 } });
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vb.stop();
  });

  test('a silent stream gets pushing.start and talks again, without a reconnect', async () => {
    const requests = recordRequests(vb);
    await vb.setFault('silentStream', true);
    await run.events.until('pushing.start', () => requests.commands.includes('pushing.start'));
    requests.stop();
    assert.equal(vb.printer.hasFault('silentStream'), false, 'pushing.start ended the silence');
    const heard = run.events.statuses.length;
    await run.events.until('reports again', () => run.events.statuses.length > heard + 2);
    assert.deepEqual(run.events.disconnects, []);
  });

  test('still silent after pushing.start: the session is dropped for a reconnect', async () => {
    await vb.printer.stop();
    try {
      const reason = await run.events.until('dropped', () => run.events.disconnects[0]);
      assert.equal(reason.retry, true);
      assert.match(reason.message, /no message from the printer for 3 s, not even after pushing.start/);
      const noState = await rejection(run.driver.connect());
      assert.match(noState.message, /sent no state within 2 s/);
    } finally {
      await vb.printer.start();
    }
    await run.driver.connect();
    assert.equal(run.driver.status().online, true);
  });
});

describe('an X1C (full pushes)', () => {
  let vb: VirtualBambu;
  let run: DriverRun;

  before(async () => {
    vb = await startVirtualBambu({ model: 'X1C' });
    run = driverFor(vb);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vb.stop();
  });

  test('status, identity and AMS from full pushes; Developer Mode on per `fun`', async () => {
    await run.driver.command({ kind: 'action', action: 'light', params: { light: 'work', on: false } });
    await run.events.until('work light off', () => (run.driver.state().details.lights as Record<string, string>).work_light === 'off');
    assert.deepEqual(run.driver.state().details.lights, { chamber_light: 'on', work_light: 'off' });
    await run.events.until('identity', () => run.events.identities.at(-1));
    assert.deepEqual(run.events.identities.at(-1), { vendor: 'Bambu Lab', model: 'X1 Carbon', firmware: '01.08.05.00' });
    assert.equal(run.driver.state().details.developer_mode, true);
    assert.equal(run.driver.state().ams?.units[0].trays.length, 4);
  });

  test('with Developer Mode off, `fun` says so and commands fail at once, unsent', async () => {
    await vb.setFault('developerModeOff', true);
    try {
      await run.events.until('fun says off', () => run.driver.state().details.developer_mode === false);
      const requests = recordRequests(vb);
      const control = await rejection(run.driver.command({ kind: 'gcode', lines: ['G28'] }));
      requests.stop();
      assert.deepEqual([control.status, control.code], [409, 'ERR_CONFLICT']);
      assert.match(control.message, /Developer Mode/);
      assert.deepEqual(requests.commands, [], 'nothing was sent');
    } finally {
      await vb.setFault('developerModeOff', false);
    }
  });
});
