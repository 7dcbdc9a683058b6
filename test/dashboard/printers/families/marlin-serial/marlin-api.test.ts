/**
 * A Marlin printer through the real dashboard: the printers API and the WebSocket, the manager
 * running the real driver against the virtual Marlin on its pty (test timings, a quick reconnect).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceOptions } from '../../../../../appliance/dashboard/services.js';
import { validate } from '../../../../../appliance/common/json-schema.js';
import { liveStateSchema } from '../../../../../appliance/dashboard/printers/control-schemas.js';
import { DriverRegistry } from '../../../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { printerStatusSchema } from '../../../../../appliance/dashboard/printers/status.js';
import { loginAs } from '../../../../fixtures/dashboard-auth.js';
import { expectError, startDashboardFixture, type DashboardFixture, type TestResponse } from '../../../../fixtures/dashboard.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../../../fixtures/virtual-marlin.js';
import { connect, wsUrl, type Received, type TestClient } from '../../../live/ws-client.js';
import { TEST_TIMINGS } from './driver-harness.js';
import { squares } from './gcode-samples.js';
import { eventually } from '../../../../fixtures/eventually.js';

let vm: VirtualMarlinFixture;
let dash: DashboardFixture;
let operator: string;
let viewer: string;
let id: string;
let ws: TestClient;

function printersOnMarlin(): ServiceOptions {
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory(TEST_TIMINGS));
  return { printers: { drivers, backoff: { initialMs: 200, maxMs: 1_000, stableMs: 60_000 } } };
}

async function status(): Promise<Record<string, any>> {
  return (await dash.request('GET', `/api/printers/${id}/status`, { token: viewer })).json;
}

async function liveState(): Promise<Record<string, any>> {
  return (await dash.request('GET', `/api/printers/${id}/state`, { token: viewer })).json;
}

/** The next WebSocket message of `type` about this printer whose payload matches, within 15 s. */
function message(type: string, match: (payload: Record<string, any>) => boolean, what: string): Promise<Received> {
  return ws.nextMatching(type, (payload) => payload.printer_id === id && match(payload), what);
}

const post = (urlPath: string, body: unknown): Promise<TestResponse> =>
  dash.request('POST', `/api/printers/${id}${urlPath}`, { token: operator, body });

/** Hands a file to the running driver the way slice-and-send does. */
async function printFile(name: string, gcode: string): Promise<void> {
  const driver = dash.server.services.printers.manager.driver(id);
  assert.ok(driver, 'the printer has a running driver');
  const source = path.join(dash.dataDir, `source-${name}`);
  writeFileSync(source, gcode);
  await driver.upload({ path: source }, name);
  await driver.start(name);
}

