import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { FAKE_JOB_ID, startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const GCODE = [
  ';LAYER_CHANGE',
  ';Z:0.2',
  'M83',
  'G1 Z0.2',
  'G1 X0 Y0',
  ';TYPE:External perimeter',
  ';WIDTH:0.45',
  'G1 X10 Y0 E1',
  'G1 X10 Y10 E1',
  ';LAYER_CHANGE',
  'G1 Z0.4',
  'G1 X0 Y0 E1',
  '',
].join('\n');

let upstream: FakeUpstream;
let dash: DashboardFixture;
before(async () => {
  upstream = await startFakeUpstream({
    token: 'tok-1',
    gcode: GCODE,
    profiles: [
      { id: 'generic-pla', kind: 'filament', name: 'Generic PLA', vendor: 'Generic', settings: { nozzle_temperature: [215] } },
      { id: 'bambu-lab-x1-carbon-0.4', kind: 'printer', name: 'Bambu Lab X1 Carbon 0.4 nozzle', vendor: 'Bambu Lab', settings: {} },
    ],
  });
  dash = await startRemoteDashboard({ url: upstream.url, token: 'tok-1' });
});
after(async () => {
  await dash.cleanup();
  await upstream.close();
});

const config = () => JSON.parse(readFileSync(path.join(dash.dataDir, 'config.json'), 'utf8')).slicer_service;

test('status shows the token only as *** with token_set; reading needs view', async () => {
  assert.equal((await dash.request('get', '/api/slicer/remote/status')).status, 401);
  const status = await dash.request('get', '/api/slicer/remote/status', { token: TEST_TOKENS.view });
  assert.equal(status.status, 200);
  assert.deepEqual([status.json.token, status.json.token_set], ['***', true]);
  assert.ok(!status.text.includes('tok-1'));
  assert.equal((await dash.request('get', '/api/slicer/remote/status?force=2', { token: TEST_TOKENS.view })).status, 400);
});

test('configure: admin only; validates the URL; persists to config.json; *** keeps the token', async () => {
  const body = { url: upstream.url, token: '***' };
  assert.equal((await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.print, body })).status, 403);
  for (const url of ['ftp://127.0.0.1:1', 'not a url', 'http://']) {
    const bad = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { url } });
    assert.equal(bad.status, 400, url);
    assert.equal(bad.json.code, 'ERR_VALIDATION');
    assert.equal(bad.json.details[0].path, 'body/url');
  }
  assert.equal((await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { extra: 1 } })).status, 400);

  const kept = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body });
  assert.equal(kept.status, 200);
  assert.deepEqual([kept.json.ok, kept.json.token_set, kept.json.overridden], [true, true, []]);
  assert.equal(config().token, 'tok-1');

  const other = `http://localhost:${upstream.port}/`;
  const changed = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { url: other, token: 'tok-2' } });
  assert.deepEqual([changed.json.url, changed.json.ok], [other, false], 'the new settings are probed at once; the upstream wants tok-1');
  assert.deepEqual(config(), { enabled: true, url: other, token: 'tok-2' });
  const back = await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { url: upstream.url, token: 'tok-1' } });
  assert.equal(back.json.ok, true);
  assert.deepEqual(config(), { enabled: true, url: upstream.url, token: 'tok-1' });
});

