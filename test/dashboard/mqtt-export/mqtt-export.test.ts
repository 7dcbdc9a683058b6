/**
 * The MQTT export against Debian's mosquitto, a real dashboard and the virtual Marlin (socat pty,
 * the real driver): a subscriber sees each printer's Home Assistant discovery configs in HA's
 * shape and the availability; the state and temperatures follow a print; a button press on the
 * command topic pauses and resumes the printer; renames update the device; a removed printer's
 * configs are cleared (empty retained payloads); bad settings are refused naming the key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectAsync, type MqttClient } from 'mqtt';
import { mqttExportFeature, printersFeature, settingsFeature } from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { sendToPrinter } from '../../../appliance/dashboard/slicing/send-to-printer.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { startTestBroker, type TestBroker } from '../../fixtures/mosquitto.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';

const WAIT_MS = 30_000;

let broker: TestBroker;
let marlin: VirtualMarlinFixture;
let dash: DashboardFixture;
let subscriber: MqttClient;
let printerId = '';
let node = '';
/** The last payload seen on each topic (retained ones included). */
const seen = new Map<string, string>();

const printer = async () => (await dash.request('get', `/api/printers/${printerId}`, { token: TEST_TOKENS.view })).json;
const untilState = (what: string, states: string[]) => eventually(what, async () => states.includes((await printer()).state), WAIT_MS);
const configOf = (component: string, key: string) => {
  const text = seen.get(`homeassistant/${component}/${node}/${key}/config`);
  return text ? JSON.parse(text) : undefined;
};
const state = () => JSON.parse(seen.get(`printyard/${printerId}/state`) ?? 'null');

