/**
 * The dispatcher over HTTP and the WebSocket, with scripted printers (queue-dashboard.ts): plates,
 * filament, order, copies, pins, holds, retries and failures, and what PUT and DELETE may change
 * in which state.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { gcode3mf } from '../../fixtures/virtual-bambu.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import {
  clearPlate,
  gcodeFile,
  job,
  jobs,
  PLA_WHITE,
  postJob,
  startQueueDashboard,
  TEST_TOKENS,
  untilJob,
  type QueueDashboard,
} from './queue-dashboard.js';

describe('dispatching', () => {
  let q: QueueDashboard;
  let socket: TestClient;
  const messages: Received[] = [];
  let bambu: string;
  let marlin: string;

  before(async () => {
    q = await startQueueDashboard();
    socket = connect(wsUrl(q.dash.url, `?token=${TEST_TOKENS.view}`));
    socket.ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Received));
    await socket.opened;
    bambu = await q.addPrinter('B1', 'bambu-lan');
    marlin = await q.addPrinter('M1', 'marlin-serial', { printer_profile: 'generic-marlin-0.4' });
    q.driver(bambu).loadAms([
      [0, 'PLA', '#FFFFFF'],
      [1, 'PETG', '#101010'],
    ]);
    const white = q.shelf.add({ material: 'PLA', color_hex: '#FFFFFF' });
    q.shelf.load(white.id, marlin, { kind: 'tool', tool: 0 });
  });
  after(async () => {
    socket.ws.close();
    await q.dash.cleanup();
  });

  const ws = (type: string) => messages.filter((m) => m.type === type).map((m) => m.payload as any);
  /** The first message of this type that matches, once the WebSocket has delivered it. */
  const wsFind = (type: string, match: (payload: any) => boolean) => eventually(`${type} on the WebSocket`, () => ws(type).find(match));

  /** Ends whatever a printer prints and confirms its plate clear, so the next test starts from idle printers. */
  async function settle(...printerIds: string[]): Promise<void> {
    for (const id of printerIds) {
      const driver = q.driver(id);
      if (driver.status().state === 'printing') driver.end('finished');
      await eventually(`printer ${id} not printing`, async () => driver.status().state !== 'printing');
    }
  }

  test('nothing is sent before the plate is confirmed clear; the job says why; then it prints, announced first', async () => {
    const added = await postJob(q.dash, 'petg.gcode.3mf', gcode3mf('G28\n'), {
      requirements: { filaments: [{ filament: 1, material: 'PETG', color_hex: '#000000' }] },
    });
    assert.equal(added.status, 201, added.text);
    const id = added.json.id;
    const waiting = await untilJob(q.dash, id, 'a waiting reason', (j) => j.waiting_reason !== null);
    assert.equal(waiting.waiting_reason, 'plate not cleared on B1');
    assert.equal(q.driver(bambu).uploads.length, 0);
    assert.equal((await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print })).json.dispatched.length, 0);

    const cleared = await clearPlate(q.dash, bambu);
    assert.equal(cleared.json.state, 'clear');
    const printing = await untilJob(q.dash, id, 'the job printing', (j) => j.state === 'printing');
    assert.deepEqual([printing.copies[0].printer_id, printing.copies[0].remote_name, printing.waiting_reason], [bambu, 'petg.gcode.3mf', null]);
    // Filament 1 (PETG black) goes to tray 1, which holds PETG #101010, within the tolerance.
    assert.deepEqual(q.driver(bambu).starts[0].options, { ams_mapping: [1] });
    const dispatched = await wsFind('print.dispatched', (d) => d.job_id === id);
    assert.deepEqual(
      [dispatched.printer_id, dispatched.copy, dispatched.file, dispatched.user, dispatched.filaments],
      [
        bambu,
        1,
        'petg',
        'print',
        [
          {
            filament: 1,
            slot: { kind: 'ams', unit: 0, tray: 1 },
            spool_id: null,
            material: 'PETG',
            color_hex: '#101010',
            grams: null,
            length_mm: null,
          },
        ],
      ],
    );
    await eventually('plate events on the WebSocket', () => ws('printer.plate').filter((p) => p.printer_id === bambu).length >= 2);
    assert.deepEqual(
      ws('printer.plate')
        .filter((p) => p.printer_id === bambu)
        .map((p) => [p.state, p.by]),
      [
        ['clear', 'print'],
        ['occupied', 'queue'],
      ],
    );
    await wsFind('queue.update', (u) => u.job.id === id && u.job.state === 'printing');
    expectError(await clearPlate(q.dash, bambu), 409, 'ERR_CONFLICT', /printing/);

    q.driver(bambu).end('finished');
    const done = await untilJob(q.dash, id, 'the job done', (j) => j.state === 'done');
    assert.deepEqual([done.copies_done, done.copies[0].state], [1, 'done']);
    assert.equal((await q.dash.request('get', `/api/printers/${bambu}/plate`, { token: TEST_TOKENS.view })).json.state, 'occupied');
  });

  test('filament: a job waits, saying what is missing, until a printer has it loaded', async () => {
    await clearPlate(q.dash, bambu);
    await clearPlate(q.dash, marlin);
    const added = await postJob(q.dash, 'green.gcode', gcodeFile([['PLA', '#20A020', 5]]));
    const id = added.json.id;
    const waiting = await untilJob(q.dash, id, 'a waiting reason', (j) => j.waiting_reason !== null);
    assert.equal(waiting.waiting_reason, 'no printer has PLA green (#20A020) loaded');
    // The Bambu printer does not print plain G-code; the Marlin one has white PLA on T0.
    const green = q.shelf.add({ material: 'pla', color_hex: '#22AA22' });
    q.shelf.load(green.id, marlin, { kind: 'tool', tool: 0 });
    await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
    const printing = await untilJob(q.dash, id, 'the job printing on M1', (j) => j.state === 'printing');
    assert.equal(printing.copies[0].printer_id, marlin);
    const dispatched = await wsFind('print.dispatched', (d) => d.job_id === id);
    assert.deepEqual(dispatched.filaments, [
      { filament: 1, slot: { kind: 'tool', tool: 0 }, spool_id: green.id, material: 'PLA', color_hex: '#22AA22', grams: 5, length_mm: 1650 },
    ]);
    assert.equal(dispatched.estimate_s, 42 * 60 + 10);
    q.shelf.load(green.id, null, null);
    await settle(marlin);
  });

  test('a file that names no filament goes to any printer of its format; the announcement names the spool it draws on', async () => {
    await clearPlate(q.dash, marlin);
    const plain = '; filament used [g] = 2.50\n; filament used [mm] = 830.00\nG28\nG1 X10 E5\n';
    const added = await postJob(q.dash, 'plain.gcode', plain);
    assert.deepEqual([added.json.filaments_from, added.json.requirements.filaments], ['none', []]);
    await untilJob(q.dash, added.json.id, 'printing', (j) => j.state === 'printing');
    const dispatched = await wsFind('print.dispatched', (d) => d.job_id === added.json.id);
    const spool = q.shelf.loadedOn(marlin)[0];
    assert.deepEqual(dispatched.filaments, [
      { filament: 1, slot: { kind: 'tool', tool: 0 }, spool_id: spool.id, material: 'PLA', color_hex: '#FFFFFF', grams: 2.5, length_mm: 830 },
    ]);
    await settle(marlin);
  });

  test('order: priority first, then position; PUT moves a job; one copy per printer per round', async () => {
    // Held while they are added and the plate occupied while they are released: the order is decided in one round.
    const low = await postJob(q.dash, 'low.gcode', PLA_WHITE, { held: true });
    const first = await postJob(q.dash, 'first.gcode', PLA_WHITE, { held: true, priority: 2 });
    const second = await postJob(q.dash, 'second.gcode', PLA_WHITE, { held: true, priority: 2 });
    const moved = await q.dash.request('put', `/api/queue/${second.json.id}`, { token: TEST_TOKENS.print, body: { position: 1 } });
    assert.equal(moved.json.position, 1);
    for (const j of [low, first, second])
      await q.dash.request('put', `/api/queue/${j.json.id}`, { token: TEST_TOKENS.print, body: { state: 'queued' } });
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      await clearPlate(q.dash, marlin);
      await eventually('the next print on M1', async () => q.driver(marlin).status().state === 'printing');
      sent.push(q.driver(marlin).starts.at(-1)!.remoteName);
      const others = (await jobs(q.dash)).filter((j) => j.state === 'queued' && [low, first, second].some((x) => x.json.id === j.id));
      for (const other of others) assert.match(other.waiting_reason ?? '', /M1/);
      q.driver(marlin).end('finished');
      await eventually('M1 idle', async () => q.driver(marlin).status().state !== 'printing');
    }
    assert.deepEqual(sent, ['second.gcode', 'first.gcode', 'low.gcode']);
  });

  test('copies: each copy one print, each after a plate confirmation; done counted per copy', async () => {
    const added = await postJob(q.dash, 'three.gcode', PLA_WHITE, { copies: 3, requirements: { printer_ids: [marlin] } });
    const id = added.json.id;
    for (let copy = 1; copy <= 3; copy++) {
      await clearPlate(q.dash, marlin);
      const printing = await untilJob(q.dash, id, `copy ${copy} printing`, (j) => j.copies[copy - 1].state === 'printing');
      assert.equal(printing.copies.filter((c: any) => c.state === 'pending').length, 3 - copy);
      q.driver(marlin).end('finished');
      await untilJob(q.dash, id, `copy ${copy} done`, (j) => j.copies_done === copy);
    }
    assert.equal((await job(q.dash, id)).state, 'done');
  });

  test('a pinned job waits for its printer even when another one could print it', async () => {
    const other = await q.addPrinter('M2', 'marlin-serial');
    const white = q.shelf.add({ material: 'PLA', color_hex: '#FFFFFF' });
    q.shelf.load(white.id, other, { kind: 'tool', tool: 0 });
    await clearPlate(q.dash, other);
    q.driver(marlin).setStatus({
      state: 'printing',
      job: { file: 'manual.gcode', progress: 5, layer: null, total_layers: null, elapsed_s: 1, remaining_s: null },
    });
    const added = await postJob(q.dash, 'pinned.gcode', PLA_WHITE, { requirements: { printer_ids: [marlin] } });
    const waiting = await untilJob(q.dash, added.json.id, 'a waiting reason', (j) => j.waiting_reason !== null);
    assert.match(waiting.waiting_reason, /^waiting for M1 \(printer "M1" is busy \(printing\)\)/);
    assert.equal(q.driver(other).starts.length, 0);
    q.driver(marlin).setStatus({ state: 'idle' });
    await clearPlate(q.dash, marlin);
    const printing = await untilJob(q.dash, added.json.id, 'printing on M1', (j) => j.state === 'printing');
    assert.equal(printing.copies[0].printer_id, marlin);
    await settle(marlin);
    await q.dash.request('delete', `/api/printers/${other}`, { token: TEST_TOKENS.admin });
  });

  test('a failing upload is retried, then the copy fails with the error; requeued, it prints', async () => {
    await clearPlate(q.dash, marlin);
    q.driver(marlin).failUploads = 3;
    const added = await postJob(q.dash, 'flaky.gcode', PLA_WHITE, { requirements: { printer_ids: [marlin] } });
    const failed = await untilJob(q.dash, added.json.id, 'the job failed', (j) => j.state === 'failed');
    assert.equal(q.driver(marlin).failUploads, 0, 'three attempts were made');
    assert.match(failed.error, /copy 1 could not be sent to printer .*: the printer refused the upload \(550\)/);
    assert.deepEqual([failed.copies[0].state, failed.copies[0].dispatches, failed.copies_failed], ['failed', 1, 1]);
    assert.equal((await q.dash.request('get', `/api/printers/${marlin}/plate`, { token: TEST_TOKENS.view })).json.state, 'clear');
    const requeued = await q.dash.request('put', `/api/queue/${added.json.id}`, { token: TEST_TOKENS.print, body: { state: 'queued' } });
    assert.equal(requeued.status, 200, requeued.text);
    const printing = await untilJob(q.dash, added.json.id, 'printing after the requeue', (j) => j.state === 'printing');
    assert.deepEqual([printing.copies[0].dispatches, printing.error], [2, null]);
    await settle(marlin);
  });

  test('a failed print fails the job: not retried by itself; held and cancelled jobs are not dispatched', async () => {
    await clearPlate(q.dash, marlin);
    const added = await postJob(q.dash, 'fails.gcode', PLA_WHITE, { copies: 2, requirements: { printer_ids: [marlin] } });
    await untilJob(q.dash, added.json.id, 'printing', (j) => j.state === 'printing');
    q.driver(marlin).end('failed');
    const failed = await untilJob(q.dash, added.json.id, 'failed', (j) => j.state === 'failed');
    assert.match(failed.error, /copy 1 failed on printer/);
    await clearPlate(q.dash, marlin);
    const held = await postJob(q.dash, 'held.gcode', PLA_WHITE, { held: true, requirements: { printer_ids: [marlin] } });
    assert.equal(held.json.state, 'held');
    await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
    assert.equal(q.driver(marlin).status().state, 'error', 'nothing was started');
    assert.equal((await job(q.dash, held.json.id)).state, 'held');
    const cancelled = await q.dash.request('put', `/api/queue/${added.json.id}`, { token: TEST_TOKENS.print, body: { state: 'cancelled' } });
    assert.deepEqual(
      cancelled.json.copies.map((c: any) => c.state),
      ['cancelled', 'cancelled'],
    );
    q.driver(marlin).setStatus({ state: 'idle' });
    const released = await q.dash.request('put', `/api/queue/${held.json.id}`, { token: TEST_TOKENS.print, body: { state: 'queued' } });
    assert.equal(released.status, 200);
    await untilJob(q.dash, held.json.id, 'the released job printing', (j) => j.state === 'printing');
    await settle(marlin);
  });

  test('what PUT and DELETE may change in which state', async () => {
    await clearPlate(q.dash, marlin);
    const added = await postJob(q.dash, 'rules.gcode', PLA_WHITE, { copies: 2, requirements: { printer_ids: [marlin] } });
    const id = added.json.id;
    await untilJob(q.dash, id, 'printing', (j) => j.state === 'printing');
    const put = (body: unknown) => q.dash.request('put', `/api/queue/${id}`, { token: TEST_TOKENS.print, body });
    expectError(await put({ requirements: { printer_ids: [] } }), 409, 'ERR_CONFLICT', /requirements cannot change/);
    expectError(await q.dash.request('delete', `/api/queue/${id}`, { token: TEST_TOKENS.print }), 409, 'ERR_CONFLICT', /stop its print first/);
    expectError(await put({ state: 'cancelled' }), 409, 'ERR_CONFLICT', /cannot be cancelled/);
    expectError(await put({ copies: 2, requirements: { printer_ids: [] } }), 409, 'ERR_CONFLICT');
    assert.equal((await job(q.dash, id)).copies.length, 2, 'a refused PUT changed nothing');
    const renamed = await put({ name: 'Rules', priority: 7, copies: 3 });
    assert.deepEqual([renamed.json.name, renamed.json.priority, renamed.json.copies.length], ['Rules', 7, 3]);
    expectError(await put({ copies: 0 }), 400, 'ERR_VALIDATION');
    const held = await put({ state: 'held' });
    assert.equal(held.json.state, 'printing', 'the running copy goes on');
    q.driver(marlin).end('finished');
    await untilJob(q.dash, id, 'held', (j) => j.state === 'held');
    expectError(await put({ copies: 0 }), 400, 'ERR_VALIDATION');
    const fewer = await put({ copies: 1 });
    assert.deepEqual([fewer.json.state, fewer.json.copies.length], ['held', 1]);
    await put({ state: 'queued' });
    const done = await job(q.dash, id);
    assert.equal(done.state, 'done');
    expectError(await put({ name: 'again' }), 409, 'ERR_CONFLICT', /a done job can only be moved/);
    assert.equal((await put({ position: 1 })).json.position, 1);
    assert.equal((await q.dash.request('delete', `/api/queue/${id}`, { token: TEST_TOKENS.print })).status, 204);
    expectError(await q.dash.request('get', `/api/queue/${id}`, { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND');
    await wsFind('queue.update', (u) => u.action === 'removed' && u.job.id === id);
  });
});

test('without the inventory, the queue still dispatches on what the printers report', async () => {
  const q = await startQueueDashboard({ withoutInventory: true });
  try {
    const bambu = await q.addPrinter('B9', 'bambu-lan');
    q.driver(bambu).loadAms([[0, 'PLA', '#FFFFFF']]);
    const added = await postJob(q.dash, 'pla.gcode.3mf', gcode3mf('G28\n'), {
      requirements: { filaments: [{ filament: 1, material: 'PLA', color_hex: '#FFFFFF' }] },
    });
    assert.equal(added.status, 201, added.text);
    const round = await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
    assert.equal(round.status, 200, round.text);
    await clearPlate(q.dash, bambu);
    await untilJob(q.dash, added.json.id, 'the job printing', (j) => j.state === 'printing');
  } finally {
    await q.dash.cleanup();
  }
});
