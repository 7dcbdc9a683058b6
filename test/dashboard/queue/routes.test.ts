/**
 * The queue over HTTP and the WebSocket, with scripted printers (queue-dashboard.ts): the job
 * form and its bad input, roles, what PUT and DELETE may change in which state, and the
 * dispatcher's rules: plates, filament, order, copies, pins, holds, retries and failures.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { expectError, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { solidPng } from '../../fixtures/solid-png.js';
import { gcode3mf } from '../../fixtures/virtual-bambu.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import { followPrintEnds } from './print-ends.js';
import { gcodeFile, postJob, startQueueDashboard, TEST_TOKENS, type QueueDashboard } from './queue-dashboard.js';

const PLA_WHITE = gcodeFile([['PLA', '#FFFFFF', 12.5]]);

async function jobs(dash: DashboardFixture): Promise<any[]> {
  const list = await dash.request('get', '/api/queue', { token: TEST_TOKENS.view });
  assert.equal(list.status, 200, list.text);
  return list.json.items;
}

async function job(dash: DashboardFixture, id: string): Promise<any> {
  const got = await dash.request('get', `/api/queue/${id}`, { token: TEST_TOKENS.view });
  assert.equal(got.status, 200, got.text);
  return got.json;
}

function untilJob(dash: DashboardFixture, id: string, what: string, check: (job: any) => boolean): Promise<any> {
  return eventually(what, async () => {
    const current = await job(dash, id);
    return check(current) ? current : null;
  });
}

const clearPlate = (dash: DashboardFixture, printerId: string, token = TEST_TOKENS.print) =>
  dash.request('post', `/api/printers/${printerId}/plate-cleared`, { token });

describe('the job form, bad input and roles', () => {
  let q: QueueDashboard;
  before(async () => {
    q = await startQueueDashboard();
  });
  after(() => q.dash.cleanup());

  test('a G-code job: its filament, use, estimate and picture read from the file; file and picture kept 0600', async () => {
    const png = Buffer.from(solidPng(16, 16, [255, 0, 0, 255]));
    const added = await postJob(
      q.dash,
      'bracket v2.gcode',
      gcodeFile(
        [
          ['PETG', '#000000', 20],
          ['PLA', '#ff0000', 3],
        ],
        { thumbnail: png },
      ),
      {
        copies: 2,
        priority: 5,
      },
    );
    assert.equal(added.status, 201, added.text);
    const j = added.json;
    assert.deepEqual(
      [j.name, j.state, j.position, j.priority, j.file, j.filaments_from, j.user, j.waiting_reason === null || typeof j.waiting_reason === 'string'],
      ['bracket v2', 'queued', 1, 5, { name: 'bracket v2.gcode', format: 'gcode', size_bytes: j.file.size_bytes }, 'file', 'print', true],
    );
    assert.deepEqual(j.requirements.filaments, [
      { filament: 1, material: 'PETG', color_hex: '#000000' },
      { filament: 2, material: 'PLA', color_hex: '#FF0000' },
    ]);
    assert.deepEqual(j.plan, {
      estimate_s: 42 * 60 + 10,
      amounts: [
        { filament: 1, grams: 20, length_mm: 6600 },
        { filament: 2, grams: 3, length_mm: 990 },
      ],
      has_thumbnail: true,
    });
    assert.deepEqual(
      j.copies.map((c: any) => [c.copy, c.state]),
      [
        [1, 'pending'],
        [2, 'pending'],
      ],
    );
    const files = readdirSync(path.join(q.dash.dataDir, 'queue-files')).sort();
    assert.deepEqual(files, [`${j.id}.gcode`, `${j.id}.png`]);
    for (const name of files) assert.equal(statSync(path.join(q.dash.dataDir, 'queue-files', name)).mode & 0o777, 0o600);
    assert.deepEqual(readFileSync(path.join(q.dash.dataDir, 'queue-files', `${j.id}.png`)), png);
    assert.equal((await q.dash.request('delete', `/api/queue/${j.id}`, { token: TEST_TOKENS.print })).status, 204);
    assert.deepEqual(readdirSync(path.join(q.dash.dataDir, 'queue-files')), []);
  });

  test('a Bambu project: filaments, use and estimate from its slice info, the picture from plate_1.png', async () => {
    const { strToU8, zipSync } = await import('fflate');
    const png = solidPng(8, 8, [0, 0, 255, 255]);
    const project = zipSync({
      'Metadata/plate_1.gcode': strToU8('G28\n'),
      'Metadata/plate_1.png': png,
      'Metadata/slice_info.config': strToU8(
        '<config><plate><metadata key="index" value="1"/><metadata key="prediction" value="1800"/>' +
          '<filament id="2" type="PETG" color="#F72323" used_m="1.50" used_g="4.20"/></plate></config>',
      ),
    });
    const added = await postJob(q.dash, 'red.gcode.3mf', project);
    assert.equal(added.status, 201, added.text);
    assert.deepEqual(added.json.requirements.filaments, [{ filament: 2, material: 'PETG', color_hex: '#F72323' }]);
    assert.deepEqual(added.json.plan, { estimate_s: 1800, amounts: [{ filament: 2, grams: 4.2, length_mm: 1500 }], has_thumbnail: true });
    assert.equal(added.json.file.format, 'gcode.3mf');
    await q.dash.request('delete', `/api/queue/${added.json.id}`, { token: TEST_TOKENS.print });
  });

  test('bad input: 400 naming the field, nothing stored', async () => {
    const before = await jobs(q.dash);
    const cases: Array<[string, string | Uint8Array, Record<string, unknown>, RegExp]> = [
      ['model.stl', 'solid x', {}, /body\/file "model\.stl" is not a \.gcode or \.gcode\.3mf file/],
      ['a.gcode', '', {}, /body\/file is empty/],
      ['a.gcode', PLA_WHITE, { copies: 0 }, /body\/copies must be an integer from 1 to 1000/],
      ['a.gcode', PLA_WHITE, { priority: 'high' }, /body\/priority must be an integer/],
      ['a.gcode', PLA_WHITE, { position: -1 }, /body\/position/],
      ['a.gcode', PLA_WHITE, { held: 'maybe' }, /body\/held must be true or false/],
      ['a.gcode', PLA_WHITE, { colour: 'red' }, /body\/colour is not a field of the job form/],
      ['a.gcode', PLA_WHITE, { name: 'evil\u202Egcode' }, /body\/name contains U\+202E/],
      ['a\u200B.gcode', PLA_WHITE, {}, /body\/name contains U\+200B .*\(taken from the file name\)/],
      ['a.gcode', PLA_WHITE, { requirements: '{not json' }, /body\/requirements must be a JSON object/],
      ['a.gcode', PLA_WHITE, { requirements: { filaments: [{ filament: 0, material: 'PLA' }] } }, /body\/requirements\/filaments\/0\/filament/],
      ['a.gcode', PLA_WHITE, { requirements: { filaments: [{ filament: 1, material: 'PLA', color_hex: 'red' }] } }, /color_hex/],
      ['a.gcode', PLA_WHITE, { requirements: { printer_type: 'octoprint' } }, /printer_type/],
      ['a.gcode', PLA_WHITE, { requirements: { printer_ids: ['nope'] } }, /printer_ids names printers that do not exist: nope/],
      ['a.gcode.3mf', 'not a zip', {}, /body\/file is not a \.gcode\.3mf project/],
    ];
    for (const [name, content, fields, pattern] of cases) {
      const refused = await postJob(q.dash, name, content, fields);
      expectError(refused, 400, 'ERR_VALIDATION', pattern);
    }
    const noFile = await fetch(`${q.dash.url}/api/queue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKENS.print}` },
      body: (() => {
        const form = new FormData();
        form.set('name', 'x');
        return form;
      })(),
    });
    assert.equal(noFile.status, 400);
    assert.match(((await noFile.json()) as { error: string }).error, /body\/file is required/);
    const json = await q.dash.request('post', '/api/queue', { token: TEST_TOKENS.print, body: { name: 'x' } });
    expectError(json, 400, 'ERR_VALIDATION', /multipart\/form-data/);
    assert.deepEqual(await jobs(q.dash), before);
    assert.deepEqual(readdirSync(path.join(q.dash.dataDir, 'queue-files')), []);

    const added = await postJob(q.dash, 'a.gcode', PLA_WHITE);
    const id = added.json.id;
    for (const [body, pattern] of [
      [{}, /body/],
      [{ copies: 0 }, /body\/copies/],
      [{ state: 'printing' }, /body\/state/],
      [{ requirements: { nozzle_diameter: -1 } }, /nozzle_diameter/],
      [{ surprise: 1 }, /body\/surprise/],
      [{ name: 'bad\u202Ename' }, /body\/name/],
    ] as const) {
      expectError(await q.dash.request('put', `/api/queue/${id}`, { token: TEST_TOKENS.print, body }), 400, 'ERR_VALIDATION', pattern);
    }
    expectError(await q.dash.request('get', '/api/queue/0123456789abcdef', { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND');
    expectError(await q.dash.request('get', '/api/queue/NOT-AN-ID', { token: TEST_TOKENS.view }), 400, 'ERR_VALIDATION');
    expectError(
      await q.dash.request('put', '/api/queue/0123456789abcdef', { token: TEST_TOKENS.print, body: { priority: 1 } }),
      404,
      'ERR_NOT_FOUND',
    );
    expectError(await q.dash.request('delete', '/api/queue/0123456789abcdef', { token: TEST_TOKENS.print }), 404, 'ERR_NOT_FOUND');
    expectError(await clearPlate(q.dash, 'no-such-printer'), 404, 'ERR_NOT_FOUND');
    assert.equal((await job(q.dash, id)).name, 'a');
    await q.dash.request('delete', `/api/queue/${id}`, { token: TEST_TOKENS.print });
  });

  test('roles: view reads; print manages the queue and confirms plates; admin too; no credentials 401', async () => {
    const printerId = await q.addPrinter('R1', 'marlin-serial');
    expectError(await postJob(q.dash, 'a.gcode', PLA_WHITE, {}, TEST_TOKENS.view), 403, 'ERR_FORBIDDEN');
    expectError(await postJob(q.dash, 'a.gcode', PLA_WHITE, {}, 'nobody'), 401, 'ERR_UNAUTHORIZED');
    const added = await postJob(q.dash, 'a.gcode', PLA_WHITE, { held: true }, TEST_TOKENS.admin);
    assert.equal(added.status, 201);
    assert.equal(added.json.user, 'admin');
    const id = added.json.id;
    expectError(await q.dash.request('get', '/api/queue'), 401, 'ERR_UNAUTHORIZED');
    for (const [method, url, body] of [
      ['put', `/api/queue/${id}`, { priority: 3 }],
      ['delete', `/api/queue/${id}`, undefined],
      ['post', '/api/queue/dispatch', undefined],
      ['post', `/api/printers/${printerId}/plate-cleared`, undefined],
    ] as const) {
      expectError(await q.dash.request(method, url, { token: TEST_TOKENS.view, body }), 403, 'ERR_FORBIDDEN');
    }
    assert.equal((await q.dash.request('get', `/api/printers/${printerId}/plate`, { token: TEST_TOKENS.view })).json.state, 'unknown');
    assert.equal((await q.dash.request('get', `/api/queue/${id}`, { token: TEST_TOKENS.view })).status, 200);
    const changed = await q.dash.request('put', `/api/queue/${id}`, { token: TEST_TOKENS.print, body: { priority: 3 } });
    assert.equal(changed.json?.priority, 3, changed.text);
    assert.equal((await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print })).status, 200);
    const cleared = await clearPlate(q.dash, printerId, TEST_TOKENS.admin);
    assert.deepEqual([cleared.status, cleared.json.state, cleared.json.by], [200, 'clear', 'admin']);
    assert.equal((await q.dash.request('delete', `/api/queue/${id}`, { token: TEST_TOKENS.admin })).status, 204);
  });
});

describe('dispatching', () => {
  let q: QueueDashboard;
  let socket: TestClient;
  const messages: Received[] = [];
  let stopEnds: () => void;
  let bambu: string;
  let marlin: string;

  before(async () => {
    q = await startQueueDashboard();
    stopEnds = followPrintEnds(q.dash.server);
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
    stopEnds();
    socket.ws.close();
    await q.dash.cleanup();
  });

  const ws = (type: string) => messages.filter((m) => m.type === type).map((m) => m.payload as any);

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
    const dispatched = ws('print.dispatched').find((d) => d.job_id === id);
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
    assert.ok(ws('queue.update').some((u) => u.job.id === id && u.job.state === 'printing'));
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
    const dispatched = ws('print.dispatched').find((d) => d.job_id === id);
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
    const dispatched = ws('print.dispatched').find((d) => d.job_id === added.json.id);
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
    assert.ok(ws('queue.update').some((u) => u.action === 'removed' && u.job.id === id));
  });
});
