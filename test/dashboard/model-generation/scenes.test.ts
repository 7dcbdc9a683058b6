/**
 * /api/ai-model/scenes over loopback HTTP: create, list, read, replace and delete with every
 * default filled in; bad input (unknown job, a transform out of bounds, a schema break) refused
 * naming what is wrong; roles; a scene whose job was deleted says which object is missing and is
 * refused for slicing and download; the bounded count; a restart keeps the scenes; the jobs a scene
 * uses are not dropped to make room for new ones.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { authFeature, modelGenerationFeature } from '../../../appliance/dashboard/features.js';
import { MAX_JOBS } from '../../../appliance/dashboard/model-generation/jobs.js';
import { MAX_SCENES } from '../../../appliance/dashboard/model-generation/scenes/scene.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';

const FEATURES = [authFeature, modelGenerationFeature];
const CONFIG = { rate_limit: { enabled: false } };
let dash: DashboardFixture;
let gear: string;
let box: string;

const as = (role: keyof typeof TEST_TOKENS) => ({ token: TEST_TOKENS[role] });

async function generated(generator: string, body: Record<string, unknown>): Promise<string> {
  const created = await dash.request('post', `/api/ai-model/${generator}`, { ...as('print'), body });
  assert.equal(created.status, 202, created.text);
  const id: string = created.json.id;
  await eventually(`job ${id} done`, async () => (await dash.request('get', `/api/ai-model/jobs/${id}`, as('view'))).json.state === 'done');
  return id;
}

before(async () => {
  dash = await startDashboardFixture({ features: FEATURES, createAuthenticator: testAuthenticator, config: CONFIG });
  gear = await generated('gear', { teeth: 12, module: 2, thickness: 4 });
  box = await generated('box', { width: 30, depth: 24, height: 12, lip_height: 4 });
});

after(async () => {
  await dash.cleanup();
});

const createScene = (body: unknown, role: keyof typeof TEST_TOKENS = 'print') => dash.request('post', '/api/ai-model/scenes', { ...as(role), body });

test('a scene is created with every default filled in, read, listed, replaced and deleted', async () => {
  const created = await createScene({
    name: ' Plate  A ',
    objects: [
      { job_id: gear },
      { job_id: box, name: 'Box', transform: { translate: { x: 40 }, rotate: { z: 90 }, scale: 1.5, mirror: { y: true } } },
    ],
    printer_id: 'generic-marlin-0.4',
  });
  assert.equal(created.status, 201, created.text);
  const scene = created.json;
  assert.equal(scene.name, 'Plate  A', 'trimmed');
  assert.equal(scene.missing, 0);
  assert.deepEqual(
    scene.objects.map((o: { name: string; missing: null }) => [o.name, o.missing]),
    [
      ['gear-1', null],
      ['Box', null],
    ],
  );
  assert.deepEqual(scene.objects[0].transform, {
    translate: { x: 0, y: 0, z: 0 },
    rotate: { x: 0, y: 0, z: 0 },
    scale: { x: 1, y: 1, z: 1 },
    mirror: { x: false, y: false, z: false },
  });
  assert.deepEqual(scene.objects[1].transform.scale, { x: 1.5, y: 1.5, z: 1.5 }, 'one factor is every axis');
  assert.deepEqual([scene.printer_id, scene.filament_ids, scene.process_id], ['generic-marlin-0.4', null, null]);

  assert.deepEqual((await dash.request('get', `/api/ai-model/scenes/${scene.id}`, as('view'))).json, scene);
  const listed = (await dash.request('get', '/api/ai-model/scenes', as('view'))).json;
  assert.equal(listed[0].id, scene.id, 'newest first');

  const replaced = await dash.request('put', `/api/ai-model/scenes/${scene.id}`, {
    ...as('print'),
    body: { name: 'Plate B', objects: [{ job_id: box, transform: { scale: { x: 2 } } }], filament_ids: ['generic-pla'] },
  });
  assert.equal(replaced.status, 200, replaced.text);
  assert.equal(replaced.json.id, scene.id);
  assert.equal(replaced.json.created_at, scene.created_at);
  assert.ok(replaced.json.updated_at >= scene.updated_at);
  assert.deepEqual(replaced.json.objects[0].transform.scale, { x: 2, y: 1, z: 1 });
  assert.deepEqual([replaced.json.printer_id, replaced.json.filament_ids], [null, ['generic-pla']], 'PUT replaces the whole scene');

  assert.equal((await dash.request('delete', `/api/ai-model/scenes/${scene.id}`, as('print'))).status, 204);
  expectError(await dash.request('get', `/api/ai-model/scenes/${scene.id}`, as('view')), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('delete', `/api/ai-model/scenes/${scene.id}`, as('print')), 404, 'ERR_NOT_FOUND');
});

test('bad input is refused, naming the job, the field or the size', async () => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  const noJob = await createScene({ name: 'x', objects: [{ job_id: gear }, { job_id: unknown }] });
  expectError(noJob, 404, 'ERR_NOT_FOUND', new RegExp(`objects/1: no generation job ${unknown}`));
  const huge = await createScene({ name: 'x', objects: [{ job_id: gear, transform: { scale: 100 } }] });
  expectError(huge, 400, 'ERR_VALIDATION', /2400\.0 x 2400\.0 x 400\.0 mm|each side must be from 0.1 to 2000 mm/);
  assert.equal(huge.json.details[0].path, 'body/objects/0/transform/scale');
  const flat = await createScene({ name: 'x', objects: [{ job_id: gear, transform: { scale: { z: 0.01 } } }] });
  expectError(flat, 400, 'ERR_VALIDATION', /0\.0 mm|from 0.1/);
  expectError(await createScene({ name: 'x', objects: [{ job_id: gear, transform: { scale: 0 } }] }), 400, 'ERR_VALIDATION');
  const buried = await createScene({ name: 'x', objects: [{ job_id: gear, transform: { translate: { z: -4 } } }] });
  expectError(buried, 400, 'ERR_VALIDATION', /sinks the whole object \(4\.0 mm high\) into the bed/);
  expectError(await createScene({ name: 'x', objects: [{ job_id: gear, transform: { translate: { z: 2 } } }] }), 400, 'ERR_VALIDATION');
  expectError(await createScene({ name: 'x', objects: [{ job_id: gear, colour: 'red' }] }), 400, 'ERR_VALIDATION');
  expectError(await createScene({ name: '', objects: [] }), 400, 'ERR_VALIDATION');
  expectError(await createScene({ name: 'a\u202eb', objects: [] }), 400, 'ERR_VALIDATION', /U\+202E/);
  expectError(await createScene({ objects: [] }), 400, 'ERR_VALIDATION');
  const put = await dash.request('put', `/api/ai-model/scenes/${unknown}`, { ...as('print'), body: { name: 'x', objects: [] } });
  expectError(put, 404, 'ERR_NOT_FOUND');
});

test('viewers read and download but may not write or slice; without credentials nothing', async () => {
  const id = (await createScene({ name: 'roles', objects: [{ job_id: gear }] })).json.id;
  expectError(await createScene({ name: 'x', objects: [] }, 'view'), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('put', `/api/ai-model/scenes/${id}`, { ...as('view'), body: { name: 'x', objects: [] } }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('delete', `/api/ai-model/scenes/${id}`, as('view')), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('post', `/api/ai-model/scenes/${id}/slice`, { ...as('view'), body: {} }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('get', '/api/ai-model/scenes'), 401, 'ERR_UNAUTHORIZED');
  assert.equal((await dash.request('get', `/api/ai-model/scenes/${id}/download`, as('view'))).status, 200);
  assert.equal((await dash.request('delete', `/api/ai-model/scenes/${id}`, as('print'))).status, 204);
});

test('a deleted job leaves its object marked missing; such a scene is neither sliced nor downloaded', async () => {
  const doomed = await generated('gear', { teeth: 10, module: 2, thickness: 3 });
  const id = (await createScene({ name: 'half', objects: [{ job_id: gear }, { job_id: doomed, name: 'spare' }] })).json.id;
  assert.equal((await dash.request('delete', `/api/ai-model/jobs/${doomed}`, as('print'))).status, 204);
  const scene = (await dash.request('get', `/api/ai-model/scenes/${id}`, as('view'))).json;
  assert.equal(scene.missing, 1);
  assert.equal(scene.objects[0].missing, null);
  assert.match(scene.objects[1].missing, new RegExp(`generation job ${doomed} was deleted`));
  const slice = await dash.request('post', `/api/ai-model/scenes/${id}/slice`, {
    ...as('print'),
    body: { printer_id: 'generic-marlin-0.4', filament_ids: ['generic-pla'], process_id: '0.20mm-standard' },
  });
  expectError(slice, 409, 'ERR_CONFLICT', /missing objects: "spare"/);
  expectError(await dash.request('get', `/api/ai-model/scenes/${id}/download`, as('view')), 409, 'ERR_CONFLICT');
  assert.equal((await dash.request('delete', `/api/ai-model/scenes/${id}`, as('print'))).status, 204);
});

test('slicing without profiles names each missing one', async () => {
  const id = (await createScene({ name: 'no profiles', objects: [{ job_id: gear }], printer_id: 'generic-marlin-0.4' })).json.id;
  const answer = await dash.request('post', `/api/ai-model/scenes/${id}/slice`, { ...as('print'), body: {} });
  expectError(answer, 400, 'ERR_VALIDATION');
  assert.deepEqual(
    answer.json.details.map((d: { path: string }) => d.path),
    ['body/filament_ids', 'body/process_id'],
  );
  assert.equal((await dash.request('delete', `/api/ai-model/scenes/${id}`, as('print'))).status, 204);
});

test(`at most ${MAX_SCENES} scenes; they survive a restart`, async () => {
  const ids: string[] = [];
  for (let i = 0; i < MAX_SCENES; i++) {
    const created = await createScene({ name: `scene ${i}`, objects: [{ job_id: gear, transform: { translate: { x: i } } }] });
    assert.equal(created.status, 201, created.text);
    ids.push(created.json.id);
  }
  expectError(await createScene({ name: 'one too many', objects: [] }), 409, 'ERR_CONFLICT', new RegExp(`${MAX_SCENES} scenes`));
  const before = (await dash.request('get', '/api/ai-model/scenes', as('view'))).json;
  await dash.stop();
  dash = await startDashboardFixture({ features: FEATURES, createAuthenticator: testAuthenticator, config: CONFIG, dataDir: dash.dataDir });
  assert.deepEqual((await dash.request('get', '/api/ai-model/scenes', as('view'))).json, before);
  for (const id of ids.slice(1)) assert.equal((await dash.request('delete', `/api/ai-model/scenes/${id}`, as('print'))).status, 204);
});

test(`a job a scene uses is kept when ${MAX_JOBS} newer jobs push the others out`, async () => {
  const scenes = (await dash.request('get', '/api/ai-model/scenes', as('view'))).json;
  assert.equal(scenes.length, 1);
  const other = await generated('gear', { teeth: 9, module: 2, thickness: 2 });
  for (let made = 0; made < MAX_JOBS; ) {
    const created = await dash.request('post', '/api/ai-model/gear', {
      ...as('print'),
      body: { teeth: 8, module: 1, thickness: 1, bore_diameter: 0 },
    });
    if (created.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    assert.equal(created.status, 202, created.text);
    made++;
  }
  const kept = (await dash.request('get', '/api/ai-model/jobs', as('view'))).json.map((j: { id: string }) => j.id);
  assert.equal(kept.includes(gear), true, 'the scene’s job stays');
  assert.equal(kept.includes(other), false, 'an older job no scene uses went');
  assert.equal((await dash.request('get', `/api/ai-model/scenes/${scenes[0].id}`, as('view'))).json.missing, 0);
});
