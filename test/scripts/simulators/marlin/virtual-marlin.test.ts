/**
 * The virtual Marlin over its real pty (socat): a host opens the port with serialport and talks
 * Marlin's serial protocol, as the dashboard's driver will.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { checksum, commandLines, numberedLine } from '../../../../scripts/simulators/marlin/protocol.js';
import { VirtualMarlin } from '../../../../scripts/simulators/marlin/virtual-marlin.js';
import { SerialHost, startVirtualMarlin, type VirtualMarlinFixture } from '../../../fixtures/virtual-marlin.js';

const open: SerialHost[] = [];
const running: VirtualMarlinFixture[] = [];

async function start(options: Parameters<typeof startVirtualMarlin>[0] = {}): Promise<VirtualMarlinFixture> {
  const sim = await startVirtualMarlin(options);
  running.push(sim);
  return sim;
}

async function connect(sim: VirtualMarlinFixture): Promise<SerialHost> {
  const host = await SerialHost.openBooted(sim.hostPath);
  open.push(host);
  return host;
}

/** Closes the host's port, waits until the printer saw it and the port is back, and opens it again. */
async function reopen(sim: VirtualMarlinFixture, host: SerialHost): Promise<SerialHost> {
  const closed = once(sim.printer, 'host-close');
  await host.close();
  await closed;
  await sim.hostReady();
  return connect(sim);
}

afterEach(async () => {
  for (const host of open.splice(0)) await host.close();
  for (const sim of running.splice(0)) await sim.stop();
});

after(async () => {
  for (const sim of running.splice(0)) await sim.stop();
});

/** Streams numbered lines ping-pong style, resending from the line Marlin asks for. */
async function stream(host: SerialHost, commands: string[], firstLine = 1): Promise<void> {
  let k = 0;
  while (k < commands.length) {
    host.skip();
    host.sendNumbered(firstLine + k, commands[k]);
    const answer = await host.until((line) => /^ok\b/.test(line) || line.startsWith('Resend:'));
    const resend = answer.find((line) => line.startsWith('Resend:'));
    if (resend) {
      await host.next(/^ok\b/);
      k = Number(resend.slice('Resend:'.length)) - firstLine;
    } else {
      k++;
    }
  }
}

const TIMEOUT = { timeout: 60_000 };

