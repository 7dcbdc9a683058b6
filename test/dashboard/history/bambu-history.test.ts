/**
 * History of a Bambu Lab printer, through the real dashboard and driver against the virtual
 * printer: a queue job's print to the end (the announcement's job, copy, estimate, picture and
 * plan; the planned grams off the announced spool), a user's print stopped (cancelled, the plan
 * scaled by the progress), a print the printer fails, one started on the printer's own screen, and
 * the dashboard restarted while a print runs on (one record, picked up, closed finished).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HistoryRecord } from '../../../appliance/dashboard/history/record.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import type { PrintDispatched } from '../../../appliance/dashboard/queue/print-dispatched.js';
import type { ServiceOptions } from '../../../appliance/dashboard/services.js';
import { sendToPrinter } from '../../../appliance/dashboard/slicing/send-to-printer.js';
import { loginAs } from '../../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { solidPng } from '../../fixtures/solid-png.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';
import { bambuGcode, gcode3mf, startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { TEST_TIMINGS } from '../printers/families/bambu-lan/driver-harness.js';
import { historyList, recordOf } from './harness.js';

let vb: VirtualBambu;
let dash: DashboardFixture;
let viewer: string;
let operator: string;
let id: string;
const ledger = new MemorySpools([
  { id: 10, material: 'PLA', color_hex: '#00ff00', price: 20, initial_weight_g: 1000 },
  { id: 11, material: 'PETG', color_hex: '#000000', price: 30, initial_weight_g: 1000 },
]);
const added: HistoryRecord[] = [];

function services(): ServiceOptions {
  const drivers = new DriverRegistry();
  drivers.register('bambu-lan', bambuLanDriverFactory(TEST_TIMINGS));
  return { printers: { drivers, backoff: { initialMs: 200, maxMs: 1_000, stableMs: 60_000 } }, history: { ledger } };
}

async function startDashboard(dataDir?: string): Promise<void> {
  dash = await startDashboardFixture({ services: services(), config: { rate_limit: { enabled: false } }, ...(dataDir ? { dataDir } : {}) });
  dash.server.context.bus.on('history.added', (record) => void added.push(record));
  viewer = await loginAs(dash, 'view');
  operator = await loginAs(dash, 'print');
}

async function status(): Promise<Record<string, any>> {
  return (await dash.request('GET', `/api/printers/${id}/status`, { token: viewer })).json;
}

/** Uploads and starts `<name>.gcode.3mf` as slice-and-send does, for `user`. */
async function print(name: string, minutes: number, user: string | null): Promise<void> {
  await eventually('ready for a print', async () => ['idle', 'finished', 'error'].includes((await status()).state));
  const dir = path.join(dash.dataDir, 'sources');
  mkdirSync(dir, { recursive: true });
  const source = path.join(dir, `${name}.gcode.3mf`);
  writeFileSync(source, gcode3mf(bambuGcode(4, minutes)));
  await sendToPrinter(dash.server.services.printers, id, source, 'gcode.3mf', { user, sliced: null, spools: null });
}

function dispatched(file: string, extra: Partial<PrintDispatched> = {}): PrintDispatched {
  return {
    printer_id: id,
    job_id: 'job-7',
    copy: 2,
    file,
    user: 'dora',
    estimate_s: 240,
    filaments: [
      { filament: 1, slot: { kind: 'ams', unit: 0, tray: 1 }, spool_id: 11, material: 'PETG', color_hex: '#000000', grams: 20, length_mm: 6600 },
    ],
    thumbnail_path: null,
    at: new Date().toISOString(),
    ...extra,
  };
}

before(async () => {
  vb = await startVirtualBambu({ model: 'P1S' });
  await startDashboard();
  const admin = await loginAs(dash, 'admin');
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: {
      name: 'P1S one',
      type: 'bambu-lan',
      connection: { host: vb.host, serial: vb.serial, access_code: vb.accessCode, ca: vb.caPem, mqtt_port: vb.mqttPort, ftps_port: vb.ftpsPort },
    },
  });
  assert.equal(created.status, 201, created.text);
  id = created.json.id;
  ledger.load(10, id, { kind: 'ams', unit: 0, tray: 0 });
  await eventually('online', async () => (await status()).state === 'idle');
});

after(async () => {
  await dash?.cleanup();
  await vb?.stop();
});

