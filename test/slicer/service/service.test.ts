import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { authHeaders, cubeStl, MARLIN_PLA, sliceForm, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';

const TOKEN = 'correct horse battery staple';
let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--rest-token', TOKEN]);
});
after(() => svc.cleanup());

const PROTECTED: Array<[string, string]> = [
  ['GET', '/api/profiles'],
  ['GET', '/api/profiles/generic-pla'],
  ['POST', '/api/slice'],
  ['GET', '/api/jobs'],
  ['GET', '/api/jobs/ffffffffffffffff'],
  ['POST', '/api/jobs/ffffffffffffffff/cancel'],
  ['GET', '/api/jobs/ffffffffffffffff/gcode'],
  ['GET', '/api/jobs/ffffffffffffffff/preview.png'],
  ['POST', '/api/preview'],
  ['GET', '/api/printers'],
  ['GET', '/api/no-such-route'],
];

test('with a token set, every endpoint but health and version is refused without it or with a wrong one', async () => {
  for (const [method, p] of PROTECTED) {
    for (const headers of [{}, authHeaders('wrong'), { authorization: TOKEN }, authHeaders(`${TOKEN}x`)]) {
      const res = await fetch(`${svc.url}${p}`, { method, headers });
      assert.equal(res.status, 401, `${method} ${p} ${JSON.stringify(headers)}`);
      assert.deepEqual(await res.json(), { error: 'missing or wrong bearer token', code: 'ERR_UNAUTHORIZED' });
    }
  }
  for (const p of ['/api/health', '/api/version']) assert.equal((await fetch(`${svc.url}${p}`)).status, 200);
});

test('the right token opens every endpoint', async () => {
  const res = await fetch(`${svc.url}/api/profiles?kind=process`, { headers: authHeaders(TOKEN) });
  assert.equal(res.status, 200);
  const sliced = await fetch(`${svc.url}/api/slice`, {
    method: 'POST',
    body: sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA),
    headers: authHeaders(TOKEN, { accept: 'application/json' }),
  });
  assert.equal(sliced.status, 200);
  const { job_id: id } = (await sliced.json()) as { job_id: string };
  assert.equal((await fetch(`${svc.url}/api/jobs/${id}/gcode`, { headers: authHeaders(TOKEN) })).status, 200);
  assert.equal((await fetch(`${svc.url}/api/printers`, { headers: authHeaders(TOKEN) })).status, 200);
});

test('unknown routes are 404 ERR_NOT_FOUND in the error shape', async () => {
  const res = await fetch(`${svc.url}/api/slicer`, { headers: authHeaders(TOKEN) });
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: 'no route GET /api/slicer', code: 'ERR_NOT_FOUND' });
});
