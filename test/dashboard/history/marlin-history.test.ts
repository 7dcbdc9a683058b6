/**
 * History of a Marlin printer's host prints, through the real dashboard and driver against the
 * virtual Marlin: a user's print to the end (filament from the extruded length, off the spool
 * loaded on T0, once), a print stopped (cancelled), the dashboard restarted in the middle of a
 * print (one record, closed as interrupted), and a print the firmware kills (failed).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gramsOf } from '../../../appliance/dashboard/history/filament.js';
import type { HistoryRecord } from '../../../appliance/dashboard/history/record.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import type { ServiceOptions } from '../../../appliance/dashboard/services.js';
import { sendToPrinter } from '../../../appliance/dashboard/slicing/send-to-printer.js';
import { loginAs } from '../../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { TEST_TIMINGS } from '../printers/families/marlin-serial/driver-harness.js';
import { squares } from '../printers/families/marlin-serial/gcode-samples.js';
import { historyList, recordOf } from './harness.js';

let vm: VirtualMarlinFixture;
let dash: DashboardFixture;
let viewer: string;
let operator: string;
let id: string;
const ledger = new MemorySpools([{ id: 1, material: 'PLA', color_hex: '#ff0000', price: 25, initial_weight_g: 1000 }]);
const added: HistoryRecord[] = [];

function services(): ServiceOptions {
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory(TEST_TIMINGS));
  return { printers: { drivers, backoff: { initialMs: 200, maxMs: 1_000, stableMs: 60_000 } }, history: { ledger } };
}

async function startDashboard(dataDir?: string): Promise<void> {
  dash = await startDashboardFixture({ services: services(), config: { rate_limit: { enabled: false } }, ...(dataDir ? { dataDir } : {}) });
  dash.server.context.bus.on('history.added', (record) => void added.push(record));
  viewer = await loginAs(dash, 'view');
  operator = await loginAs(dash, 'print');
}

async function state(): Promise<string> {
  return (await dash.request('GET', `/api/printers/${id}/status`, { token: viewer })).json.state;
}

/** Starts a print as a user's slice-and-send does (announced for `user`), or straight on the driver (nobody announced it). */
async function print(name: string, gcode: string, user: string | null | undefined): Promise<void> {
  const dir = path.join(dash.dataDir, 'sources');
  mkdirSync(dir, { recursive: true });
  const source = path.join(dir, name);
  writeFileSync(source, gcode);
  if (user !== undefined) {
    await sendToPrinter(dash.server.services.printers, id, source, 'gcode', { user, sliced: null, spools: null });
    return;
  }
  const driver = dash.server.services.printers.manager.driver(id);
  assert.ok(driver);
  await driver.upload({ path: source }, name);
  await driver.start(name);
}