describe('history of a Bambu Lab printer', () => {
  test("a queue job's print to the end: job, copy, estimate, picture, the planned grams off the announced spool", async () => {
    const picture = solidPng(8, 8, [255, 0, 0, 255]);
    const picturePath = path.join(dash.dataDir, 'queue-plate.png');
    writeFileSync(picturePath, picture);
    dash.server.context.bus.emit('print.dispatched', dispatched('plate', { thumbnail_path: picturePath }));
    await print('plate', 3, 'someone-else');
    const record = await recordOf(dash, viewer, 'plate', (r) => r.state === 'finished', 'the finished record');
    assert.deepEqual(record.started_by, { kind: 'queue', user: 'dora', job_id: 'job-7', copy: 2 });
    assert.deepEqual([record.printer_name, record.printer_type, record.estimate_s, record.progress], ['P1S one', 'bambu-lan', 240, 100]);
    assert.deepEqual(record.filament, [
      { slot: { kind: 'ams', unit: 0, tray: 1 }, spool_id: 11, material: 'PETG', color_hex: '#000000', grams: 20, length_mm: 6600, cost: 0.6 },
    ]);
    assert.equal(record.cost, 0.6);
    assert.deepEqual(
      ledger.uses.filter((u) => u.key.startsWith(`history:${record.id}:`)).map((u) => [u.spool_id, u.use, u.key]),
      [[11, { grams: 20 }, `history:${record.id}:AMS1-T2`]],
    );
    assert.equal(record.thumbnail, `/api/history/${record.id}/thumbnail.png`);
    const png = await fetch(`${dash.url}${record.thumbnail}`, { headers: { authorization: `Bearer ${viewer}` } });
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.deepEqual(new Uint8Array(await png.arrayBuffer()), picture);
    await eventually('history.added', () => added.find((r) => r.id === record.id));
    const event = added.find((r) => r.id === record.id);
    assert.deepEqual([event?.started_by.job_id, event?.started_by.copy, event?.state], ['job-7', 2, 'finished']);
    const kept = path.join(dash.dataDir, 'history-thumbnails', `${record.id}.png`);
    assert.ok(existsSync(kept));
    assert.equal((await dash.request('DELETE', `/api/history/${record.id}`, { token: await loginAs(dash, 'admin') })).status, 204);
    assert.equal(existsSync(kept), false);
    assert.equal((await dash.request('GET', `/api/history/${record.id}/thumbnail.png`, { token: viewer })).status, 404);
  });

  test("a user's print stopped through /control: cancelled, the plan scaled by the progress", async () => {
    dash.server.context.bus.emit('print.dispatched', dispatched('stopped', { job_id: 'job-8', copy: 1 }));
    await print('stopped', 30, 'erin');
    await recordOf(dash, viewer, 'stopped', (r) => r.state === 'printing', 'the open record');
    await eventually('some progress', async () => (await status()).job?.progress >= 5);
    assert.equal((await dash.request('POST', `/api/printers/${id}/control`, { token: operator, body: { action: 'stop' } })).status, 204);
    const record = await recordOf(dash, viewer, 'stopped', (r) => r.state === 'cancelled', 'the cancelled record');
    assert.equal(record.error, null);
    assert.ok(record.progress >= 5 && record.progress < 100, `progress ${record.progress}`);
    assert.equal(record.filament[0]?.grams, Math.round(20 * record.progress * 10) / 1000);
    assert.equal(ledger.uses.find((u) => u.key === `history:${record.id}:AMS1-T2`)?.grams, record.filament[0]?.grams);
  });

  test('a print the printer fails: failed, with its reason; a user start without a plan uses no filament', async () => {
    await print('broken', 30, 'frank');
    const open = await recordOf(dash, viewer, 'broken', (r) => r.state === 'printing', 'the open record');
    assert.deepEqual(open.started_by, { kind: 'user', user: 'frank', job_id: null, copy: null });
    await eventually('printing', async () => (await status()).state === 'printing');
    vb.printer.state.fail(0x05004003);
    const record = await recordOf(dash, viewer, 'broken', (r) => r.state === 'failed', 'the failed record');
    assert.match(record.error ?? '', /0500-4003/);
    assert.deepEqual([record.filament, record.cost, record.filament_booked], [[], null, true]);
  });

  test("a print started on the printer's screen is recorded as the printer's", async () => {
    await eventually('ready', async () => ['idle', 'finished', 'error'].includes((await status()).state));
    await vb.setFault('busy', true);
    const open = await recordOf(dash, viewer, 'Started on the printer screen', (r) => r.state === 'printing', 'the open record');
    assert.deepEqual(open.started_by, { kind: 'printer', user: null, job_id: null, copy: null });
    await vb.setFault('busy', false);
    const record = await recordOf(dash, viewer, 'Started on the printer screen', (r) => r.state === 'finished', 'the finished record');
    assert.equal(record.id, open.id);
  });

  test('the dashboard restarted while the printer prints on: the same record goes on and is closed finished', async () => {
    dash.server.context.bus.emit('print.dispatched', dispatched('long', { job_id: 'job-9', copy: 3 }));
    await print('long', 12, null);
    const open = await recordOf(dash, viewer, 'long', (r) => r.state === 'printing', 'the open record');
    const dataDir = dash.dataDir;
    await dash.stop();
    await startDashboard(dataDir);
    const record = await recordOf(dash, viewer, 'long', (r) => r.state === 'finished', 'the finished record');
    assert.equal(record.id, open.id);
    assert.deepEqual(record.started_by, { kind: 'queue', user: 'dora', job_id: 'job-9', copy: 3 });
    assert.equal(record.filament[0]?.grams, 20);
    assert.equal((await historyList(dash, viewer, '?q=long')).length, 1);
    assert.equal(ledger.uses.filter((u) => u.key === `history:${record.id}:AMS1-T2`).length, 1);
  });
});
