/**
 * /api/ai-model/* over loopback HTTP: the catalogue with each generator's schema, a job created,
 * followed on the WebSocket to done, downloaded as STL and 3MF (read back by the slicer's own
 * loaders), refused parameters, roles, delete, the bounded job count and a restart.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { authFeature, liveFeature, modelGenerationFeature } from '../../../appliance/dashboard/features.js';
import { MAX_JOBS } from '../../../appliance/dashboard/model-generation/jobs.js';
import { loadModel } from '../../../appliance/slicer/engine/mesh/load.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { connect, type TestClient, wsUrl } from '../live/ws-client.js';

const FEATURES = [authFeature, liveFeature, modelGenerationFeature];
/** The tests poll jobs faster than the default rate limit allows when the machine is busy. */
const CONFIG = { rate_limit: { enabled: false } };
let dash: DashboardFixture;
let socket: TestClient;

before(async () => {
  dash = await startDashboardFixture({ features: FEATURES, createAuthenticator: testAuthenticator, config: CONFIG });
  socket = connect(wsUrl(dash.url, `?token=${TEST_TOKENS.view}`));
  await socket.opened;
});

after(async () => {
  socket.ws.close();
  await dash.cleanup();
});

const post = (generator: string, body: unknown, token = TEST_TOKENS.print) => dash.request('post', `/api/ai-model/${generator}`, { token, body });
const job = (id: string) => dash.request('get', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.view });

async function finished(id: string): Promise<Record<string, any>> {
  return eventually(`job ${id} finished`, async () => {
    const answer = (await job(id)).json;
    return answer.state === 'done' || answer.state === 'failed' ? answer : null;
  });
}

test('the catalogue lists every generator with its parameters as JSON Schema, each with a default, and which one takes a file', async () => {
  const answer = await dash.request('get', '/api/ai-model/generators', { token: TEST_TOKENS.view });
  assert.equal(answer.status, 200);
  assert.deepEqual(
    answer.json.map((g: { id: string }) => g.id),
    ['text', 'box', 'gear', 'temperature-tower', 'image', 'sketch', 'cable-clip', 'hook', 'spool-holder', 'retraction-test'],
  );
  for (const generator of answer.json) {
    assert.equal(generator.path, `/api/ai-model/${generator.id}`);
    assert.equal(generator.parameters.type, 'object');
    // Only the image generator takes a file: the raw body, its options in the query.
    if (generator.id === 'image') assert.deepEqual([generator.upload.media_type, generator.upload.max_bytes], ['image/*', 16 * 1024 * 1024]);
    else assert.equal(generator.upload, null, generator.id);
    for (const [name, property] of Object.entries(generator.parameters.properties as Record<string, { default?: unknown }>)) {
      assert.notEqual(property.default, undefined, `${generator.id}.${name} has a default`);
    }
  }
});

test('a text job runs to done with its progress on the WebSocket, and downloads as STL and 3MF that the slicer reads', async () => {
  const created = await post('text', { text: 'Farm 7', hole_diameter: 4 });
  assert.equal(created.status, 202, created.text);
  assert.equal(created.json.state, 'queued');
  assert.equal(created.json.params.letter_height, 20, 'defaults filled in');
  const id = created.json.id;
  const done = await socket.nextMatching('model.job', (p) => p.id === id && p.state === 'done', 'model.job done');
  assert.equal(done.payload.progress, 1);
  const result = (await job(id)).json.result;
  assert.ok(result.triangles > 100 && result.volume_mm3 > 0, JSON.stringify(result));

  for (const format of ['stl', '3mf'] as const) {
    const file = await fetch(`${dash.url}/api/ai-model/jobs/${id}/download?format=${format}`, {
      headers: { authorization: `Bearer ${TEST_TOKENS.view}` },
    });
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-disposition') ?? '', new RegExp(`\\.${format}`));
    const bytes = new Uint8Array(await file.arrayBuffer());
    const model = await loadModel(bytes, `sign.${format}`);
    const triangles = model.objects.reduce((n, o) => n + o.mesh.indices.length / 3, 0);
    assert.equal(triangles, result.triangles, `${format} holds the whole mesh`);
  }
  expectError(await dash.request('get', `/api/ai-model/jobs/${id}/download?format=obj`, { token: TEST_TOKENS.view }), 400, 'ERR_VALIDATION');
});

test('parameters outside the schema or that do not fit together are refused before a job is made', async () => {
  expectError(await post('gear', { teeth: 3 }), 400, 'ERR_VALIDATION');
  expectError(await post('gear', { colour: 'red' }), 400, 'ERR_VALIDATION');
  expectError(await post('text', { text: '' }), 400, 'ERR_VALIDATION');
  expectError(await post('gear', { teeth: 10, module: 1, bore_diameter: 8 }), 400, 'ERR_VALIDATION', /bore/);
  expectError(await post('text', { text: '漢字' }), 400, 'ERR_VALIDATION', /no letter/);
});

test('viewers read but may not create or delete jobs; a job that is not there is 404', async () => {
  expectError(await post('box', {}, TEST_TOKENS.view), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('get', '/api/ai-model/jobs'), 401, 'ERR_UNAUTHORIZED');
  expectError(await job('00000000-0000-4000-8000-000000000000'), 404, 'ERR_NOT_FOUND');
});

test('a deleted job is gone with its result file', async () => {
  const id = (await post('gear', { teeth: 12 })).json.id;
  await finished(id);
  const file = path.join(dash.dataDir, 'model-generation', `${id}.mesh`);
  assert.ok(existsSync(file));
  assert.equal((await dash.request('delete', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.print })).status, 204);
  expectError(await job(id), 404, 'ERR_NOT_FOUND');
  assert.equal(existsSync(file), false);
  assert.ok(!(await dash.request('get', '/api/ai-model/jobs', { token: TEST_TOKENS.view })).json.some((j: { id: string }) => j.id === id));
});

test(`at most ${MAX_JOBS} jobs are kept: the oldest finished ones go first; the jobs survive a restart`, async () => {
  const ids: string[] = [];
  for (let i = 0; ids.length < MAX_JOBS + 2; i++) {
    const created = await post('gear', { teeth: 8 + (i % 5), thickness: 2 });
    if (created.status === 429) {
      await finished(ids.at(-1) as string);
      continue;
    }
    assert.equal(created.status, 202, created.text);
    ids.push(created.json.id);
  }
  await finished(ids.at(-1) as string);
  const listed = (await dash.request('get', '/api/ai-model/jobs', { token: TEST_TOKENS.view })).json.map((j: { id: string }) => j.id);
  assert.equal(listed.length, MAX_JOBS);
  assert.equal(listed[0], ids.at(-1), 'newest first');
  assert.equal(listed.includes(ids[0]), false, 'the oldest was dropped');

  await dash.stop();
  dash = await startDashboardFixture({ features: FEATURES, createAuthenticator: testAuthenticator, dataDir: dash.dataDir, config: CONFIG });
  const again = (await dash.request('get', '/api/ai-model/jobs', { token: TEST_TOKENS.view })).json.map((j: { id: string }) => j.id);
  assert.deepEqual(again, listed);
  assert.equal((await dash.request('get', `/api/ai-model/jobs/${ids.at(-1)}/download`, { token: TEST_TOKENS.view })).status, 200);
});
