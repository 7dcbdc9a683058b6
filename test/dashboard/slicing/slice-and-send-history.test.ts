/**
 * A user's print started through slice-and-send is booked like a queue job's: the real dashboard
 * (remote slice-and-send, whose chain ends at the built-in engine), the real Bambu Lab driver and
 * the virtual Bambu printer with a PETG tray before the only PLA tray, and a spool loaded in that
 * PLA tray. The history record names the user, the tray the driver's AMS mapping really fed (not
 * tray 1, the printer's default), the spool in it and the slicer's grams, and the spool's used
 * weight drops by them when the print finishes, or by the share printed when it is cancelled.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import {
  bridgeFeature,
  historyFeature,
  nativeSlicingFeature,
  notificationsFeature,
  printersFeature,
  slicerServiceFeature,
} from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';
import { cubeStl, sliceForm } from '../../fixtures/slicer-service.js';
import { startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { recordOf } from '../history/harness.js';
import { asJson, NO_DESKTOP_SLICERS, postForm } from './remote/remote-dashboard.js';

const QUICK = { filament_ids: '["generic-pla"]', process_id: '0.28mm-extra-draft' };
const WAIT_MS = 90_000;
const PLA_TRAY = { kind: 'ams', unit: 0, tray: 1 } as const;

let bambu: VirtualBambu;
let dash: DashboardFixture;
let printerId: string;
const spools = new MemorySpools([{ id: 7, material: 'PLA', color_hex: '#00ff00', price: 25, initial_weight_g: 1000, used_weight_g: 0 }]);
/** Every project_file start the printer received. */
const starts: Record<string, any>[] = [];

before(async () => {
  bambu = await startVirtualBambu({
    timeScale: 60,
    ams: {
      units: 1,
      trays: [
        { type: 'PETG', color: 'F72323FF', remain: 60, infoIdx: 'GFG00' },
        { type: 'PLA', color: '00FF00FF', remain: 90, infoIdx: 'GFA00' },
        null,
        null,
      ],
    },
  });
  bambu.printer.on('request', (handled: { message: any }) => {
    if (handled.message?.print?.command === 'project_file') starts.push(handled.message.print);
  });
  const drivers = new DriverRegistry();
  drivers.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  dash = await startDashboardFixture({
    config: { slicer_service: { enabled: false }, rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    features: [notificationsFeature, printersFeature, historyFeature, nativeSlicingFeature, bridgeFeature, slicerServiceFeature],
    services: { printers: { drivers }, bridge: NO_DESKTOP_SLICERS, spools, history: { ledger: spools } },
  });
  const created = await dash.request('POST', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: {
      name: 'P1S bay 2',
      type: 'bambu-lan',
      printer_profile: 'bambu-lab-p1s-0.4',
      connection: {
        host: bambu.host,
        serial: bambu.serial,
        access_code: bambu.accessCode,
        ca: bambu.caPem,
        mqtt_port: bambu.mqttPort,
        ftps_port: bambu.ftpsPort,
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  printerId = created.json.id;
  spools.load(7, printerId, PLA_TRAY);
  await untilState('idle');
});

after(async () => {
  await dash?.cleanup();
  await bambu?.stop();
});

async function untilState(...states: string[]): Promise<Record<string, any>> {
  return eventually(
    `the printer to be ${states.join(' or ')}`,
    async () => {
      const status = (await dash.request('GET', `/api/printers/${printerId}/status`, { token: TEST_TOKENS.view })).json;
      return states.includes(status.state) ? status : null;
    },
    WAIT_MS,
  );
}

async function sliceAndSend(model: string, size: number): Promise<Record<string, any>> {
  await untilState('idle', 'finished', 'error');
  const form = sliceForm(cubeStl(size), model, { ...QUICK, printer_id: printerId });
  const sent = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', form, 'print'));
  assert.equal(sent.status, 200, sent.text);
  assert.equal(sent.json.result.backend, 'native');
  return sent.json.result;
}

test('a finished slice-and-send print: the user, the tray the AMS mapping fed, its spool, the grams off that spool', async () => {
  const before = spools.get(7)?.used_weight_g ?? 0;
  const result = await sliceAndSend('cube.stl', 10);
  const grams = result.filament_g[0] as number;
  assert.ok(grams > 0, `the slice says ${grams} g`);
  // The driver started with the mapping the announcement named: filament 1 from global tray 1.
  assert.deepEqual(starts.at(-1)?.ams_mapping, [1]);
  const record = await recordOf(dash, TEST_TOKENS.view, 'cube', (r) => r.state === 'finished', 'the finished record');
  assert.deepEqual(record.started_by, { kind: 'user', user: 'print', job_id: null, copy: null });
  assert.equal(record.estimate_s, result.estimated_time_s);
  assert.equal(record.filament.length, 1);
  const [used] = record.filament;
  assert.deepEqual([used.slot, used.spool_id, used.material, used.grams], [PLA_TRAY, 7, 'PLA', Math.round(grams * 1000) / 1000]);
  assert.equal(used.cost, Math.round(used.grams! * 0.025 * 10_000) / 10_000);
  await eventually('booked', () => spools.uses.some((u) => u.key === `history:${record.id}:AMS1-T2`));
  assert.equal(spools.get(7)?.used_weight_g, before + (used.grams ?? 0));
});

test('a cancelled slice-and-send print: the planned grams scaled by the progress come off the spool', async () => {
  const before = spools.get(7)?.used_weight_g ?? 0;
  const result = await sliceAndSend('tall block.stl', 30);
  const grams = result.filament_g[0] as number;
  await recordOf(dash, TEST_TOKENS.view, 'tall_block', (r) => r.state === 'printing', 'the open record');
  await eventually('some progress', async () => (await untilState('printing')).job?.progress >= 5, WAIT_MS);
  assert.equal(
    (await dash.request('POST', `/api/printers/${printerId}/control`, { token: TEST_TOKENS.print, body: { action: 'stop' } })).status,
    204,
  );
  const record = await recordOf(dash, TEST_TOKENS.view, 'tall_block', (r) => r.state === 'cancelled', 'the cancelled record');
  assert.equal(record.started_by.user, 'print');
  assert.ok(record.progress >= 5 && record.progress < 100, `progress ${record.progress}`);
  const [used] = record.filament;
  assert.deepEqual([used.slot, used.spool_id], [PLA_TRAY, 7]);
  assert.equal(used.grams, Math.round(((grams * record.progress) / 100) * 1000) / 1000);
  await eventually('booked', () => spools.uses.some((u) => u.key === `history:${record.id}:AMS1-T2`));
  assert.ok(Math.abs((spools.get(7)?.used_weight_g ?? 0) - (before + (used.grams ?? 0))) < 1e-9);
});