before(async () => {
  vm = await startVirtualMarlin();
  await startDashboard();
  const admin = await loginAs(dash, 'admin');
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: { name: 'Marlin one', type: 'marlin-serial', connection: { port: vm.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  id = created.json.id;
  ledger.load(1, id, { kind: 'tool', tool: 0 });
  await eventually('online', async () => (await state()) === 'idle');
});

after(async () => {
  await dash?.cleanup();
  await vm?.stop();
});

describe('history of a Marlin printer', () => {
  test("a user's print to the end: one record, the user, filament by length off the loaded spool, its cost, booked once", async () => {
    const sample = squares(6, 8, 6000);
    await print('cube.gcode', sample.gcode, 'alice');
    const open = await recordOf(dash, viewer, 'cube.gcode', (r) => r.state === 'printing', 'the open record');
    assert.deepEqual(open.started_by, { kind: 'user', user: 'alice', job_id: null, copy: null });
    const record = await recordOf(dash, viewer, 'cube.gcode', (r) => r.state === 'finished', 'the finished record');
    assert.equal(record.id, open.id);
    assert.deepEqual([record.printer_id, record.printer_name, record.printer_type, record.progress], [id, 'Marlin one', 'marlin-serial', 100]);
    assert.ok(record.duration_s !== null && record.duration_s >= 0 && record.ended_at !== null);
    assert.equal(record.error, null);
    assert.equal(record.filament.length, 1);
    const [used] = record.filament;
    assert.deepEqual([used?.slot, used?.spool_id, used?.material, used?.color_hex], [{ kind: 'tool', tool: 0 }, 1, 'PLA', '#ff0000']);
    assert.ok(Math.abs((used?.length_mm ?? 0) - (sample.extrudedMm[0] as number)) < 0.2, `length ${used?.length_mm}`);
    const grams = gramsOf(used?.length_mm ?? 0, 1.75, 1.24);
    assert.ok(Math.abs((used?.grams ?? 0) - grams) < 0.001);
    assert.ok(Math.abs((record.cost ?? 0) - (grams * 25) / 1000) < 0.001);
    assert.equal(record.filament_booked, true);
    const uses = ledger.uses.filter((u) => u.key === `history:${record.id}:T0`);
    assert.equal(uses.length, 1);
    assert.deepEqual(uses[0]?.use, { length_mm: used?.length_mm });
    await eventually('history.added', () => added.some((r) => r.id === record.id && r.state === 'finished'));
    assert.equal(added.filter((r) => r.id === record.id).length, 1);
    assert.equal((await historyList(dash, viewer, '?q=cube.gcode')).length, 1);
  });

  test('a print stopped through /control is cancelled, with the filament pushed until then', async () => {
    const sample = squares(40, 8, 3000);
    await print('stopped.gcode', sample.gcode, undefined);
    const open = await recordOf(dash, viewer, 'stopped.gcode', (r) => r.state === 'printing', 'the open record');
    assert.deepEqual(open.started_by, { kind: 'printer', user: null, job_id: null, copy: null });
    await eventually(
      'some progress',
      async () => (await dash.request('GET', `/api/printers/${id}/status`, { token: viewer })).json.job?.progress > 5,
    );
    assert.equal((await dash.request('POST', `/api/printers/${id}/control`, { token: operator, body: { action: 'stop' } })).status, 204);
    const record = await recordOf(dash, viewer, 'stopped.gcode', (r) => r.state === 'cancelled', 'the cancelled record');
    assert.ok(record.progress > 5 && record.progress < 100, `progress ${record.progress}`);
    const length = record.filament[0]?.length_mm ?? 0;
    assert.ok(length > 0 && length < (sample.extrudedMm[0] as number), `length ${length}`);
    assert.equal(record.error, null);
    await eventually('idle', async () => (await state()) === 'idle');
  });

  test('the dashboard restarted in the middle of a print: the one record is closed as interrupted', async () => {
    await print('restart.gcode', squares(40, 8, 3000).gcode, 'bob');
    await recordOf(dash, viewer, 'restart.gcode', (r) => r.state === 'printing' && r.progress >= 10, 'the open record, checkpointed');
    const dataDir = dash.dataDir;
    await dash.stop();
    await startDashboard(dataDir);
    const record = await recordOf(dash, viewer, 'restart.gcode', (r) => r.state === 'interrupted', 'the interrupted record');
    assert.deepEqual(record.started_by, { kind: 'user', user: 'bob', job_id: null, copy: null });
    assert.match(record.error ?? '', /no print/);
    assert.ok(record.progress >= 10 && record.progress < 100, `progress ${record.progress}`);
    assert.equal((await historyList(dash, viewer, '?q=restart.gcode')).length, 1);
    await eventually('online again', async () => ['idle', 'error'].includes(await state()));
  });

  test('a print the firmware kills (M112) fails, with the reason', async () => {
    await eventually('idle', async () => (await state()) === 'idle');
    await print('killed.gcode', squares(40, 8, 3000).gcode, null);
    await recordOf(dash, viewer, 'killed.gcode', (r) => r.state === 'printing', 'the open record');
    const answer = await dash.request('POST', `/api/printers/${id}/command`, { token: operator, body: { command: 'M112' } });
    assert.ok([200, 409].includes(answer.status), answer.text);
    const record = await recordOf(dash, viewer, 'killed.gcode', (r) => r.state === 'failed', 'the failed record');
    assert.deepEqual(record.started_by, { kind: 'user', user: null, job_id: null, copy: null });
    assert.match(record.error ?? '', /kill|halted|stopped/i);
    assert.equal((await historyList(dash, viewer, '?q=killed.gcode')).length, 1);
  });
});