test('the catalogue and the jobs are passed through with the Bearer token; filters go upstream', async () => {
  upstream.requests.length = 0;
  const profiles = await dash.request('get', '/api/slicer/remote/profiles?kind=printer&vendor=bambu%20lab', { token: TEST_TOKENS.view });
  assert.equal(profiles.status, 200);
  assert.deepEqual(
    profiles.json.profiles.map((p: { id: string }) => p.id),
    ['bambu-lab-x1-carbon-0.4'],
  );
  assert.ok(upstream.requests.some((r) => r.path === '/api/profiles?kind=printer&vendor=bambu+lab'));
  assert.equal((await dash.request('get', '/api/slicer/remote/profiles?kind=spool', { token: TEST_TOKENS.view })).status, 400);

  const jobs = await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.view });
  assert.deepEqual(jobs.json, { running: [], queued: [], finished: [], limits: { workers: 1, queue_size: 4 } });

  const gcode = await dash.request('get', `/api/slicer/remote/jobs/${FAKE_JOB_ID}/gcode`, { token: TEST_TOKENS.view });
  assert.equal(gcode.status, 200);
  assert.equal(gcode.text, GCODE);
  assert.equal(gcode.headers.get('content-type'), 'text/x.gcode');
  assert.equal(gcode.headers.get('content-disposition'), 'attachment; filename="fake.gcode"');

  const missing = await dash.request('get', '/api/slicer/remote/jobs/0000000000000000/gcode', { token: TEST_TOKENS.view });
  assert.deepEqual([missing.status, missing.json.code], [404, 'ERR_NOT_FOUND'], "the service's status and code are kept");
  assert.equal((await dash.request('get', '/api/slicer/remote/jobs/..%2Fx/gcode', { token: TEST_TOKENS.view })).status, 400);
  assert.equal((await dash.request('post', `/api/slicer/remote/jobs/${FAKE_JOB_ID}/cancel`, { token: TEST_TOKENS.view })).status, 403);
  assert.ok(upstream.requests.length > 0 && upstream.requests.every((r) => r.authorization === 'Bearer tok-1'));
});

test('preview: SVG of the first layer drawn from the job G-code; PNG relayed (the upstream has none here)', async () => {
  const svg = await dash.request('get', `/api/slicer/remote/preview?job=${FAKE_JOB_ID}&format=svg`, { token: TEST_TOKENS.view });
  assert.equal(svg.status, 200);
  assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  assert.match(svg.text, /<g data-type="External perimeter" stroke="#ff7d38">\n<polyline stroke-width="0\.45" points="[^"]+"\/>\n<\/g>/);
  assert.equal((svg.text.match(/<polyline/g) ?? []).length, 1, 'the second layer is not drawn');

  const png = await dash.request('get', `/api/slicer/remote/preview?job=${FAKE_JOB_ID}`, { token: TEST_TOKENS.view });
  assert.deepEqual([png.status, png.json.code], [404, 'ERR_NOT_FOUND']);
  for (const query of [
    '',
    '?format=svg',
    `?job=${FAKE_JOB_ID}&result=0123456789abcdef`,
    '?result=0123456789abcdef&format=png',
    '?job=x&format=gif',
  ]) {
    assert.equal((await dash.request('get', `/api/slicer/remote/preview${query}`, { token: TEST_TOKENS.view })).status, 400, query);
  }
  assert.equal((await dash.request('get', '/api/slicer/remote/preview?result=0123456789abcdef&format=svg', { token: TEST_TOKENS.view })).status, 404);
});

test('disabled: the proxy answers 503 saying so', async () => {
  await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: false } });
  try {
    const profiles = await dash.request('get', '/api/slicer/remote/profiles', { token: TEST_TOKENS.view });
    assert.deepEqual([profiles.status, profiles.json.code], [503, 'ERR_UNAVAILABLE']);
    assert.match(profiles.json.error, /disabled/);
  } finally {
    await dash.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body: { enabled: true } });
  }
});

test('SLICER_URL wins over the file: configure saves the file and says the key is overridden', async () => {
  const envDash = await startRemoteDashboard({ url: upstream.url, token: 'tok-1', env: { SLICER_URL: upstream.url } });
  try {
    const res = await envDash.request('post', '/api/slicer/remote/configure', {
      token: TEST_TOKENS.admin,
      body: { url: 'http://127.0.0.1:9/', token: 'tok-9' },
    });
    assert.deepEqual([res.json.url, res.json.overridden], [upstream.url, ['url']]);
    assert.equal(JSON.parse(readFileSync(path.join(envDash.dataDir, 'config.json'), 'utf8')).slicer_service.url, 'http://127.0.0.1:9/');
  } finally {
    await envDash.cleanup();
  }
});
