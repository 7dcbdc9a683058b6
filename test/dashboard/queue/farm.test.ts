/**
 * The queue with the real drivers and the virtual printers, over HTTP and the WebSocket: two
 * virtual Bambu Lab printers with different AMS loads (their own mosquitto over TLS and implicit
 * FTPS) and a virtual Marlin on a socat pty pair whose tool 0 holds a spool of the MemorySpools.
 * Five jobs with material and colour requirements and priorities: nothing goes out before the
 * plates are confirmed clear; then every job lands on a printer that has its filament, in
 * priority order, with the AMS mapping of that printer; the prints run to their end (followed
 * by print-ends.ts in place of history), leave their plates occupied, and the next copies wait
 * for the next confirmation. A job whose filament no printer has waits, saying so.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { historyFeature, inventoryFeature, liveFeature, printersFeature, queueFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';
import { bambuGcode, startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import { gcodeFile, postJob, TEST_TOKENS } from './queue-dashboard.js';

const WAIT_MS = 60_000;

let dash: DashboardFixture;
let socket: TestClient;
let bambuA: VirtualBambu;
let bambuB: VirtualBambu;
let marlin: VirtualMarlinFixture;
const ids: Record<'A' | 'B' | 'M', string> = { A: '', B: '', M: '' };
const messages: Received[] = [];
/** project_file requests per virtual printer serial. */
const starts = new Map<string, Array<Record<string, any>>>();

/** A Bambu project whose slice info says which filaments plate 1 uses. */
function project(filaments: Array<[id: number, material: string, color: string]>): Uint8Array {
  const tags = filaments.map(([id, type, color]) => `<filament id="${id}" type="${type}" color="${color}" used_m="0.50" used_g="1.50"/>`).join('');
  return zipSync({
    'Metadata/plate_1.gcode': strToU8(bambuGcode(2, 1)),
    'Metadata/slice_info.config': strToU8(
      `<config><plate><metadata key="index" value="1"/><metadata key="prediction" value="60"/>${tags}</plate></config>`,
    ),
  });
}

async function addPrinter(name: string, body: Record<string, unknown>): Promise<string> {
  const created = await dash.request('post', '/api/printers', { token: TEST_TOKENS.admin, body: { name, ...body } });
  assert.equal(created.status, 201, created.text);
  return created.json.id;
}

function bambuConnection(printer: VirtualBambu) {
  return {
    host: printer.host,
    serial: printer.serial,
    access_code: printer.accessCode,
    ca: printer.caPem,
    mqtt_port: printer.mqttPort,
    ftps_port: printer.ftpsPort,
  };
}

const job = async (id: string) => (await dash.request('get', `/api/queue/${id}`, { token: TEST_TOKENS.view })).json;
const untilJob = (id: string, what: string, check: (j: any) => boolean) =>
  eventually(
    what,
    async () => {
      const current = await job(id);
      return check(current) ? current : null;
    },
    WAIT_MS,
  );
const clearPlate = async (printerId: string) => {
  const cleared = await dash.request('post', `/api/printers/${printerId}/plate-cleared`, { token: TEST_TOKENS.print });
  assert.equal(cleared.status, 200, cleared.text);
};
const dispatchedOf = (jobId: string) =>
  messages.filter((m) => m.type === 'print.dispatched' && m.payload.job_id === jobId).map((m) => m.payload as any);

before(async () => {
  [bambuA, bambuB, marlin] = await Promise.all([
    startVirtualBambu({
      serial: '01P00A451300001',
      timeScale: 100,
      ams: { units: 1, trays: [{ type: 'PLA', color: 'FFFFFF' }, { type: 'PETG', color: '111111' }, null, null] },
    }),
    startVirtualBambu({
      serial: '01P00A451300002',
      timeScale: 100,
      ams: { units: 1, trays: [{ type: 'PLA', color: 'FFFFFF' }, null, { type: 'PLA', color: 'E02020' }, null] },
    }),
    startVirtualMarlin({ speed: 100 }),
  ]);
  for (const printer of [bambuA, bambuB]) {
    starts.set(printer.serial, []);
    printer.printer.on('request', (handled: { message: any }) => {
      if (handled.message?.print?.command === 'project_file') starts.get(printer.serial)?.push(handled.message.print);
    });
  }
  const registry = new DriverRegistry();
  registry.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  registry.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  const shelf = new MemorySpools();
  dash = await startDashboardFixture({
    config: { queue: { retry_delay_ms: 200, round_interval_s: 1 }, rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    features: [printersFeature, inventoryFeature, historyFeature, liveFeature, queueFeature],
    services: { printers: { drivers: registry }, spools: shelf },
  });
  socket = connect(wsUrl(dash.url, `?token=${TEST_TOKENS.view}`));
  socket.ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Received));
  await socket.opened;
  ids.A = await addPrinter('A', { type: 'bambu-lan', printer_profile: 'bambu-lab-p1s-0.4', connection: bambuConnection(bambuA) });
  ids.B = await addPrinter('B', { type: 'bambu-lan', printer_profile: 'bambu-lab-p1s-0.4', connection: bambuConnection(bambuB) });
  ids.M = await addPrinter('M', { type: 'marlin-serial', printer_profile: 'generic-marlin-0.4', connection: { port: marlin.hostPath } });
  const white = shelf.add({ material: 'PLA', color_hex: '#FFFFFF' });
  shelf.load(white.id, ids.M, { kind: 'tool', tool: 0 });
  await eventually(
    'the printers online with their AMS reported',
    async () => {
      const list = (await dash.request('get', '/api/printers', { token: TEST_TOKENS.view })).json.items ?? [];
      return list.length === 3 && list.every((p: any) => p.online && ['idle', 'finished'].includes(p.state));
    },
    WAIT_MS,
  );
});

