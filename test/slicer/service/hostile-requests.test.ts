/**
 * Issue 16's bad requests against the real service, exactly as they were sent: after each, the
 * service answers its health check and the job sliced before is still there, whole.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MALFORMED_PART_HEADERS, multipartWithPartHeader, rawRequest } from '../../fixtures/raw-http.js';
import { authHeaders, cubeStl, MARLIN_PLA, sliceForm, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';

const TOKEN = 'hostile-test-token';
let svc: SlicerProcess;
let earlier: { id: string; gcode: string };

before(async () => {
  svc = await startSlicer(['--max-upload-mb', '2', '--rest-token', TOKEN]);
  const res = await fetch(`${svc.url}/api/slice`, {
    method: 'POST',
    body: sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA),
    headers: authHeaders(TOKEN, { accept: 'application/json' }),
  });
  assert.equal(res.status, 200);
  const id = String(((await res.json()) as { job_id: string }).job_id);
  earlier = { id, gcode: await (await fetch(`${svc.url}/api/jobs/${id}/gcode`, { headers: authHeaders(TOKEN) })).text() };
});

after(() => svc.cleanup());

/** The service is up, and the job sliced before the bad request is listed and downloads the same. */
async function stillWhole(): Promise<void> {
  assert.equal(svc.child.exitCode, null, `the service exited:\n${svc.log()}`);
  assert.equal((await fetch(`${svc.url}/api/health`)).status, 200);
  const job = (await (await fetch(`${svc.url}/api/jobs/${earlier.id}`, { headers: authHeaders(TOKEN) })).json()) as { state: string };
  assert.equal(job.state, 'done');
  const gcode = await (await fetch(`${svc.url}/api/jobs/${earlier.id}/gcode`, { headers: authHeaders(TOKEN) })).text();
  assert.equal(gcode, earlier.gcode);
}

function sliceHead(extra: string[]): string {
  return ['POST /api/slice HTTP/1.1', 'Host: x', 'Accept: application/json', `Authorization: Bearer ${TOKEN}`, ...extra].join('\r\n');
}

for (const [what, header] of Object.entries(MALFORMED_PART_HEADERS)) {
  test(`${what}: 400 naming the problem, and the service lives`, async () => {
    const body = multipartWithPartHeader('XX', header);
    const r = await rawRequest(svc.url, {
      head: sliceHead(['Content-Type: multipart/form-data; boundary=XX', `Content-Length: ${Buffer.byteLength(body)}`]),
      body,
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { error: 'the multipart body cannot be read: Malformed part header', code: 'ERR_BAD_REQUEST' });
    await stillWhole();
  });
}

test('a declared length over --max-upload-mb with Expect: 100-continue: 413 before any body byte', async () => {
  const r = await rawRequest(svc.url, {
    head: sliceHead(['Content-Type: multipart/form-data; boundary=XX', 'Content-Length: 3000000', 'Expect: 100-continue']),
    body: [Buffer.alloc(0)],
    pauseMs: 300,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.match(r.json.error, /larger than the limit of 2 MB for the file/);
  assert.equal(r.sentWhenAnswered, 0);
  await stillWhole();
});

test('a 5 MB chunked upload is refused with 413 as soon as it passes the limit', async () => {
  const head = '--XX\r\nContent-Disposition: form-data; name="model"; filename="big.stl"\r\n\r\n';
  const piece = Buffer.alloc(256 * 1024, 0x41);
  const chunk = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
  const started = Date.now();
  const r = await rawRequest(svc.url, {
    head: sliceHead(['Content-Type: multipart/form-data; boundary=XX', 'Transfer-Encoding: chunked']),
    body: [chunk(Buffer.from(head)), ...Array.from({ length: 20 }, () => chunk(piece))],
    pauseMs: 20,
    stopWhenAnswered: true,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.ok(r.sentWhenAnswered < 4 * 1024 * 1024, `answered after ${r.sentWhenAnswered} bytes`);
  assert.ok(Date.now() - started < 5000);
  await stillWhole();
});

test('two different Content-Length headers are refused with 400', async () => {
  const r = await rawRequest(svc.url, {
    head: sliceHead(['Content-Type: multipart/form-data; boundary=XX', 'Content-Length: 5', 'Content-Length: 3']),
    body: 'abcde',
  });
  assert.equal(r.status, 400);
  assert.match(r.json.error, /content-length header is given more than once/);
  await stillWhole();
});

test('several Authorization headers are refused, whichever of them is right', async () => {
  for (const order of [
    [TOKEN, 'wrong'],
    ['wrong', TOKEN],
  ]) {
    const r = await rawRequest(svc.url, {
      head: `GET /api/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${order[0]}\r\nAuthorization: Bearer ${order[1]}`,
    });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /authorization header is given more than once/);
  }
  await stillWhole();
});

test('every answer carries the security headers, refusals included', async () => {
  const answers = [
    await fetch(`${svc.url}/api/health`),
    await fetch(`${svc.url}/api/jobs`),
    await fetch(`${svc.url}/api/nope`, { headers: authHeaders(TOKEN) }),
    await fetch(`${svc.url}/api/jobs/${earlier.id}/gcode`, { headers: authHeaders(TOKEN) }),
  ];
  for (const res of answers) {
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', res.url);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*frame-ancestors 'none'/);
    await res.arrayBuffer();
  }
});
