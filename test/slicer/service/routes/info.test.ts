import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--rest-token', 's3cret']);
});
after(() => svc.cleanup());

test('GET /api/health answers the contract fields, without the token', async () => {
  const res = await fetch(`${svc.url}/api/health`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['config_dir', 'ok', 'service', 'started_at', 'upstream', 'version']);
  assert.equal(body.ok, true);
  assert.equal(body.service, 'printyard-slicer');
  assert.equal(body.version, '0.1.0');
  assert.match(String(body.upstream), /Printyard engine 0\.1\.0.*OrcaSlicer/);
  assert.equal(body.config_dir, svc.configDir);
  assert.match(String(body.started_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(Date.now() - Date.parse(String(body.started_at)) < 60_000);
});

test('GET /api/version gives the contract version 1, without the token', async () => {
  const res = await fetch(`${svc.url}/api/version`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { version: '0.1.0', api: 1, upstream: 'Printyard engine 0.1.0 (OrcaSlicer setting names)' });
});
