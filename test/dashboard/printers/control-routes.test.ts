import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceOptions } from '../../../appliance/dashboard/services.js';
import { validate } from '../../../appliance/common/json-schema.js';
import { liveStateSchema } from '../../../appliance/dashboard/printers/control-schemas.js';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { BambuTestClient } from '../../fixtures/bambu-mqtt-client.js';
import { loginAs } from '../../fixtures/dashboard-auth.js';
import { expectError, startDashboardFixture, type DashboardFixture, type TestResponse } from '../../fixtures/dashboard.js';
import { FtpsClient } from '../../fixtures/ftps-client.js';
import { bambuGcode, gcode3mf, startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import { TEST_TIMINGS } from './families/bambu-lan/driver-harness.js';
import { eventually } from '../../fixtures/eventually.js';

let vb: VirtualBambu;
let dash: DashboardFixture;
let admin: string;
let operator: string;
let viewer: string;
let id: string;
let ws: TestClient;

/** The real composition, with the Bambu driver on test timings and a quick reconnect. */
function printersOnBambu(): ServiceOptions {
  const drivers = new DriverRegistry();
  drivers.register('bambu-lan', bambuLanDriverFactory(TEST_TIMINGS));
  return { printers: { drivers, backoff: { initialMs: 200, maxMs: 1_000, stableMs: 60_000 } } };
}

async function status(printer = id): Promise<Record<string, any>> {
  return (await dash.request('GET', `/api/printers/${printer}/status`, { token: viewer })).json;
}

/** The next WebSocket message of `type` whose payload matches, within 15 s. */
function message(type: string, match: (payload: Record<string, any>) => boolean, what: string): Promise<Received> {
  return ws.nextMatching(type, match, what);
}

const post = (path: string, body: unknown, token = operator): Promise<TestResponse> =>
  dash.request('POST', `/api/printers/${id}${path}`, { token, body });

before(async () => {
  vb = await startVirtualBambu({ model: 'P1S' });
  dash = await startDashboardFixture({ services: printersOnBambu(), config: { rate_limit: { enabled: false } } });
  admin = await loginAs(dash, 'admin');
  operator = await loginAs(dash, 'print');
  viewer = await loginAs(dash, 'view');
  const badPort = await dash.request('POST', '/api/printers', {
    token: admin,
    body: { name: 'bad port', type: 'bambu-lan', connection: { host: vb.host, serial: vb.serial, access_code: vb.accessCode, mqtt_port: 0 } },
  });
  assert.deepEqual([badPort.status, badPort.json.details.map((d: { path: string }) => d.path)], [400, ['body/connection/mqtt_port']]);
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: {
      name: 'P1S virtual',
      type: 'bambu-lan',
      connection: { host: vb.host, serial: vb.serial, access_code: vb.accessCode, ca: vb.caPem, mqtt_port: vb.mqttPort, ftps_port: vb.ftpsPort },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual([created.json.connection.mqtt_port, created.json.connection.ftps_port], [vb.mqttPort, vb.ftpsPort]);
  id = created.json.id;
  ws = connect(wsUrl(dash.url, `?token=${viewer}`));
  await ws.opened;
  await ws.nextOfType('hello');
  await eventually('online', async () => (await status()).state === 'idle');
});

after(async () => {
  ws?.ws.terminate();
  await dash?.cleanup();
  await vb?.stop();
});

describe('a Bambu printer on the virtual printer', () => {
  test('GET /status and /state: live, read-only, in the documented shape', async () => {
    const live = await dash.request('GET', `/api/printers/${id}/state`, { token: viewer });
    assert.equal(live.status, 200, live.text);
    assert.deepEqual(validate(liveStateSchema, live.json, 'state'), []);
    assert.equal(live.json.online, true);
    assert.deepEqual(live.json.capabilities, {
      upload: true,
      ams: true,
      camera: false,
      gcode_console: true,
      actions: ['home', 'jog', 'temperature', 'fan', 'light', 'speed', 'load_filament', 'unload_filament'],
    });
    assert.equal(live.json.ams.units[0].trays[2].material, 'PETG');
    assert.deepEqual([live.json.details.gcode_state, live.json.details.speed_level, live.json.details.developer_mode], ['IDLE', 2, null]);
    const printer = await dash.request('GET', `/api/printers/${id}`, { token: viewer });
    assert.deepEqual(printer.json.identity, { vendor: 'Bambu Lab', model: 'P1S', firmware: '01.08.02.00' });
  });

  test('levels: view reads; print drives; nobody without credentials', async () => {
    for (const [path, body] of [
      ['/command', { command: 'G28' }],
      ['/control', { action: 'pause' }],
      ['/actions/home', {}],
    ] as const) {
      expectError(await post(path, body, viewer), 403, 'ERR_FORBIDDEN');
      expectError(await dash.request('POST', `/api/printers/${id}${path}`, { body }), 401, 'ERR_UNAUTHORIZED');
    }
    expectError(await dash.request('GET', `/api/printers/${id}/state`), 401, 'ERR_UNAUTHORIZED');
    expectError(await dash.request('GET', '/api/printers/0000000000000000/state', { token: viewer }), 404, 'ERR_NOT_FOUND');
    expectError(await dash.request('POST', '/api/printers/0000000000000000/actions/home', { token: operator, body: {} }), 404, 'ERR_NOT_FOUND');
  });

  test('actions and G-code change the printer; printer.status shows it on the WebSocket', async () => {
    assert.equal((await post('/actions/temperature', { heater: 'bed', target: 60 })).status, 204);
    await message('printer.status', (s) => s.printer_id === id && s.temperatures.bed?.target === 60, 'bed target 60');
    const gcode = await post('/command', { command: 'M106 P1 S255\nM104 S150' });
    assert.equal(gcode.status, 200, gcode.text);
    assert.deepEqual(gcode.json, { lines: [] });
    await message('printer.status', (s) => s.fans.part === 100 && s.temperatures.tool0.target === 150, 'part fan and nozzle');
    assert.equal((await post('/actions/fan', { fan: 'part', percent: 0 })).status, 204);
    assert.equal((await post('/actions/light', { on: false })).status, 204);
    assert.equal((await post('/actions/speed', { level: 'silent' })).status, 204);
    await eventually(
      'silent speed',
      async () => (await dash.request('GET', `/api/printers/${id}/state`, { token: viewer })).json.details.speed_level === 1,
    );
    assert.equal((await post('/actions/speed', { level: 'standard' })).status, 204);
    assert.equal((await post('/actions/home', { axes: ['x', 'y'] })).status, 204);
    assert.equal((await post('/actions/jog', { z: 5 })).status, 204);
    await eventually('speed and light in /state', async () => {
      const { details } = (await dash.request('GET', `/api/printers/${id}/state`, { token: viewer })).json;
      return details.speed_level === 2 && details.lights.chamber_light === 'off';
    });
    await post('/command', { command: 'M104 S0\nM140 S0' });
  });

  test('422 for what this printer can never do, 400 for bodies that do not fit, 409 for what it cannot do now', async () => {
    expectError(await post('/actions/tool_change', { tool: 1 }), 422, 'ERR_UNSUPPORTED_ACTION', /do not offer the "tool_change" action/);
    expectError(await post('/actions/load_filament', { tray: 9 }), 422, 'ERR_UNSUPPORTED_ACTION', /no tray 9/);
    expectError(await post('/actions/load_filament', { tray: 'spool' }), 400, 'ERR_VALIDATION');
    expectError(await post('/actions/speed', { percent: 120 }), 422, 'ERR_UNSUPPORTED_ACTION', /speed level/);
    expectError(await post('/actions/light', { light: 'work', on: true }), 422, 'ERR_UNSUPPORTED_ACTION', /no work light/);
    expectError(await post('/actions/temperature', { heater: 'chamber', target: 40 }), 422, 'ERR_UNSUPPORTED_ACTION');
    expectError(await post('/actions/temperature', { heater: 'tool0', target: 350 }), 400, 'ERR_VALIDATION', /at most 300/);
    expectError(await post('/actions/jog', { feedrate: 100 }), 400, 'ERR_VALIDATION');
    expectError(await post('/actions/speed', { level: 'sport', percent: 120 }), 400, 'ERR_VALIDATION');
    expectError(await post('/control', { action: 'launch' }), 400, 'ERR_VALIDATION');
    expectError(await post('/command', { command: '   \n  ' }), 400, 'ERR_VALIDATION');
    expectError(await post('/control', { action: 'pause' }), 409, 'ERR_CONFLICT', /cannot pause: the printer is IDLE/);
    expectError(await post('/control', { action: 'resume' }), 409, 'ERR_CONFLICT');
  });

  test('a print started elsewhere: print.progress on the WebSocket, pause/resume/stop through /control', async () => {
    const { client: ftps } = await FtpsClient.connect({ host: vb.host, port: vb.ftpsPort, ca: vb.caPem, servername: vb.serial });
    await ftps.login('bblp', vb.accessCode);
    assert.equal((await ftps.upload('screen.gcode.3mf', gcode3mf(bambuGcode(12, 20)))).code, 226);
    await ftps.quit();
    const studio = await BambuTestClient.connect(vb);
    try {
      studio.request('print', 'project_file', {
        param: 'Metadata/plate_1.gcode',
        url: 'ftp://screen.gcode.3mf',
        use_ams: false,
        subtask_name: 'screen',
      });
      await message('print.progress', (p) => p.printer_id === id && p.file === 'screen' && p.progress > 0, 'progress of the print');
    } finally {
      await studio.end();
    }
    await eventually('printing', async () => (await status()).state === 'printing');
    expectError(await post('/actions/jog', { x: 10 }), 409, 'ERR_CONFLICT', /while the printer is RUNNING/);
    assert.equal((await post('/control', { action: 'pause' })).status, 204);
    await message('printer.status', (s) => s.state === 'paused', 'paused');
    assert.equal((await post('/control', { action: 'resume' })).status, 204);
    await message('printer.status', (s) => s.state === 'printing', 'printing again');
    assert.equal((await post('/control', { action: 'stop' })).status, 204);
    const stopped = await message('printer.status', (s) => s.state === 'error', 'stopped');
    assert.match(String(stopped.payload.error), /cancelled/);
  });

  test('ams.update on the WebSocket when a tray changes', async () => {
    const tray = vb.printer.state.ams[0].trays[3];
    assert.ok(tray);
    tray.remain = 12;
    const update = await message('ams.update', (a) => a.printer_id === id && a.units[0]?.trays[3]?.remaining_percent === 12, 'tray 3 at 12 %');
    assert.equal((update.payload as Record<string, any>).units[0].trays[3].material, 'PLA');
  });

  test('load and unload filament through /actions; ams.update on the WebSocket shows the tray in use', async () => {
    assert.equal((await post('/actions/load_filament', { tray: 2 })).status, 204);
    const loaded = await message('ams.update', (a) => a.printer_id === id && a.active_tray === 2, 'tray 2 in use');
    assert.equal((loaded.payload as Record<string, any>).units[0].trays[2].material, 'PETG');
    assert.equal(vb.printer.state.trayNow, 2);
    await eventually(
      'the change finished',
      async () => (await dash.request('GET', `/api/printers/${id}/state`, { token: viewer })).json.details.stage === 255,
    );
    assert.equal((await post('/actions/unload_filament', {})).status, 204);
    await message('ams.update', (a) => a.printer_id === id && a.active_tray === null, 'no tray in use');
    assert.equal(vb.printer.state.trayNow, 255);
  });

  test('developer mode off: the action is refused with 409 naming it', async () => {
    await vb.setFault('developerModeOff', true);
    try {
      expectError(await post('/actions/light', { on: true }), 409, 'ERR_CONFLICT', /Developer Mode/);
      const live = await dash.request('GET', `/api/printers/${id}/state`, { token: viewer });
      assert.equal(live.json.details.developer_mode, false);
    } finally {
      await vb.setFault('developerModeOff', false);
    }
  });

  test('a broker restart: offline, then back by itself', async () => {
    await vb.restartBroker();
    await eventually('back online', async () => (await status()).state !== 'offline' && (await status()).online);
    assert.match(dash.logs(), /connection to the printer lost/);
  });

  test('a wrong access code: offline saying so, and no reconnect loop', async () => {
    await vb.setFault('wrongAccessCode', true);
    try {
      await eventually('refused', async () => /refused the access code/.test((await status()).error ?? ''));
      const attempts = () => (dash.logs().match(/cannot connect/g) ?? []).length;
      const seen = attempts();
      await sleep(1_500);
      assert.equal(attempts(), seen, 'with a 200 ms backoff, a retrying manager would have tried again');
      expectError(await post('/actions/home', {}), 409, 'ERR_CONFLICT', /not connected \(cannot connect: the printer refused the access code/);
      expectError(await post('/actions/tool_change', { tool: 1 }), 422, 'ERR_UNSUPPORTED_ACTION', undefined);
    } finally {
      await vb.setFault('wrongAccessCode', false);
    }
    assert.equal((await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { enabled: false } })).status, 200);
    assert.equal((await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { enabled: true } })).status, 200);
    await eventually('online again after the settings changed', async () => (await status()).online);
  });
});

describe('printers that are not connected', () => {
  test('a disabled printer: /state without capabilities, commands 409', async () => {
    const created = await dash.request('POST', '/api/printers', {
      token: admin,
      body: {
        name: 'parked',
        type: 'bambu-lan',
        enabled: false,
        connection: { host: '127.0.0.1', serial: '01P00A000000999', access_code: '12345678', mqtt_port: 1 },
      },
    });
    assert.equal(created.status, 201, created.text);
    const parked = created.json.id as string;
    const live = await dash.request('GET', `/api/printers/${parked}/state`, { token: viewer });
    assert.deepEqual([live.json.online, live.json.capabilities, live.json.ams, live.json.details], [false, null, null, {}]);
    const refused = await dash.request('POST', `/api/printers/${parked}/control`, { token: operator, body: { action: 'stop' } });
    expectError(refused, 409, 'ERR_CONFLICT', /"parked" is not connected \(printer is disabled\)/);
  });
});