before(async () => {
  broker = await startTestBroker();
  marlin = await startVirtualMarlin({ speed: 100 });
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { mqtt: { enabled: true, url: broker.url, min_interval_ms: 100 }, rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    features: [settingsFeature, printersFeature, mqttExportFeature],
    services: { printers: { drivers }, mqtt: { firstRetryMs: 100 } },
  });
  subscriber = await connectAsync(broker.url, { clientId: 'ha-test' });
  subscriber.on('message', (topic, payload) => void seen.set(topic, payload.toString('utf8')));
  await subscriber.subscribeAsync(['homeassistant/#', 'printyard/#']);
  const created = await dash.request('post', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: { name: 'M1', type: 'marlin-serial', connection: { port: marlin.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  printerId = created.json.id;
  node = `printyard_${readFileSync(path.join(dash.dataDir, 'box-id'), 'utf8').trim().slice(0, 8)}_${printerId}`;
  await untilState('the printer online and idle', ['idle']);
});

after(async () => {
  await subscriber?.endAsync();
  await dash?.cleanup();
  await marlin?.stop();
  await broker?.stop();
});

test('each printer is a Home Assistant device: sensors and buttons in the discovery shape, available while connected', async () => {
  const view = await printer();
  // The model is what the firmware reported (M115): the device follows the printer's identity once it is known.
  assert.equal(view.identity?.model, 'Printyard Virtual Marlin');
  const device = { identifiers: [node], name: 'Printyard M1', manufacturer: 'Unknown', model: 'Printyard Virtual Marlin' };
  await eventually('the discovery configs', async () => configOf('button', 'stop')?.device.model === device.model, WAIT_MS);
  const availability = { availability_topic: 'printyard/status', payload_available: 'online', payload_not_available: 'offline', device };
  assert.deepEqual(configOf('sensor', 'nozzle_temperature'), {
    name: 'Nozzle temperature',
    device_class: 'temperature',
    state_class: 'measurement',
    unit_of_measurement: '°C',
    unique_id: `${node}_nozzle_temperature`,
    state_topic: `printyard/${printerId}/state`,
    value_template: '{{ value_json.nozzle_temperature }}',
    ...availability,
  });
  assert.equal(configOf('sensor', 'bed_temperature').device_class, 'temperature');
  assert.deepEqual(
    [
      configOf('sensor', 'progress').unit_of_measurement,
      configOf('sensor', 'time_left').device_class,
      configOf('sensor', 'time_left').unit_of_measurement,
    ],
    ['%', 'duration', 's'],
  );
  assert.equal(configOf('sensor', 'file').value_template, '{{ value_json.file }}');
  assert.deepEqual(configOf('sensor', 'state').options, ['offline', 'connecting', 'idle', 'preparing', 'printing', 'paused', 'finished', 'error']);
  assert.deepEqual(configOf('button', 'pause'), {
    name: 'Pause',
    unique_id: `${node}_pause`,
    command_topic: `printyard/${printerId}/command`,
    payload_press: 'PAUSE',
    ...availability,
  });
  assert.equal(seen.get('printyard/status'), 'online');
  const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json;
  assert.deepEqual(info.mqtt, {
    enabled: true,
    connected: true,
    broker: `${broker.url}`,
    last_error: null,
    printers: 1,
    commands: 0,
  });
});

test('the state follows a print; a pause button press pauses the virtual printer, resume resumes it', async () => {
  // The virtual printer may still be connecting on a busy machine: wait for its idle state on the topic.
  await eventually('the printer idle on the state topic', () => state()?.state === 'idle', WAIT_MS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-mqtt-'));
  try {
    const lines = ['M104 S200', 'M140 S60', 'M109 S200', 'G28', 'G90'];
    for (let i = 0; i < 4000; i++) lines.push(`G1 X${10 + (i % 2) * 100} Y${10 + (i % 3) * 50} F6000`);
    const file = path.join(dir, 'cube.gcode');
    writeFileSync(file, `${lines.join('\n')}\nM104 S0\n`);
    await sendToPrinter(dash.server.services.printers, printerId, file, 'gcode', { user: 'admin', sliced: null, spools: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await eventually(
    'printing, hot, with the file on the state topic',
    async () => {
      const s = state();
      return s.state === 'printing' && s.nozzle_temperature >= 150 && s.bed_temperature > 25 && s.file === 'cube.gcode';
    },
    WAIT_MS,
  );

  await subscriber.publishAsync(`printyard/${printerId}/command`, 'PAUSE');
  await untilState('paused by the MQTT button', ['paused']);
  await eventually('paused on the state topic', async () => state().state === 'paused', WAIT_MS);
  await subscriber.publishAsync(`printyard/${printerId}/command`, 'RESUME');
  await untilState('resumed by the MQTT button', ['printing']);
  await subscriber.publishAsync(`printyard/${printerId}/command`, 'STOP');
  await untilState('stopped by the MQTT button', ['idle', 'finished']);
  // A command is counted once its control has answered, which may be after the printer's new state.
  await eventually(
    'three commands counted',
    async () => (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json.mqtt.commands === 3,
    WAIT_MS,
  );
});

test('a command role below print is refused, as an API key of that role would be', async () => {
  const patched = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { mqtt: { command_role: 'view' } } });
  assert.equal(patched.status, 200, patched.text);
  const commands = async () => (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json.mqtt.commands;
  const done = await commands();
  // Pressed until the reconnected export (now acting as view) answers: it refuses and says why.
  await eventually(
    'the refusal',
    async () => {
      await subscriber.publishAsync(`printyard/${printerId}/command`, 'PAUSE');
      return /refused an MQTT command: mqtt\.command_role may not control printers/.test(dash.logs());
    },
    WAIT_MS,
  );
  assert.equal(await commands(), done, 'no command was carried out');
  await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { mqtt: { command_role: 'print' } } });
});

test('buttons off: their configs are cleared while the sensors stay; back on, they return', async () => {
  const off = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { mqtt: { buttons: false } } });
  assert.equal(off.status, 200, off.text);
  await eventually(
    'the button configs cleared',
    async () => ['pause', 'resume', 'stop'].every((a) => seen.get(`homeassistant/button/${node}/${a}/config`) === ''),
    WAIT_MS,
  );
  assert.equal(configOf('sensor', 'state').name, 'State', 'the sensors stay');
  const on = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { mqtt: { buttons: true } } });
  assert.equal(on.status, 200, on.text);
  await eventually('the buttons back', async () => configOf('button', 'pause')?.payload_press === 'PAUSE', WAIT_MS);
});

