/**
 * The GPIO roles on a real dashboard with the virtual Marlin (socat pty, the real driver), the
 * queue and history, on a simulated chip: a bad pin map is refused naming the pin; the plate
 * button confirms the plate and the queue dispatches the waiting job; the power relay goes on
 * before the dispatch and off once the print has ended and the hot end has cooled below its
 * limit, after its delay; the status LED follows (steady when idle, a 1 s blink while printing,
 * the error and updating patterns when told); a filament run-out pauses the print and notifies;
 * the emergency stop cuts the relay, stops the print and notifies; an admin switches the relay;
 * slice-and-send's printer side switches the relay on before its upload too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sendToPrinter } from '../../../appliance/dashboard/slicing/send-to-printer.js';
import { SimulatedChip, type SimulatedWrite } from '../../../appliance/hardware/gpio/simulated-chip.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import {
  gpioFeature,
  historyFeature,
  inventoryFeature,
  notificationsFeature,
  printersFeature,
  queueFeature,
} from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { postJob, TEST_TOKENS } from '../queue/queue-dashboard.js';

const WAIT_MS = 60_000;
const RELAY = 17;
const RUNOUT = 27;
const PLATE = 22;
const ESTOP = 23;
const LED = 25;

let dash: DashboardFixture;
let marlin: VirtualMarlinFixture;
let printerId = '';
const chip = new SimulatedChip();
const dispatchedAt: number[] = [];
const plateChanges: Array<{ state: string; by: string }> = [];

/** A print that heats the hot end, moves `moves` times and switches the heater off at the end. */
function printFile(moves: number): string {
  const lines = ['M104 S200', 'M109 S200', 'G28', 'G90'];
  for (let i = 0; i < moves; i++) lines.push(`G1 X${10 + (i % 2) * 100} Y${10 + (i % 3) * 50} F6000`);
  lines.push('M104 S0', 'M84');
  return `${lines.join('\n')}\n`;
}

const gpio = async () => (await dash.request('get', '/api/hardware/gpio', { token: TEST_TOKENS.view })).json;
const pinView = async (pin: number) => (await gpio()).pins.find((p: any) => p.pin === pin);
const printer = async () => (await dash.request('get', `/api/printers/${printerId}`, { token: TEST_TOKENS.view })).json;
const untilState = (what: string, states: string[]) => eventually(what, async () => states.includes((await printer()).state), WAIT_MS);
const writesOf = (pin: number, since = 0): SimulatedWrite[] => chip.writes.filter((w) => w.pin === pin && w.at >= since);
const notifications = async () => (await dash.request('get', '/api/notifications', { token: TEST_TOKENS.view })).json.items as any[];

/** A button press as a contact makes it: bouncing, then held a while, then released. */
async function press(pin: number): Promise<void> {
  for (const level of [1, 0, 1, 0, 1] as const) chip.drive(pin, level);
  await new Promise((resolve) => setTimeout(resolve, 120));
  chip.drive(pin, 0);
}

