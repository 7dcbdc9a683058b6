/**
 * The queue's job form over HTTP (queue-dashboard.ts): what a G-code file and a Bambu project say
 * about themselves, the files kept, bad input named and nothing stored, and the roles.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { expectError } from '../../fixtures/dashboard.js';
import { solidPng } from '../../fixtures/solid-png.js';
import { clearPlate, gcodeFile, job, jobs, PLA_WHITE, postJob, startQueueDashboard, TEST_TOKENS, type QueueDashboard } from './queue-dashboard.js';

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
    const picture = await fetch(`${q.dash.url}/api/queue/${j.id}/thumbnail.png`, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
    assert.deepEqual([picture.status, picture.headers.get('content-type')], [200, 'image/png']);
    assert.deepEqual(Buffer.from(await picture.arrayBuffer()), png);
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
    expectError(await q.dash.request('get', `/api/queue/${id}/thumbnail.png`, { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND', /no plate picture/);
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

test('a restart keeps the jobs and their files, and removes what unfinished uploads and slices left', async () => {
  const first = await startQueueDashboard();
  const added = await postJob(first.dash, 'kept.gcode', PLA_WHITE, { copies: 2, priority: 4 });
  assert.equal(added.status, 201, added.text);
  await first.dash.stop();
  const files = path.join(first.dash.dataDir, 'queue-files');
  mkdirSync(path.join(files, 'incoming-0123456789abcdef'));
  writeFileSync(path.join(files, 'incoming-0123456789abcdef', 'half.gcode'), 'G28\n');
  mkdirSync(path.join(files, `slice-${added.json.id}-1`));
  writeFileSync(path.join(files, 'fedcba9876543210.gcode'), 'G28\n');
  const again = await startQueueDashboard({ dataDir: first.dash.dataDir });
  try {
    const strip = ({ updated_at: _u, waiting_reason: _w, ...rest }: any) => rest;
    assert.deepEqual((await jobs(again.dash)).map(strip), [strip(added.json)]);
    assert.deepEqual(readdirSync(files), [`${added.json.id}.gcode`]);
  } finally {
    await again.dash.cleanup();
  }
});
