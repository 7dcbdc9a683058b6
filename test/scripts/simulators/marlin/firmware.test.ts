/**
 * The firmware model in-process (no pty): what it answers, line by line, to what a host sends.
 * The wire-level behaviour over a real pty is in virtual-marlin.test.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { SimClock } from '../../../../scripts/simulators/marlin/clock.js';
import { FaultInjector } from '../../../../scripts/simulators/marlin/faults.js';
import { MarlinFirmware } from '../../../../scripts/simulators/marlin/firmware.js';
import { defaultFirmwareSettings, type FirmwareSettings } from '../../../../scripts/simulators/marlin/firmware-settings.js';
import { numberedLine } from '../../../../scripts/simulators/marlin/protocol.js';
import { LineLog } from '../../../fixtures/virtual-marlin.js';

interface Booted {
  fw: MarlinFirmware;
  out: LineLog;
  faults: FaultInjector;
  send(text: string): void;
  request(line: string): Promise<string[]>;
}

const running: Array<{ fw: MarlinFirmware; clock: SimClock }> = [];

async function boot(settings: Partial<FirmwareSettings> = {}, speed = 200): Promise<Booted> {
  const clock = new SimClock(speed);
  const faults = new FaultInjector({}, 1);
  const out = new LineLog();
  const fw = new MarlinFirmware(defaultFirmwareSettings({ bootMs: 100, ...settings }), clock, faults, {
    send: (line) => out.push(line),
    lineArrived: () => undefined,
    booted: () => undefined,
    crashed: (err) => out.end(`crashed: ${String(err)}`),
  });
  running.push({ fw, clock });
  fw.reset('PowerUp');
  await out.next('echo:SD card ok');
  const send = (text: string) => fw.receive(`${text}\n`);
  return {
    fw,
    out,
    faults,
    send,
    request(line) {
      out.skip();
      send(line);
      return out.until(/^ok\b/);
    },
  };
}

afterEach(() => {
  for (const { fw, clock } of running.splice(0)) {
    fw.powerOff();
    clock.dispose();
  }
});

describe('firmware answers', () => {
  test('the power-up banner', async () => {
    const { out } = await boot();
    assert.deepEqual(out.lines.slice(0, 3), ['start', 'PowerUp', 'Marlin 2.1.2.1']);
  });

  test('ADVANCED_OK reports the line number and the free planner and queue slots', async () => {
    const { request } = await boot({ advancedOk: true });
    assert.deepEqual(await request(numberedLine(1, 'G90')), ['ok N1 P15 B3']);
    assert.deepEqual(await request('G90'), ['ok P15 B3']);
    assert.deepEqual(await request('G1 X100 F600'), ['ok P14 B3']);
    assert.match((await request('M105'))[0], /^ok T:/, 'M105 answers on its own ok line');
  });

  test('what arrives while the bootloader runs is lost', async () => {
    const { fw, out, request } = await boot({ bootMs: 2000 });
    fw.reset(' External Reset');
    fw.receive(`${numberedLine(1, 'G90')}\n`);
    await out.next('echo:SD card ok');
    assert.deepEqual(await request(numberedLine(2, 'G90')), ['Error:Line Number is not Last Line Number+1, Last Line: 0', 'Resend: 1', 'ok']);
  });

  test('after a bad line, the lines already received behind it are thrown away', async () => {
    const { fw, out } = await boot();
    fw.receive([numberedLine(2, 'G90'), numberedLine(3, 'G91'), numberedLine(4, 'G90')].map((l) => `${l}\n`).join(''));
    assert.deepEqual(await out.until('ok'), ['Error:Line Number is not Last Line Number+1, Last Line: 0', 'Resend: 1', 'ok']);
    out.skip();
    fw.receive(`${numberedLine(1, 'M400')}\n`);
    assert.deepEqual(await out.until('ok'), ['ok']);
    assert.equal(fw.lastLineNumber, 1);
  });

  test('unknown G-codes and letters are reported, then acknowledged', async () => {
    const { request } = await boot();
    assert.deepEqual(await request('G29'), ['echo:Unknown command: "G29"', 'ok']);
    assert.deepEqual(await request('N7 G29 P1*0'), ['Error:Line Number is not Last Line Number+1, Last Line: 0', 'Resend: 1', 'ok']);
    assert.deepEqual(await request('M900 K0'), ['echo:Unknown command: "M900 K0"', 'ok']);
  });

  test('messages, progress and host prints', async () => {
    const { fw, request } = await boot();
    assert.deepEqual(await request('M117 Printing cube'), ['ok']);
    assert.deepEqual(await request('M73 P42 R7'), ['ok']);
    assert.deepEqual(await request('M118 E1 hello'), ['echo:hello', 'ok']);
    assert.deepEqual(await request('M118 A1 action:pause'), ['//action:pause', 'ok']);
    assert.deepEqual(await request('M220'), ['FR:100%', 'ok']);
    assert.deepEqual(await request('M221 S95'), ['ok']);
    assert.deepEqual(await request('M221'), ['echo:E0 Flow: 95%', 'ok']);
    assert.deepEqual(await request('M113'), ['echo:M113 S2', 'ok']);
    assert.equal(fw.message, 'Printing cube');
    assert.deepEqual(fw.progress, { percent: 42, remainingMinutes: 7 });
  });

  test('M999 asks the host to resend from the next line', async () => {
    const { request } = await boot();
    await request(numberedLine(1, 'G90'));
    assert.deepEqual(await request('M999'), ['Resend: 2', 'ok']);
  });

  test('NO_TIMEOUTS sends wait while nothing comes', async () => {
    const { out } = await boot({ noTimeoutsMs: 1000 });
    await out.next('wait');
    await out.next('wait');
  });
});

describe('firmware heaters and motion', () => {
  test('M108 (emergency parser) ends an M109 wait at once', async () => {
    const { fw, out, send } = await boot({}, 20);
    send('M109 S200');
    await out.next(/ W:\?$/);
    send('M108');
    assert.deepEqual(await out.until('ok').then((lines) => lines.at(-1)), 'ok');
    assert.ok(fw.heaters.hotends[0].current < 190, 'it stopped waiting before the target');
    assert.equal(fw.heaters.hotends[0].target, 200, 'the target stays');
  });

  test('M112 while waiting halts at once', async () => {
    const { fw, out, send } = await boot({}, 20);
    send('M109 S200');
    await out.next(/ W:\?$/);
    send('M112');
    await out.next('Error:Printer halted. kill() called!');
    assert.equal(fw.status, 'killed');
    assert.equal(fw.heaters.hotends[0].target, 0);
  });

  test('cold extrusion is refused with a message and does not count', async () => {
    const { fw, request } = await boot();
    assert.deepEqual(await request('G1 X10 E5 F600'), ['echo: cold extrusion prevented', 'ok']);
    assert.deepEqual(await request('M302'), ['echo:Cold extrudes are disabled (min temp 170C)', 'ok']);
    await request('M302 P1');
    await request('G1 X20 E7');
    await request('M400');
    assert.equal(fw.extruded[0], 2);
  });

  test('two tools: T1 switches, M105 reports both hotends, filament counts per tool', async () => {
    const { fw, request } = await boot({ extruders: 2 });
    await request('M302 P1');
    await request('M83');
    await request('G1 E3');
    assert.deepEqual(await request('T1'), ['echo:Active Extruder: 1', 'ok']);
    await request('G1 E5');
    await request('M400');
    assert.deepEqual(fw.extruded, [3, 5]);
    assert.match((await request('M105'))[0], /^ok T:\S+ \/0\.00 B:\S+ \/0\.00 T0:\S+ \/0\.00 T1:\S+ \/0\.00 @:0 B@:0 @0:0 @1:0$/);
    assert.deepEqual(await request('T2'), ['echo:T2 Invalid extruder', 'ok']);
    assert.deepEqual(await request('M104 T3 S200'), ['echo:T3 Invalid extruder', 'ok']);
  });

  test('G28 homes, M114 reports the position with step counts', async () => {
    const { request } = await boot();
    await request('G1 X10 Y10 Z5 F6000');
    await request('G28');
    await request('G1 X20.5 Y10 F6000');
    assert.deepEqual(await request('M114'), ['X:20.50 Y:10.00 Z:0.00 E:0.00 Count X:1640 Y:800 Z:0', 'ok']);
  });

  test('a bad arc is an error and does not move', async () => {
    const { request } = await boot();
    assert.deepEqual(await request('G2 X50 Y0 R5'), ['Error:G2/G3 bad parameters', 'ok']);
    assert.deepEqual(await request('M114'), ['X:0.00 Y:0.00 Z:0.00 E:0.00 Count X:0 Y:0 Z:0', 'ok']);
  });
});

describe('firmware SD printing', () => {
  test('an M25 in the file pauses reading; M24 resumes; the end says Done printing file', async () => {
    const { fw, out, request } = await boot();
    fw.sd.put('job.gco', 'G28\nG1 X10 F6000\nM25\nG1 X20\nM117 resumed\n');
    await request('M23 JOB.GCO');
    await request('M24');
    await waitFor(() => fw.sd.job?.printing === false && fw.queuedCommands === 0);
    assert.equal(fw.jobTimer, 'paused');
    assert.match((await request('M27'))[0], /^SD printing byte \d+\/\d+$/);
    out.skip();
    await request('M24');
    await out.next('Done printing file');
    assert.equal(fw.message, 'resumed');
    assert.equal(fw.motion.position.X, 20);
    assert.equal(fw.jobTimer, 'idle');
  });

  test('at the end of an SD file the wait for the last moves keeps the host informed with busy lines', async () => {
    const { fw, out, request } = await boot({ keepaliveSeconds: 1 });
    fw.sd.put('slow.gco', `G28\n${Array.from({ length: 8 }, (_, k) => `G1 X${k % 2 ? 0 : 200} F600`).join('\n')}\n`);
    await request('M23 SLOW.GCO');
    await request('M24');
    // The whole file is read; what is left is the end-of-file command's wait for the planned moves.
    await waitFor(() => fw.sd.job === null);
    out.skip();
    const tail = await out.until('Done printing file');
    assert.ok(tail.includes('echo:busy: processing'), `busy before "Done printing file": ${tail.join(' | ')}`);
  });

  test('M524 aborts an SD print: reading stops, heaters go off', async () => {
    const { fw, request } = await boot();
    fw.sd.put('long.gco', `M104 S200\n${Array.from({ length: 200 }, (_, k) => `G1 X${k % 2 ? 200 : 0} F600`).join('\n')}\n`);
    await request('M23 LONG.GCO');
    await request('M24');
    await waitFor(() => fw.heaters.hotends[0].target === 200);
    await request('M524');
    assert.equal(fw.sd.job, null);
    assert.equal(fw.heaters.hotends[0].target, 0);
    assert.deepEqual(await request('M27'), ['Not SD printing', 'ok']);
  });

  test('M23 of a missing file, M30 deletes, M20 T and M27 C', async () => {
    const { fw, request } = await boot({ longFilenameWrite: true });
    fw.sd.put('cube.gcode', 'G28\n');
    assert.deepEqual(await request('M23 NOPE.GCO'), ['open failed, File: NOPE.GCO.', 'ok']);
    assert.match((await request('M20 T L'))[1], /^CUBE~1\.GCO 4 0x[0-9a-f]{8} cube\.gcode$/);
    await request('M23 cube.gcode');
    assert.deepEqual(await request('M27 C'), ['Current file: CUBE~1.GCO cube.gcode', 'ok']);
    assert.deepEqual(await request('M33 /CUBE~1.GCO'), ['/cube.gcode', 'ok']);
    assert.deepEqual(await request('M30 CUBE~1.GCO'), ['Deletion failed, File: CUBE~1.GCO.', 'ok']);
    await request('M524');
    assert.deepEqual(await request('M30 CUBE~1.GCO'), ['File deleted:CUBE~1.GCO', 'ok']);
  });
});

/** Polls a condition of the in-process firmware (it changes on its own clock). */
async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