describe('virtual Marlin over a pty', TIMEOUT, () => {
  test('a host that opens the port gets the boot banner, then M115 with the capabilities', async () => {
    const sim = await start();
    const host = await SerialHost.open(sim.hostPath);
    open.push(host);
    const banner = await host.until('echo:SD card ok');
    assert.deepEqual(banner.slice(0, 3), ['start', ' External Reset', 'Marlin 2.1.2.1']);
    const reply = await host.request('M115');
    assert.match(
      reply[0],
      /^FIRMWARE_NAME:Marlin 2\.1\.2\.1 \(.+\) SOURCE_CODE_URL:\S+ PROTOCOL_VERSION:1\.0 MACHINE_TYPE:.+ EXTRUDER_COUNT:1 UUID:[0-9a-f-]{36}$/,
    );
    for (const cap of ['AUTOREPORT_TEMP:1', 'AUTOREPORT_SD_STATUS:1', 'EXTENDED_M20:1', 'SDCARD:1', 'EMERGENCY_PARSER:1']) {
      assert.ok(reply.includes(`Cap:${cap}`), `missing Cap:${cap} in\n${reply.join('\n')}`);
    }
    assert.equal(reply.at(-1), 'ok');
  });

  test('line numbers and checksums are checked; a bad line is answered Error, Resend and ok', async () => {
    const sim = await start();
    const host = await connect(sim);
    assert.deepEqual(await host.request(numberedLine(0, 'M110 N0')), ['ok']);
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['ok']);
    assert.deepEqual(await host.request(numberedLine(3, 'G90')), ['Error:Line Number is not Last Line Number+1, Last Line: 1', 'Resend: 2', 'ok']);
    const body = 'N2 G91';
    assert.deepEqual(await host.request(`${body}*${(checksum(body) + 1) % 256}`), ['Error:checksum mismatch, Last Line: 1', 'Resend: 2', 'ok']);
    assert.deepEqual(await host.request('N2 G91'), ['Error:No Checksum with line number, Last Line: 1', 'Resend: 2', 'ok']);
    assert.deepEqual(await host.request(numberedLine(2, 'G91')), ['ok']);
    assert.equal(sim.printer.state().lastLineNumber, 2);
    assert.deepEqual(await host.request('X123'), ['echo:Unknown command: "X123"', 'ok']);
    assert.deepEqual(await host.request('M110 N40'), ['ok']);
    assert.deepEqual(await host.request(numberedLine(41, 'M400')), ['ok']);
  });

  test('M105 reports temperatures on its ok line; M155 S1 sends them every second', async () => {
    const sim = await start();
    const host = await connect(sim);
    const [reply] = await host.request('M105');
    assert.match(reply, /^ok T:\d+\.\d\d \/0\.00 B:\d+\.\d\d \/0\.00 @:0 B@:0$/);
    await host.request('M155 S1');
    await host.next(/^ T:\d+\.\d\d \/0\.00 B:\d+\.\d\d \/0\.00 @:0 B@:0$/);
    await host.next(/^ T:/);
    assert.equal(sim.printer.state().autoReport.temperatureSeconds, 1);
    await host.request('M155 S0');
    assert.equal(sim.printer.state().autoReport.temperatureSeconds, 0);
  });

  test('M109 waits while the hotend heats, printing W:? lines, then the residency countdown', async () => {
    const sim = await start({ speed: 50 });
    const host = await connect(sim);
    const reply = await host.request('M109 S200', 30_000);
    const waiting = reply.filter((line) => line.endsWith(' W:?'));
    assert.ok(waiting.length >= 10, `expected many W:? lines:\n${reply.join('\n')}`);
    const temps = waiting.map((line) => Number(/^ T:(\d+\.\d+) \/200\.00/.exec(line)?.[1]));
    assert.ok(
      temps.every((t, k) => k === 0 || t >= temps[k - 1]),
      `temperatures must rise: ${temps.join(' ')}`,
    );
    assert.ok(
      reply.some((line) => / W:[0-9]$/.test(line)),
      'the residency countdown appears',
    );
    assert.ok(reply.some((line) => line === 'echo:busy: processing'));
    const hotend = sim.printer.state().hotends[0];
    assert.equal(hotend.target, 200);
    assert.ok(Math.abs(hotend.temperature - 200) < 1, `at temperature: ${hotend.temperature}`);
  });

  test('an SD upload with M28/M29, then M23/M24 prints it to "Done printing file" with M27 progress', async () => {
    const sim = await start({ speed: 100 });
    const host = await connect(sim);
    const gcode = ['M104 S200', 'M109 S200', 'G28', 'G92 E0', 'G1 X50 Y50 Z0.3 F6000', 'G1 X100 E5 F1200', 'G1 Y100 E10', 'G1 X50 E15', 'M104 S0'];
    await stream(host, ['M110 N0'], 0);
    assert.deepEqual(await host.request(numberedLine(1, 'M28 CUBE.GCO')), ['Writing to file: CUBE.GCO', 'ok']);
    await stream(host, gcode, 2);
    assert.deepEqual(await host.request(numberedLine(2 + gcode.length, 'M29')), ['Done saving file.', 'ok']);
    const saved = sim.printer.sdFile('CUBE.GCO')?.toString('latin1');
    assert.equal(saved, gcode.map((line) => `${line}\r\n`).join(''));
    const size = Buffer.byteLength(saved ?? '');
    assert.deepEqual(await host.request('M20 L'), ['Begin file list', `CUBE.GCO ${size} CUBE.GCO`, 'End file list', 'ok']);
    assert.deepEqual(await host.request('M23 CUBE.GCO'), [`File opened: CUBE.GCO Size: ${size}`, 'File selected', 'ok']);
    await host.request('M27 S1');
    await host.request('M24');
    const progress = await host.next(/^SD printing byte \d+\/\d+$/);
    assert.match(progress, new RegExp(`/${size}$`));
    await host.next('Done printing file', 30_000);
    await host.request('M27 S0');
    assert.equal(sim.printer.state().autoReport.sdSeconds, 0);
    assert.deepEqual(await host.request('M27'), ['Not SD printing', 'ok']);
    const state = sim.printer.state();
    assert.ok(Math.abs(state.extruded[0] - 15) < 1e-9, `15 mm extruded, got ${state.extruded[0]}`);
    assert.deepEqual({ X: state.position.X, Y: state.position.Y }, { X: 50, Y: 100 });
    assert.equal(state.sd.print, null);
  });

  test('a host streams a G-code file with line numbers to completion', async () => {
    const sim = await start({ speed: 100 });
    const host = await connect(sim);
    const file = [
      '; a small print',
      'M140 S60',
      'M104 S210',
      'G28 ; home',
      'M190 S60',
      'M109 S210',
      'G92 E0',
      'G1 Z0.2 F600',
      ...Array.from({ length: 40 }, (_, k) => `G1 X${20 + (k % 2) * 60} Y${20 + k} E${((k + 1) * 0.8).toFixed(1)} F1800`),
      'G1 E31 F2400 ; retract',
      'M104 S0',
      'M140 S0',
      'M400',
    ].join('\n');
    await stream(host, ['M110 N0'], 0);
    await stream(host, commandLines(file), 1);
    const state = sim.printer.state();
    assert.equal(state.lastLineNumber, commandLines(file).length);
    assert.ok(Math.abs(state.extruded[0] - 31) < 1e-9, `31 mm net extruded, got ${state.extruded[0]}`);
    assert.equal(state.queue.moves, 0);
    assert.equal(state.hotends[0].target, 0);
  });
});

