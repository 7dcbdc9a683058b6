/** Uploads the mesh tools refuse, each with its status and code in the dashboard's error shape. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_TOKENS, type DashboardFixture, expectError } from '../../fixtures/dashboard.js';
import { cube, toBinaryStl } from '../../fixtures/meshes.js';
import { rawRequest } from '../../fixtures/raw-http.js';
import { zipBomb3mf } from '../../fixtures/zip.js';
import { startMeshTools, upload } from './helpers.js';

let dash: DashboardFixture;
before(async () => {
  dash = await startMeshTools();
});
after(() => dash.cleanup());

const head = (path: string, extra: string[]): string =>
  [`POST ${path} HTTP/1.1`, 'Host: x', `Authorization: Bearer ${TEST_TOKENS.print}`, 'Content-Type: application/octet-stream', ...extra].join('\r\n');

test('no body: 400', async () => {
  expectError(await upload(dash, '/api/mesh/analyze', ''), 400, 'ERR_VALIDATION', /body is required/);
});

test('bytes in no model format: 415', async () => {
  expectError(await upload(dash, '/api/mesh/repair', 'x'.repeat(300)), 415, 'ERR_UNSUPPORTED_MODEL');
});

test('a truncated binary STL: 422 saying how much is missing', async () => {
  const stl = toBinaryStl(cube(10));
  expectError(await upload(dash, '/api/mesh/analyze?name=part.stl', stl.subarray(0, stl.length - 70)), 422, 'ERR_BAD_MODEL', /truncated/);
});

test('an OBJ face naming a vertex that is not there: 422 with the line', async () => {
  const obj = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n';
  expectError(await upload(dash, '/api/mesh/analyze', obj), 422, 'ERR_BAD_MODEL', /line 4/);
});

test('a 3MF that would inflate past the limit: 413', async () => {
  expectError(await upload(dash, '/api/mesh/analyze', zipBomb3mf()), 413, 'ERR_PAYLOAD_TOO_LARGE');
});

test('query parameters that do not fit: 400 naming them', async () => {
  const stl = toBinaryStl(cube(10));
  expectError(await upload(dash, '/api/mesh/repair?format=step', stl), 400, 'ERR_VALIDATION');
  expectError(await upload(dash, '/api/mesh/transform', stl), 400, 'ERR_VALIDATION', /names no transform/);
  expectError(await upload(dash, '/api/mesh/transform?scale=0', stl), 400, 'ERR_VALIDATION');
  expectError(await upload(dash, '/api/mesh/transform?rotate=90', stl), 400, 'ERR_VALIDATION');
  expectError(await upload(dash, '/api/mesh/split/component', stl), 400, 'ERR_VALIDATION');
});

test('a body declared over 50 MB: 413 before a byte is read', async () => {
  const r = await rawRequest(dash.url, {
    head: head('/api/mesh/analyze', [`Content-Length: ${60 * 1024 * 1024}`, 'Expect: 100-continue']),
    body: [Buffer.alloc(0)],
    pauseMs: 300,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.equal(r.sentWhenAnswered, 0);
});

test('a chunked body that grows past 50 MB: 413 once it does, not after all of it', async () => {
  const megabyte = Buffer.alloc(1024 * 1024, 0x20);
  const chunk = Buffer.concat([Buffer.from(`${megabyte.length.toString(16)}\r\n`), megabyte, Buffer.from('\r\n')]);
  const r = await rawRequest(dash.url, {
    head: head('/api/mesh/analyze', ['Transfer-Encoding: chunked']),
    body: Array<Buffer>(80).fill(chunk),
    stopWhenAnswered: true,
    timeoutMs: 30_000,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.ok(r.sentWhenAnswered < 80 * chunk.length, `answered after ${r.sentWhenAnswered} bytes`);
});

test('a view token may not use the mesh tools', async () => {
  const response = await dash.request('POST', '/api/mesh/analyze', { token: TEST_TOKENS.view, body: Buffer.from(toBinaryStl(cube(10))) });
  expectError(response, 403, 'ERR_FORBIDDEN');
});