before(async () => {
  vm = await startVirtualMarlin();
  dash = await startDashboardFixture({ services: printersOnMarlin(), config: { rate_limit: { enabled: false } } });
  const admin = await loginAs(dash, 'admin');
  operator = await loginAs(dash, 'print');
  viewer = await loginAs(dash, 'view');
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: { name: 'Marlin on a pty', type: 'marlin-serial', connection: { port: vm.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json.connection, { port: vm.hostPath, baud: 115200 });
  id = created.json.id;
  ws = connect(wsUrl(dash.url, `?token=${viewer}`));
  await ws.opened;
  await ws.nextOfType('hello');
  await eventually('online', async () => (await status()).state === 'idle');
});

after(async () => {
  ws?.ws.terminate();
  await dash?.cleanup();
  await vm?.stop();
});

describe('a Marlin printer through the dashboard', () => {
  test('GET /status, /state and the printer: live, in the documented shapes, with the firmware identity', async () => {
    assert.deepEqual(validate(printerStatusSchema, await status(), 'status'), []);
    const live = await liveState();
    assert.deepEqual(validate(liveStateSchema, live, 'state'), []);
    assert.deepEqual(live.capabilities, {
      upload: true,
      ams: false,
      camera: false,
      gcode_console: true,
      actions: ['home', 'jog', 'temperature', 'fan', 'speed', 'load_filament', 'unload_filament'],
    });
    assert.deepEqual(
      [live.details.firmware, live.details.auto_report, live.details.extruded_mm],
      ['Marlin 2.1.2.1 (Jul 20 2023 11:02:55)', { temperature: true, sd_status: true }, [0]],
    );
    const printer = await dash.request('GET', `/api/printers/${id}`, { token: viewer });
    assert.deepEqual(printer.json.identity, { vendor: null, model: 'Printyard Virtual Marlin', firmware: 'Marlin 2.1.2.1 (Jul 20 2023 11:02:55)' });
  });

  test('G-code and actions change the printer; printer.status shows it on the WebSocket; refusals', async () => {
    const answer = await post('/command', { command: 'M105\nM114' });
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.json.lines[0], /^ok T:/);
    assert.match(answer.json.lines[1], /^X:0\.00 Y:0\.00 Z:0\.00/);
    assert.equal((await post('/actions/temperature', { heater: 'bed', target: 50 })).status, 204);
    await message('printer.status', (s) => s.temperatures.bed?.target === 50 && s.temperatures.bed.actual > 26, 'the bed heating');
    assert.equal((await post('/actions/fan', { fan: 'part', percent: 100 })).status, 204);
    await message('printer.status', (s) => s.fans.part === 100, 'the part fan');
    assert.equal((await post('/actions/home', { axes: ['x', 'y'] })).status, 204);
    assert.deepEqual(vm.printer.state().homed, { X: true, Y: true, Z: false });
    expectError(await post('/actions/light', { on: true }), 422, 'ERR_UNSUPPORTED_ACTION', /do not offer the "light" action/);
    expectError(await post('/actions/speed', { level: 'sport' }), 422, 'ERR_UNSUPPORTED_ACTION', /percentage/);
    expectError(await post('/actions/temperature', { heater: 'tool3', target: 200 }), 422, 'ERR_UNSUPPORTED_ACTION');
    expectError(await post('/command', { command: 'M110 N9' }), 400, 'ERR_VALIDATION');
    expectError(await post('/control', { action: 'pause' }), 409, 'ERR_CONFLICT', /nothing is printing/);
    await post('/command', { command: 'M140 S0\nM107' });
  });

  test('a print handed to the driver: print.progress on the WebSocket; pause, resume and stop through /control', async () => {
    await printFile('api.gcode', squares(12, 8, 6000).gcode);
    await message('print.progress', (p) => p.file === 'api.gcode' && p.state === 'printing' && p.progress > 0, 'progress of the print');
    expectError(await post('/actions/jog', { x: 10 }), 409, 'ERR_CONFLICT', /while a print runs/);
    assert.equal((await post('/control', { action: 'pause' })).status, 204);
    await message('printer.status', (s) => s.state === 'paused', 'paused');
    assert.equal((await liveState()).details.print.state, 'paused');
    assert.equal((await post('/control', { action: 'resume' })).status, 204);
    await message('printer.status', (s) => s.state === 'printing', 'printing again');
    assert.equal((await post('/control', { action: 'stop' })).status, 204);
    await message('print.progress', (p) => p.file === 'api.gcode' && p.state === 'cancelled', 'cancelled');
    await eventually('idle', async () => (await status()).state === 'idle');
    assert.deepEqual([vm.printer.state().hotends[0].target, vm.printer.state().bed.target], [0, 0]);
  });

  test('the cable pulled during a print: offline, back by itself, the print interrupted and not resumed', async () => {
    await printFile('cable.gcode', squares(30, 8, 6000).gcode);
    await message('print.progress', (p) => p.file === 'cable.gcode' && p.progress > 2, 'printing');
    await vm.pullCable();
    await message('print.progress', (p) => p.file === 'cable.gcode' && p.state === 'interrupted', 'the print interrupted');
    await message('printer.status', (s) => !s.online, 'offline');
    assert.ok(!(await status()).online);
    await vm.plugCable();
    const back = await message('printer.status', (s) => s.online, 'back online');
    assert.equal(back.payload.state, 'error');
    assert.match(String(back.payload.error), /cable\.gcode was interrupted/);
    const line = vm.printer.state().lastLineNumber;
    await sleep(300);
    assert.equal(vm.printer.state().lastLineNumber, line, 'nothing more is sent');
    assert.equal((await post('/control', { action: 'stop' })).status, 204);
    await eventually('idle again', async () => (await status()).state === 'idle');
    assert.equal((await liveState()).details.last_print.result, 'interrupted');
  });
});
