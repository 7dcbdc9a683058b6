/**
 * The remote text-to-3D provider (`remote-text`) against a local fake of Meshy's API on
 * 127.0.0.1 (test/fixtures/fake-meshy.ts): nothing listed or contacted until an admin enables it;
 * a prompt becomes a repaired, closed, scaled solid through the same job API; the provider's
 * errors (a refused key, rate limits, a failed task, a timeout, an unreachable host, a model the
 * box cannot read or close) are clear job failures; the API key never leaves the settings.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { modelGenerationFeature, settingsFeature } from '../../../appliance/dashboard/features.js';
import { loadModel, repairMesh } from '../../../appliance/slicer/index.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { type FakeMeshy, startFakeMeshy, toObj } from '../../fixtures/fake-meshy.js';
import { box, toBinaryStl } from '../../fixtures/meshes.js';

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const API_KEY = 'msy-test-4f1c2d9e8b7a6f5e4d3c2b1a';
const JOB_TIMEOUT_MS = 60_000;
let fake: FakeMeshy;
let dash: DashboardFixture;

/** A brick 1 × 2 × 0.5 in the provider's units, its long side up (y, as Meshy's models are); one face wound the wrong way. */
function providerBrick(): Uint8Array {
  const mesh = box(1, 2, 0.5);
  const [a, b] = [mesh.indices[0], mesh.indices[1]];
  mesh.indices[0] = b;
  mesh.indices[1] = a;
  return toObj(mesh);
}

const BRICK_FILES = {
  glb: new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0]),
  fbx: new Uint8Array(16),
  obj: providerBrick(),
  mtl: new Uint8Array(8),
};

before(async () => {
  fake = await startFakeMeshy(API_KEY);
  dash = await startDashboardFixture({
    features: [settingsFeature, modelGenerationFeature],
    createAuthenticator: testAuthenticator,
    config: {
      rate_limit: { enabled: false },
      model_provider: { enabled: false, url: fake.url, api_key: API_KEY, timeout_s: 30, poll_interval_s: 0.1 },
    },
  });
});

after(async () => {
  await dash.cleanup();
  await fake.close();
});

const setProvider = async (values: Record<string, unknown>) => {
  const answer = await dash.request('patch', '/api/settings', { token: TEST_TOKENS.admin, body: { model_provider: values } });
  assert.equal(answer.status, 200, answer.text);
};
const generators = async (): Promise<string[]> =>
  (await dash.request('get', '/api/ai-model/generators', { token: TEST_TOKENS.view })).json.map((g: { id: string }) => g.id);
const ask = (body: Record<string, unknown> = { prompt: 'a brick' }) =>
  dash.request('post', '/api/ai-model/remote-text', { token: TEST_TOKENS.print, body });

async function finished(id: string): Promise<Record<string, any>> {
  return eventually(
    `job ${id} finished`,
    async () => {
      const answer = (await dash.request('get', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.view })).json;
      return answer.state === 'done' || answer.state === 'failed' ? answer : null;
    },
    JOB_TIMEOUT_MS,
  );
}

/** Runs a job on the plan and returns it finished. */
async function jobWith(plan: FakeMeshy['plan'], body?: Record<string, unknown>): Promise<Record<string, any>> {
  fake.plan = plan;
  const created = await ask(body);
  assert.equal(created.status, 202, created.text);
  return finished(created.json.id);
}

test('with no provider enabled nothing is listed, the route is 404 and the provider is never contacted', async () => {
  assert.equal((await generators()).includes('remote-text'), false);
  expectError(await ask(), 404, 'ERR_NOT_FOUND', /no text-to-3D provider is configured/);
  await setProvider({ enabled: true, api_key: '' });
  assert.equal((await generators()).includes('remote-text'), false, 'enabled without a key is not configured');
  expectError(await ask(), 404, 'ERR_NOT_FOUND');
  assert.deepEqual(fake.requests, []);
});