after(async () => {
  socket?.ws.close();
  await dash?.cleanup();
  await Promise.all([bambuA?.stop(), bambuB?.stop(), marlin?.stop()]);
});

test('five jobs over three printers: plates first, then priority, each on a printer with its filament, copies after each confirmation', async () => {
  const add = async (name: string, content: string | Uint8Array, fields: Record<string, unknown> = {}) => {
    const added = await postJob(dash, name, content, fields);
    assert.equal(added.status, 201, added.text);
    return added.json.id as string;
  };
  const petg = await add('petg.gcode.3mf', project([[1, 'PETG', '#000000']]));
  const red = await add('red.gcode.3mf', project([[1, 'PLA', '#FF0000']]), { priority: 5 });
  const whiteGcode = await add('white.gcode', `${gcodeFile([['PLA', '#FFFFFF', 1]])}G1 X20 Y20 E2 F1200\n`);
  const white3mf = await add('white.gcode.3mf', project([[1, 'PLA', '#FFFFFF']]), { priority: 1, copies: 2 });
  const tpu = await add('tpu.gcode.3mf', project([[1, 'TPU', '#000000']]));

  // No plate has been confirmed: nothing goes out, and every job says why.
  await dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
  for (const id of [petg, red, white3mf]) assert.match((await job(id)).waiting_reason ?? '', /plate not cleared on/);
  assert.equal((await job(whiteGcode)).waiting_reason, 'plate not cleared on M');
  assert.equal((await job(tpu)).waiting_reason, 'no printer has TPU black (#000000) loaded');
  assert.deepEqual([starts.get(bambuA.serial)?.length, starts.get(bambuB.serial)?.length], [0, 0]);

  for (const id of [ids.A, ids.B, ids.M]) await clearPlate(id);
  // Priority 5 red PLA: only B has red. Priority 1 white PLA (2 copies): A, the printer left.
  // The G-code goes to the Marlin printer. PETG waits for A.
  const onRed = await untilJob(red, 'the red job printing', (j) => j.state === 'printing' || j.state === 'done');
  const onWhite = await untilJob(white3mf, 'a white copy printing', (j) => j.copies[0].state !== 'pending');
  const onMarlin = await untilJob(whiteGcode, 'the G-code printing', (j) => j.state === 'printing' || j.state === 'done');
  assert.deepEqual([onRed.copies[0].printer_id, onWhite.copies[0].printer_id, onMarlin.copies[0].printer_id], [ids.B, ids.A, ids.M]);
  assert.equal(onWhite.copies[1].state, 'pending');
  // A prints white (or, on a slow machine, has already finished it and waits for its plate).
  assert.match((await job(petg)).waiting_reason ?? '', /^waiting for A |^plate not cleared on A$/);
  // Each printer's own mapping: red is tray 2 on B, white tray 0 on A.
  await eventually('the starts on both printers', () => starts.get(bambuA.serial)?.length === 1 && starts.get(bambuB.serial)?.length === 1, WAIT_MS);
  assert.deepEqual(starts.get(bambuB.serial)?.[0].ams_mapping, [2]);
  assert.deepEqual(starts.get(bambuA.serial)?.[0].ams_mapping, [0]);
  const [marlinDispatch] = dispatchedOf(whiteGcode);
  assert.deepEqual(marlinDispatch.filaments[0].slot, { kind: 'tool', tool: 0 });
  assert.equal(typeof marlinDispatch.filaments[0].spool_id, 'number');
  const [redDispatch] = dispatchedOf(red);
  assert.deepEqual(
    [redDispatch.file, redDispatch.filaments[0].slot, redDispatch.filaments[0].grams],
    ['red', { kind: 'ams', unit: 0, tray: 2 }, 1.5],
  );

  // The prints end; the plates stay occupied: nothing more goes out until they are confirmed.
  for (const id of [red, whiteGcode]) await untilJob(id, 'done', (j) => j.state === 'done');
  await untilJob(white3mf, 'copy 1 done', (j) => j.copies_done === 1);
  await dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
  assert.equal((await job(white3mf)).copies[1].state, 'pending');
  assert.equal(starts.get(bambuA.serial)?.length, 1);
  for (const id of [ids.A, ids.B, ids.M]) {
    assert.equal((await dash.request('get', `/api/printers/${id}/plate`, { token: TEST_TOKENS.view })).json.state, 'occupied');
  }

  // B confirmed: white copy 2 (priority 1) goes before PETG (0), to B, whose white is tray 0.
  await clearPlate(ids.B);
  const copy2 = await untilJob(white3mf, 'copy 2 printing', (j) => j.copies[1].state !== 'pending');
  assert.equal(copy2.copies[1].printer_id, ids.B);
  await untilJob(white3mf, 'both copies done', (j) => j.state === 'done');
  // A confirmed: PETG black goes to A's PETG tray 1 (#111111, within the tolerance).
  await clearPlate(ids.A);
  await untilJob(petg, 'PETG done', (j) => j.state === 'done');
  assert.deepEqual(starts.get(bambuA.serial)?.[1].ams_mapping, [1]);
  assert.equal((await job(tpu)).state, 'queued');
  assert.equal((await job(tpu)).waiting_reason, 'no printer has TPU black (#000000) loaded');
  // Every copy printed exactly once.
  assert.deepEqual(
    [petg, red, whiteGcode, white3mf].map((id) => dispatchedOf(id).length),
    [1, 1, 1, 2],
  );
});