describe('virtual Marlin fault injection, seen on the wire', TIMEOUT, () => {
  test('a forced resend refuses a good line with Resend and ok, without an Error line', async () => {
    const sim = await start();
    const host = await connect(sim);
    sim.injectFault('resend');
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['Resend: 1', 'ok']);
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['ok']);
  });

  test('a checksum fault claims a mismatch for a good line', async () => {
    const sim = await start();
    const host = await connect(sim);
    sim.injectFault('checksum');
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['Error:checksum mismatch, Last Line: 0', 'Resend: 1', 'ok']);
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['ok']);
  });

  test('a dropped line gets no answer; the next line reveals the gap and the host resends', async () => {
    const sim = await start();
    const host = await connect(sim);
    sim.injectFault('drop');
    host.skip();
    host.sendNumbered(1, 'M105');
    assert.deepEqual(await host.request(numberedLine(2, 'G90')), ['Error:Line Number is not Last Line Number+1, Last Line: 0', 'Resend: 1', 'ok']);
    assert.match((await host.request(numberedLine(1, 'M105')))[0], /^ok T:/);
  });

  test('a busy fault makes a command answer busy: processing before its ok', async () => {
    const sim = await start();
    const host = await connect(sim);
    sim.injectFault('busy');
    const reply = await host.request('M400');
    assert.equal(reply.at(-1), 'ok');
    assert.ok(reply.filter((line) => line === 'echo:busy: processing').length >= 2, reply.join('\n'));
  });

  test('a disconnect fault pulls the cable after a line, and puts it back', async () => {
    const sim = await start();
    const host = await connect(sim);
    sim.injectFault('disconnect');
    host.send('M105');
    assert.ok((await host.waitClosed()) instanceof Error);
    await sim.hostReady();
    assert.equal(sim.printer.state().cable.plugged, true);
    const again = await connect(sim);
    assert.match((await again.request('M105'))[0], /^ok T:/);
  });

  test('fault rates set at run time apply to the following lines', async () => {
    const sim = await start({ seed: 3 });
    const host = await connect(sim);
    sim.setFaults({ checksum: 1 });
    assert.equal((await host.request(numberedLine(1, 'G90')))[0], 'Error:checksum mismatch, Last Line: 0');
    sim.setFaults({ checksum: 0 });
    assert.deepEqual(await host.request(numberedLine(1, 'G90')), ['ok']);
    assert.equal(sim.printer.state().faults.checksum, 0);
  });

  test('without auto-report capabilities M155 is unknown and M27 S answers the status', async () => {
    const sim = await start({ firmware: { autoReport: false } });
    const host = await connect(sim);
    const caps = await host.request('M115');
    assert.ok(caps.includes('Cap:AUTOREPORT_TEMP:0') && caps.includes('Cap:AUTOREPORT_SD_STATUS:0'));
    assert.deepEqual(await host.request('M155 S2'), ['echo:Unknown command: "M155 S2"', 'ok']);
    assert.deepEqual(await host.request('M27 S2'), ['Not SD printing', 'ok']);
    sim.setAutoReport(true);
    assert.ok((await host.request('M115')).includes('Cap:AUTOREPORT_TEMP:1'));
  });
});

