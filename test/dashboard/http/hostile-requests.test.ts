/**
 * Issue 16's bad requests against a real dashboard (every feature, the real auth), exactly as they
 * were sent: after each, the dashboard answers its health check and what was stored before (users,
 * an API key, a slicing profile) is still there.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey, loginAs } from '../../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { MALFORMED_PART_HEADERS, multipartWithPartHeader, rawRequest } from '../../fixtures/raw-http.js';

let dash: DashboardFixture;
let printToken: string;
let stored: { users: string; keys: string; profile: string };

async function snapshot(): Promise<typeof stored> {
  const admin = await loginAs(dash, 'admin');
  const users = await dash.request('GET', '/api/users', { token: admin });
  const keys = await dash.request('GET', '/api/api-keys', { token: admin });
  const profile = await dash.request('GET', '/api/slicer/native/profiles/my-pla', { token: admin });
  assert.equal(profile.status, 200, profile.text);
  return { users: users.text, keys: keys.text, profile: profile.text };
}

before(async () => {
  dash = await startDashboardFixture({ config: { rate_limit: { enabled: false } }, logLevel: 'warn' });
  printToken = await loginAs(dash, 'print');
  await createApiKey(dash, 'view');
  const profile = await dash.request('POST', '/api/slicer/native/profiles', {
    token: printToken,
    body: { name: 'My PLA', kind: 'filament', inherits: 'generic-pla', settings: { nozzle_temperature: [205] } },
  });
  assert.equal(profile.status, 201, profile.text);
  stored = await snapshot();
});

after(() => dash.cleanup());

async function stillWhole(): Promise<void> {
  assert.equal((await dash.request('GET', '/api/health')).status, 200);
  assert.deepEqual(await snapshot(), stored);
}

function head(method: string, path: string, extra: string[]): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: x', `Authorization: Bearer ${printToken}`, ...extra].join('\r\n');
}

for (const [what, header] of Object.entries(MALFORMED_PART_HEADERS)) {
  test(`a slice upload with ${what}: 400 in the error shape, and the dashboard lives`, async () => {
    const body = multipartWithPartHeader('XX', header);
    const r = await rawRequest(dash.url, {
      head: head('POST', '/api/slicer/native/slice', [
        'Content-Type: multipart/form-data; boundary=XX',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ]),
      body,
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'ERR_VALIDATION');
    assert.match(r.json.error, /Malformed part header/);
    await stillWhole();
  });
}

test('an upload declared over the model limit: 413 before any body byte', async () => {
  const r = await rawRequest(dash.url, {
    head: head('POST', '/api/slicer/native/slice', [
      'Content-Type: multipart/form-data; boundary=XX',
      `Content-Length: ${60 * 1024 * 1024}`,
      'Expect: 100-continue',
    ]),
    body: [Buffer.alloc(0)],
    pauseMs: 300,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.equal(r.sentWhenAnswered, 0);
  await stillWhole();
});

test('two different Content-Length headers on a JSON route are refused with 400', async () => {
  for (const lengths of [
    [13, 2],
    [2, 13],
  ]) {
    const r = await rawRequest(dash.url, {
      head: head('POST', '/api/notifications/read-all', [
        'Content-Type: application/json',
        `Content-Length: ${lengths[0]}`,
        `Content-Length: ${lengths[1]}`,
      ]),
      body: '{"a":1,"b":2}',
    });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /content-length header is given more than once/);
  }
  await stillWhole();
});

test('several credentials of one kind are refused rather than one picked', async () => {
  const admin = await loginAs(dash, 'admin');
  for (const pair of [
    [admin, printToken],
    [printToken, admin],
  ]) {
    const r = await rawRequest(dash.url, {
      head: `GET /api/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${pair[0]}\r\nAuthorization: Bearer ${pair[1]}`,
    });
    assert.equal(r.status, 400);
  }
  const keys = await rawRequest(dash.url, { head: 'GET /api/users HTTP/1.1\r\nHost: x\r\nX-API-Key: a\r\nX-API-Key: b' });
  assert.equal(keys.status, 400);
  await stillWhole();
});

test('every answer carries the security headers; the docs page gets a CSP that fits a page', async () => {
  const answers = [
    await dash.request('GET', '/api/health'),
    await dash.request('GET', '/api/users'),
    await dash.request('GET', '/api/nope'),
    await dash.request('GET', '/api/openapi.json'),
  ];
  for (const res of answers) {
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.match(res.headers.get('content-security-policy') ?? '', /^default-src 'none'.*frame-ancestors 'none'/);
  }
  const docs = await dash.request('GET', '/api/docs');
  assert.equal(docs.headers.get('x-frame-options'), 'DENY');
  assert.match(docs.headers.get('content-security-policy') ?? '', /^default-src 'self'; script-src 'self';.*frame-ancestors 'none'/);
});