before(async () => {
  marlin = await startVirtualMarlin({ speed: 100 });
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { queue: { retry_delay_ms: 200, round_interval_s: 1 }, rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    features: [notificationsFeature, printersFeature, inventoryFeature, historyFeature, queueFeature, gpioFeature],
    services: { printers: { drivers }, gpio: { chip } },
  });
  dash.server.context.bus.on('print.dispatched', () => dispatchedAt.push(performance.now()));
  dash.server.context.bus.on('printer.plate', (change) => plateChanges.push({ state: change.state, by: change.by }));
  const created = await dash.request('post', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: { name: 'M1', type: 'marlin-serial', connection: { port: marlin.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  printerId = created.json.id;
  await untilState('the printer online and idle', ['idle']);
});

after(async () => {
  await dash?.cleanup();
  await marlin?.stop();
});

test('a bad pin map is refused naming the pin and role; nothing is applied', async () => {
  const refused = await dash.request('put', '/api/hardware/gpio/config', {
    token: TEST_TOKENS.admin,
    body: {
      pins: [
        { pin: RELAY, role: 'power_relay', printer_id: printerId },
        { pin: RELAY, role: 'door', printer_id: printerId },
        { pin: 30, role: 'filament_runout', printer_id: 'gone' },
      ],
    },
  });
  expectError(refused, 400, 'ERR_VALIDATION', /body\/pins\/2\/pin \(GPIO 30, filament_runout\): pin must be a BCM GPIO number/);
  assert.match(refused.json.error, /body\/pins\/2\/printer_id \(GPIO 30, filament_runout\): printer_id "gone" is not a printer/);
  const forViewers = await dash.request('put', '/api/hardware/gpio/config', { token: TEST_TOKENS.print, body: { pins: [] } });
  expectError(forViewers, 403, 'ERR_FORBIDDEN');
  assert.deepEqual((await gpio()).pins, []);
  assert.equal(chip.isExported(RELAY), false);
});

test('the pin map applies: lines exported, relay off, LED steady (idle)', async () => {
  const put = await dash.request('put', '/api/hardware/gpio/config', {
    token: TEST_TOKENS.admin,
    body: {
      pins: [
        { pin: RELAY, role: 'power_relay', printer_id: printerId, active_low: true, off_below_c: 50, off_delay_s: 1 },
        { pin: RUNOUT, role: 'filament_runout', printer_id: printerId, debounce_ms: 30 },
        { pin: PLATE, role: 'plate_cleared', printer_id: printerId, active_low: true, debounce_ms: 30 },
        { pin: ESTOP, role: 'emergency_stop', debounce_ms: 30 },
        { pin: LED, role: 'status_led' },
      ],
    },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.json.pins[0].off_delay_s, 1);
  const view = await gpio();
  assert.equal(view.available, true);
  assert.deepEqual(view.chip, { label: 'simulated', base: 0, ngpio: 28 });
  assert.deepEqual(
    view.pins.map((p: any) => [p.pin, p.direction, p.value, p.problem]),
    [
      [RELAY, 'out', 0, null],
      [RUNOUT, 'in', 0, null],
      [PLATE, 'in', 0, null],
      [ESTOP, 'in', 0, null],
      [LED, 'out', 1, null],
    ],
  );
  assert.equal(view.pins[0].printer_name, 'M1');
  assert.deepEqual(view.led, { pattern: 'idle', override: null });
  const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view })).json;
  assert.equal(info.gpio.available, true);
  assert.equal(info.gpio.pins, 5);
  // Stored: a restart reads the same map.
  const stored = await dash.request('get', '/api/hardware/gpio/config', { token: TEST_TOKENS.view });
  assert.equal(stored.json.pins.length, 5);
});

test('the plate button confirms the plate; the relay goes on before the dispatch, off after the print and the cool-down', async () => {
  const added = await postJob(dash, 'short.gcode', printFile(20));
  assert.equal(added.status, 201, added.text);
  const jobId = added.json.id;
  await eventually('the job waits for the plate', async () => {
    const job = (await dash.request('get', `/api/queue/${jobId}`, { token: TEST_TOKENS.view })).json;
    return /plate not cleared/.test(job.waiting_reason ?? '');
  });
  assert.equal(dispatchedAt.length, 0);
  assert.equal(chip.level(RELAY), 0);

  await press(PLATE);
  await eventually('the job dispatched', () => dispatchedAt.length > 0, WAIT_MS);
  assert.deepEqual(plateChanges[0], { state: 'clear', by: 'plate button (GPIO 22)' });
  const on = writesOf(RELAY).find((w) => w.value === 1);
  assert.ok(on, 'the relay was switched on');
  assert.ok(on.at < dispatchedAt[0], 'the relay was on before the print was announced and started');

  await eventually('the LED blinks while printing', async () => (await gpio()).led.pattern === 'printing', WAIT_MS);
  const job = await eventually(
    'the copy done',
    async () => {
      const j = (await dash.request('get', `/api/queue/${jobId}`, { token: TEST_TOKENS.view })).json;
      return j.state === 'done' ? j : null;
    },
    WAIT_MS,
  );
  assert.equal(job.copies_done, 1);
  const endedAt = performance.now();
  // Not off at the end of the print: the hot end is still hot.
  assert.equal(chip.level(RELAY), 1);
  const off = await eventually('the relay off after the cool-down', () => writesOf(RELAY, on.at).find((w) => w.value === 0), WAIT_MS);
  assert.ok(off.at > endedAt, 'off only after the print ended');
  const relay = (await pinView(RELAY)).relay;
  assert.equal(relay.on, false);
  assert.ok(relay.hottest_c !== null && relay.hottest_c < 50, `cooled below 50 °C, was ${relay.hottest_c}`);
  assert.ok(marlin.printer.state().hotends[0].temperature < 50);
  await eventually('the LED steady again', async () => (await gpio()).led.pattern === 'idle', WAIT_MS);
});