test('enabled with a key, it is listed with its schema and a prompt becomes a closed solid of the size asked for', async () => {
  await setProvider({ enabled: true, api_key: API_KEY });
  const listed = (await dash.request('get', '/api/ai-model/generators', { token: TEST_TOKENS.view })).json.find(
    (g: { id: string }) => g.id === 'remote-text',
  );
  assert.equal(listed.title, 'Text to 3D (Meshy)');
  assert.equal(listed.path, '/api/ai-model/remote-text');
  assert.equal(listed.parameters.properties.size_mm.default, 60);
  expectError(await ask({ prompt: '' }), 400, 'ERR_VALIDATION');

  const job = await jobWith({ readsInProgress: 3, files: BRICK_FILES }, { prompt: 'a brick', size_mm: 60 });
  assert.equal(job.state, 'done', job.error);
  assert.deepEqual(job.result.size_mm, [30, 15, 60], 'the long side (y at the provider) stands up, scaled to 60 mm');
  assert.ok(Math.abs(job.result.volume_mm3 - 30 * 15 * 60) < 1, `volume ${job.result.volume_mm3}`);
  assert.equal(job.result.notes.provider, 'meshy');
  assert.equal(job.result.notes.source_format, 'obj');
  assert.equal(job.result.notes.repair.trianglesFlipped, 1, 'the face wound the wrong way was turned');

  const create = fake.requests.find((r) => r.method === 'POST');
  assert.deepEqual(create?.body, { mode: 'preview', prompt: 'a brick', model_type: 'standard' });
  assert.equal(
    job.result.notes.provider_task,
    fake.requests
      .find((r) => r.path.startsWith('/openapi/v2/text-to-3d/'))
      ?.path.split('/')
      .pop(),
  );
  assert.ok(fake.requests.filter((r) => r.path.startsWith('/openapi/')).every((r) => r.authorization === `Bearer ${API_KEY}`));
  const download = fake.requests.filter((r) => r.path.startsWith('/assets/'));
  assert.deepEqual(
    download.map((r) => [r.path.split('.').pop(), r.authorization]),
    [['obj', undefined]],
    'the OBJ alone was fetched, without the key',
  );

  const file = await fetch(`${dash.url}/api/ai-model/jobs/${job.id}/download`, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  const model = loadModel(new Uint8Array(await file.arrayBuffer()), 'brick.stl');
  const report = repairMesh(model.objects[0].mesh).report;
  assert.deepEqual([report.openEdges, report.nonManifoldEdges, report.flippedTriangles, report.shells], [0, 0, 0, 1]);
});

test('an STL offered beside the OBJ is taken first', async () => {
  fake.requests = [];
  const job = await jobWith({ files: { ...BRICK_FILES, stl: toBinaryStl(box(2, 1, 1)) } }, { prompt: 'a block', size_mm: 40 });
  assert.equal(job.state, 'done', job.error);
  assert.equal(job.result.notes.source_format, 'stl-binary');
  assert.deepEqual(job.result.size_mm, [40, 20, 20]);
});

test('reads of the task that fail for a moment (429, 503) are tried again', async () => {
  const job = await jobWith({ pollErrors: [429, 503], files: BRICK_FILES });
  assert.equal(job.state, 'done', job.error);
});

test("the provider's errors are clear job failures", async () => {
  const cases: [string, FakeMeshy['plan'], RegExp][] = [
    ['rate limited', { createError: { status: 429, message: 'Too many requests' } }, /limiting requests \(HTTP 429\).*Too many requests/],
    ['no credits', { createError: { status: 402, message: 'Insufficient credits' } }, /no credits left \(HTTP 402\)/],
    ['server error on every read', { pollErrors: [500, 500, 500, 500, 500] }, /provider failed \(HTTP 500\).*state of its task/],
    ['failed task', { failWith: 'The prompt was flagged by moderation', files: BRICK_FILES }, /could not make the model: The prompt was flagged/],
    ['only formats the box cannot read', { files: { glb: BRICK_FILES.glb, fbx: BRICK_FILES.fbx } }, /offered no model file the box reads.*glb, fbx/],
    ['a file that is no model', { files: { obj: new TextEncoder().encode('<html>Access denied</html>') } }, /model file cannot be read/],
    [
      'a surface that is no solid',
      { files: { obj: new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n') } },
      /not a closed solid|encloses no volume/,
    ],
  ];
  for (const [what, plan, expected] of cases) {
    const job = await jobWith(plan);
    assert.equal(job.state, 'failed', what);
    assert.match(job.error, expected, what);
  }
});

test('a refused key, a provider that takes too long and one that cannot be reached fail the job', async () => {
  await setProvider({ api_key: 'msy-wrong-key' });
  assert.match((await jobWith({ files: BRICK_FILES })).error, /refused the API key \(HTTP 401\).*Invalid API key/);
  await setProvider({ api_key: API_KEY, timeout_s: 1 });
  assert.match((await jobWith({ readsInProgress: 1_000_000 })).error, /did not deliver the model within 1 s/);
  await setProvider({ timeout_s: 30, url: `http://127.0.0.1:${await closedPort()}` });
  assert.match((await jobWith({})).error, /cannot be reached when asked for a model: ECONNREFUSED/);
  await setProvider({ url: fake.url });
});

test('the API key is never shown: the settings say it is set, the jobs, the logs and the catalogue do not hold it', async () => {
  const settings = await dash.request('get', '/api/settings', { token: TEST_TOKENS.admin });
  assert.equal(settings.json.values.model_provider.api_key, '(set)');
  assert.equal(settings.text.includes(API_KEY), false);
  for (const path of ['/api/ai-model/jobs', '/api/ai-model/generators']) {
    assert.equal((await dash.request('get', path, { token: TEST_TOKENS.view })).text.includes(API_KEY), false, path);
  }
  assert.equal(dash.logs().includes(API_KEY), false, 'the log');
  expectError(await dash.request('get', '/api/settings', { token: TEST_TOKENS.print }), 403, 'ERR_FORBIDDEN');
});