describe('virtual Marlin cable and port', TIMEOUT, () => {
  test('pulling the cable closes the host port and removes the path; plugging it back serves a new session', async () => {
    const sim = await start();
    const host = await connect(sim);
    await host.request('G28');
    await sim.pullCable();
    assert.ok((await host.waitClosed()) instanceof Error, 'the host sees the port fail');
    assert.equal(existsSync(sim.hostPath), false);
    assert.deepEqual(sim.printer.state().cable, { plugged: false, hostConnected: false });
    await sim.plugCable();
    const again = await SerialHost.open(sim.hostPath);
    open.push(again);
    assert.deepEqual((await again.until('echo:SD card ok')).slice(0, 2), ['start', ' External Reset']);
    assert.equal(sim.printer.state().homed.X, false, 'the reset lost the homing');
  });

  test('a native-USB board (no reset on open) keeps its state across a cable pull', async () => {
    const sim = await start({ resetOnOpen: false });
    const host = await SerialHost.open(sim.hostPath);
    open.push(host);
    await host.request('G1 X12 F6000');
    await sim.pullCable();
    await host.waitClosed();
    await sim.plugCable();
    const again = await SerialHost.open(sim.hostPath);
    open.push(again);
    assert.match((await again.request('M114'))[0], /^X:12\.00 Y:0\.00 Z:0\.00 E:0\.00 Count X:960 /);
  });

  test('a host can close the port and open it again', async () => {
    const sim = await start();
    const again = await reopen(sim, await connect(sim));
    assert.match((await again.request('M105'))[0], /^ok T:/);
  });

  test('without socat the simulator does not start and says what to install', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-vmarlin-'));
    try {
      await assert.rejects(
        VirtualMarlin.start({ dir, socat: '/nonexistent/socat' }),
        /\/nonexistent\/socat not found: install the Debian package socat/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('M112 halts the firmware until the port is opened again', async () => {
    const sim = await start();
    const host = await connect(sim);
    await host.request('M104 S200');
    host.skip();
    host.send('M112');
    await host.next('Error:Printer halted. kill() called!');
    const state = sim.printer.state();
    assert.equal(state.firmware, 'killed');
    assert.equal(state.hotends[0].target, 0);
    const again = await reopen(sim, host);
    assert.match((await again.request('M105'))[0], /^ok T:/);
    assert.equal(sim.printer.state().firmware, 'ready');
  });
});