test('the LED: a 1 s blink while printing, a run-out pauses the print and notifies, the emergency stop cuts and stops', async () => {
  await press(PLATE);
  const added = await postJob(dash, 'long.gcode', printFile(4000));
  assert.equal(added.status, 201, added.text);
  await untilState('printing', ['printing']);
  assert.equal(chip.level(RELAY), 1);
  const since = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3500));
  const blinks = writesOf(LED, since);
  assert.ok(blinks.length >= 2, `the LED toggled ${blinks.length} times in 3.5 s`);
  for (let i = 1; i < blinks.length; i++) {
    assert.notEqual(blinks[i].value, blinks[i - 1].value);
    assert.ok(blinks[i].at - blinks[i - 1].at >= 980, `a blink of ${blinks[i].at - blinks[i - 1].at} ms`);
  }

  chip.drive(RUNOUT, 1);
  await untilState('paused by the run-out sensor', ['paused']);
  const warning = await eventually('the run-out notification', async () => (await notifications()).find((n) => n.kind === 'gpio.input'));
  assert.equal(warning.level, 'warning');
  assert.match(warning.title, /Filament ran out on M1/);
  assert.match(warning.message, /GPIO 27\)\. The print was paused\./);
  chip.drive(RUNOUT, 0);

  await press(ESTOP);
  await untilState('stopped by the emergency stop', ['idle', 'finished', 'error']);
  assert.equal(chip.level(RELAY), 0, 'the emergency stop cut the power');
  const stop = await eventually('the emergency stop notification', async () =>
    (await notifications()).find((n) => n.kind === 'gpio.input' && n.level === 'error'),
  );
  assert.match(stop.message, /GPIO 23 was pressed\. M1: power cut, print stopped\./);
});

test('admins switch the relay; the LED shows an override and follows the printers again', async () => {
  const byPrint = await dash.request('post', `/api/hardware/gpio/${RELAY}`, { token: TEST_TOKENS.print, body: { on: true } });
  expectError(byPrint, 403, 'ERR_FORBIDDEN');
  const switched = await dash.request('post', `/api/hardware/gpio/${RELAY}`, { token: TEST_TOKENS.admin, body: { on: true } });
  assert.equal(switched.status, 200, switched.text);
  assert.equal(switched.json.value, 1);
  assert.equal(chip.level(RELAY), 1);
  expectError(await dash.request('post', `/api/hardware/gpio/${LED}`, { token: TEST_TOKENS.admin, body: { on: true } }), 409, 'ERR_CONFLICT');
  expectError(await dash.request('post', '/api/hardware/gpio/5', { token: TEST_TOKENS.admin, body: { on: true } }), 404, 'ERR_NOT_FOUND');
  await dash.request('post', `/api/hardware/gpio/${RELAY}`, { token: TEST_TOKENS.admin, body: { on: false } });
  assert.equal(chip.level(RELAY), 0);

  for (const [pattern, period] of [
    ['error', 150],
    ['updating', 100],
  ] as const) {
    const set = await dash.request('put', '/api/hardware/gpio/led', { token: TEST_TOKENS.admin, body: { override: pattern } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.json, { pattern, override: pattern });
    const since = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const blinks = writesOf(LED, since);
    assert.ok(blinks.length >= 4, `${pattern}: ${blinks.length} toggles in 1.6 s`);
    const shortest = Math.min(...blinks.slice(1).map((w, i) => w.at - blinks[i].at));
    assert.ok(shortest >= period - 20, `${pattern}: the shortest phase lasted ${shortest} ms`);
  }
  const back = await dash.request('put', '/api/hardware/gpio/led', { token: TEST_TOKENS.admin, body: { override: null } });
  assert.deepEqual(back.json, { pattern: 'idle', override: null });
  assert.equal(chip.level(LED), 1);
});

test("slice-and-send's printer side switches the relay on before it uploads and starts", async () => {
  assert.equal(chip.level(RELAY), 0);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-gpio-send-'));
  const startingAt: number[] = [];
  const off = dash.server.context.bus.on('print.starting', () => startingAt.push(performance.now()));
  try {
    const file = path.join(dir, 'direct.gcode');
    writeFileSync(file, printFile(4000));
    const since = performance.now();
    const sent = await sendToPrinter(dash.server.services.printers, printerId, file, 'gcode', { user: 'admin', sliced: null, spools: null });
    assert.equal(sent.started, true);
    const on = writesOf(RELAY, since).find((w) => w.value === 1);
    assert.ok(on && startingAt.length === 1 && on.at < startingAt[0], 'on before the start was announced');
    await untilState('printing', ['printing', 'preparing']);
    const stopped = await dash.request('post', `/api/printers/${printerId}/control`, { token: TEST_TOKENS.print, body: { action: 'stop' } });
    assert.equal(stopped.status, 204, stopped.text);
    await untilState('stopped', ['idle', 'finished']);
  } finally {
    off();
    rmSync(dir, { recursive: true, force: true });
  }
});
