/**
 * POST /api/ai-model/image (the picture as the raw body, the options in the query) and
 * /api/ai-model/sketch over loopback HTTP: jobs run to done and download as STL the slicer's
 * loader reads, of the size asked for; bad pictures, oversized bodies, bad options and bad
 * sketches are refused in the API's error shape before a job is made; the uploaded picture is
 * not kept once its job has run.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { authFeature, modelGenerationFeature } from '../../../appliance/dashboard/features.js';
import { MAX_IMAGE_BYTES } from '../../../appliance/dashboard/model-generation/generators/image.js';
import { loadModel } from '../../../appliance/slicer/engine/mesh/load.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { rampJpeg, rampPng } from '../../fixtures/gradient-image.js';

let dash: DashboardFixture;

before(async () => {
  // The test follows its jobs by polling, faster than the default rate limit allows.
  dash = await startDashboardFixture({
    features: [authFeature, modelGenerationFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
  });
});

after(async () => {
  await dash.cleanup();
});

const postImage = (query: string, body: Buffer | string, contentType = 'image/png', token = TEST_TOKENS.print) =>
  dash.request('post', `/api/ai-model/image${query}`, { token, body, headers: { 'content-type': contentType } });

async function finished(id: string): Promise<Record<string, any>> {
  return eventually(`job ${id} finished`, async () => {
    const answer = (await dash.request('get', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.view })).json;
    return answer.state === 'done' || answer.state === 'failed' ? answer : null;
  });
}

async function downloadedTriangles(id: string): Promise<number> {
  const file = await fetch(`${dash.url}/api/ai-model/jobs/${id}/download`, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  assert.equal(file.status, 200);
  const model = await loadModel(new Uint8Array(await file.arrayBuffer()), 'generated.stl');
  return model.objects.reduce((n, o) => n + o.mesh.indices.length / 3, 0);
}

test('a PNG and a JPEG become lithophane and relief jobs that run to done and download as STL of the size asked for', async () => {
  const cases: [string, Buffer, string, (size: number[]) => void][] = [
    ['?width=60&resolution=2&border_width=0', rampPng(120, 60), 'image/png', (size) => assert.deepEqual(size.slice(0, 2), [60, 30])],
    [
      '?mode=relief&width=40&shape=curved&curve_angle=360&invert=true',
      rampJpeg(64, 32),
      'image/jpeg',
      (size) => assert.ok(Math.abs(size[2] - (20 + 4)) < 1e-3, `a 2:1 ring 40 mm round with 2 mm frames: ${size}`),
    ],
  ];
  for (const [query, body, type, expectSize] of cases) {
    const created = await postImage(query, body, type);
    assert.equal(created.status, 202, created.text);
    assert.equal(created.json.generator, 'image');
    assert.equal(created.json.params.max_thickness, 3.2, 'defaults filled in');
    assert.equal(typeof created.json.params.width, 'number', 'query values are typed by the schema');
    const job = await finished(created.json.id);
    assert.equal(job.state, 'done', job.error);
    assert.equal(await downloadedTriangles(job.id), job.result.triangles);
    expectSize(job.result.size_mm);
  }
  const left = readdirSync(path.join(dash.dataDir, 'model-generation')).filter((name) => name.endsWith('.upload'));
  assert.deepEqual(left, [], 'the uploaded pictures are gone once their jobs ran');
});

test('pictures and options that cannot be used are refused before a job is made', async () => {
  const before = (await dash.request('get', '/api/ai-model/jobs', { token: TEST_TOKENS.view })).json.length;
  expectError(await postImage('', 'just some text', 'text/plain'), 400, 'ERR_VALIDATION', /not a PNG or JPEG/);
  expectError(await postImage('', ''), 400, 'ERR_VALIDATION', /body is required/);
  expectError(await postImage('?mode=sepia', rampPng(8, 8)), 400, 'ERR_VALIDATION', /mode/);
  expectError(await postImage('?width=5000', rampPng(8, 8)), 400, 'ERR_VALIDATION', /width/);
  expectError(await postImage('?colour=red', rampPng(8, 8)), 400, 'ERR_VALIDATION', /not a parameter/);
  expectError(await postImage('?min_thickness=3&max_thickness=2', rampPng(8, 8)), 400, 'ERR_VALIDATION', /min_thickness/);
  expectError(await postImage('', rampPng(2, 400)), 400, 'ERR_VALIDATION', /mm high/);
  expectError(await postImage('', Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x89)), 413, 'ERR_PAYLOAD_TOO_LARGE');
  expectError(await postImage('', rampPng(8, 8), 'image/png', TEST_TOKENS.view), 403, 'ERR_FORBIDDEN');
  assert.equal((await dash.request('get', '/api/ai-model/jobs', { token: TEST_TOKENS.view })).json.length, before, 'no job was made');
});

test('a sketch job extrudes an SVG path; bad paths and crossing outlines are a 400 with the reason', async () => {
  const post = (body: unknown) => dash.request('post', '/api/ai-model/sketch', { token: TEST_TOKENS.print, body });
  const created = await post({
    path: 'M0 0h30v20h-30z M10 5a5 5 0 1 0 10 0a5 5 0 1 0 -10 0z',
    fill_rule: 'evenodd',
    height: 4,
    edge: 'chamfer',
    fit_size: 60,
  });
  assert.equal(created.status, 202, created.text);
  const job = await finished(created.json.id);
  assert.equal(job.state, 'done', job.error);
  assert.deepEqual(job.result.size_mm, [60, 40, 4]);
  assert.equal(await downloadedTriangles(job.id), job.result.triangles);

  const document = '<svg><g transform="rotate(90)"><rect width="30" height="10" rx="3"/></g><circle cx="-5" cy="40" r="5"/></svg>';
  const fromSvg = await finished((await post({ source: 'svg', svg: document, height: 3 })).json.id);
  assert.equal(fromSvg.state, 'done', fromSvg.error);
  assert.deepEqual(fromSvg.result.size_mm, [10, 45, 3], 'the rectangle turned upright, the circle below it');

  expectError(await post({ path: 'M0 0 L10 0 A5 5 0 2 0 10 10' }), 400, 'ERR_VALIDATION', /path: an arc flag/);
  expectError(
    await post({
      source: 'points',
      points: [
        [0, 0],
        [10, 10],
        [10, 0],
        [0, 10],
      ],
    }),
    400,
    'ERR_VALIDATION',
    /crosses itself/,
  );
  expectError(await post({ source: 'points', points: [[0, 0]] }), 400, 'ERR_VALIDATION', /at least 3 points/);
  expectError(await post({ path: 'M0 0 L1 1'.repeat(20_000) }), 413, 'ERR_PAYLOAD_TOO_LARGE');
});

test('the OpenAPI description documents the picture body and its query options', async () => {
  const spec = (await dash.request('get', '/api/openapi.json')).json;
  const operation = spec.paths['/api/ai-model/image'].post;
  assert.deepEqual(Object.keys(operation.requestBody.content), ['image/*']);
  const names = operation.parameters.map((p: { name: string }) => p.name);
  for (const name of ['mode', 'width', 'min_thickness', 'max_thickness', 'resolution', 'shape', 'curve_angle', 'border_width', 'invert']) {
    assert.ok(names.includes(name), `query parameter ${name}`);
  }
  assert.ok(operation.responses['413']);
});