test('a printer rename and a box rename update the device', async () => {
  const renamed = await dash.request('put', `/api/printers/${printerId}`, { token: TEST_TOKENS.admin, body: { name: 'Left' } });
  assert.equal(renamed.status, 200, renamed.text);
  await eventually('the printer rename', async () => configOf('sensor', 'state')?.device.name === 'Printyard Left', WAIT_MS);
  const box = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { box: { name: 'Farm' } } });
  assert.equal(box.status, 200, box.text);
  await eventually('the box rename', async () => configOf('button', 'stop')?.device.name === 'Farm Left', WAIT_MS);
});

test('a lost broker: the export retries with its backoff and, once back, says online and re-sends the configs', async () => {
  const info = async () => (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json.mqtt;
  await broker.kill();
  await eventually('the loss seen', async () => (await info()).connected === false, WAIT_MS);
  seen.clear();
  await new Promise((resolve) => setTimeout(resolve, 500)); // a few failed attempts
  await broker.start();
  await eventually('reconnected', async () => (await info()).connected === true, WAIT_MS);
  await eventually('configs re-sent to the fresh broker', async () => configOf('sensor', 'state')?.device.name === 'Farm Left', WAIT_MS);
  assert.equal(seen.get('printyard/status'), 'online');
});

test("a removed printer's discovery configs are cleared with empty retained payloads", async () => {
  const removed = await dash.request('delete', `/api/printers/${printerId}`, { token: TEST_TOKENS.admin });
  assert.equal(removed.status, 204, removed.text);
  await eventually('cleared', async () => seen.get(`homeassistant/sensor/${node}/state/config`) === '', WAIT_MS);
  const late = await connectAsync(broker.url, { clientId: 'ha-late' });
  const retained: string[] = [];
  late.on('message', (topic, payload) => void (payload.length > 0 && retained.push(topic)));
  await late.subscribeAsync('homeassistant/#');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await late.endAsync();
  assert.deepEqual(retained, [], 'no config is left retained for a new Home Assistant');
});

test('configs of printers removed while the export was off are cleared when it connects', async () => {
  const staleNode = node.replace(printerId, 'deadbeef00000000');
  const otherBox = `printyard_00000000_deadbeef00000000`;
  await subscriber.publishAsync(`homeassistant/sensor/${staleNode}/state/config`, '{"name":"State"}', { retain: true });
  await subscriber.publishAsync(`homeassistant/sensor/${otherBox}/state/config`, '{"name":"State"}', { retain: true });
  const patched = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { mqtt: { min_interval_ms: 200 } } });
  assert.equal(patched.status, 200, patched.text);
  await eventually('the stale config cleared', async () => seen.get(`homeassistant/sensor/${staleNode}/state/config`) === '', WAIT_MS);
  assert.equal(seen.get(`homeassistant/button/${staleNode}/stop/config`), '');
  assert.equal(seen.get(`homeassistant/sensor/${otherBox}/state/config`), '{"name":"State"}', "another box's printers are left alone");
  await subscriber.publishAsync(`homeassistant/sensor/${otherBox}/state/config`, '', { retain: true });
});

test('bad settings are refused naming the key', async () => {
  const bad = await dash.request('patch', '/api/settings', {
    token: TEST_TOKENS.admin,
    body: { mqtt: { url: 'http://127.0.0.1:1883', base_topic: 'printyard/#', command_role: 'root' } },
  });
  expectError(bad, 400, 'ERR_VALIDATION', /mqtt\.url must be an mqtt:\/\/ or mqtts:\/\/ URL/);
  assert.match(bad.json.error, /mqtt\.base_topic must be a topic of letters/);
  assert.match(bad.json.error, /mqtt\.command_role must be one of view, print, admin/);
  await assert.rejects(
    startDashboardFixture({ config: { mqtt: { url: 'broker:1883' } }, features: [settingsFeature, mqttExportFeature] }),
    /config\.json: mqtt\.url must be an mqtt:\/\/ or mqtts:\/\/ URL/,
  );
});
