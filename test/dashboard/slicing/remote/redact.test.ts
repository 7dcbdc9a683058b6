import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cleanCode, cleanText, hidePaths, isServerPath, MAX_TEXT } from '../../../../appliance/dashboard/slicing/remote/redact.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { startEchoUpstream, type EchoUpstream } from './echo-upstream.js';
import { startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const TOKEN = 'tok-Secret-42';

test('the token, credentials in URLs, authorization values, key=value secrets and JWTs are masked', () => {
  const cases: Array<[string, string]> = [
    [`you sent Bearer ${TOKEN}`, 'you sent Bearer ***'],
    [`raw ${TOKEN} and url-encoded ${encodeURIComponent('a b/c')}`, 'raw *** and url-encoded ***'],
    ['fetch http://bob:hunter2@host.lan:8765/api failed', 'fetch http://***@host.lan:8765/api failed'],
    ['Authorization: Basic Ym9iOmh1bnRlcjI=', 'Authorization: Basic ***'],
    ['password=hunter2; api_key: abc123 "access_code":"12345678" token = xyz', 'password=***; api_key: *** "access_code":"***" token = ***'],
    ['session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature here', 'session *** here'],
    ['line one\nline two\u202eevil\u200b', 'line one line two evil '],
    ['the token check failed (ERR_UNAUTHORIZED)', 'the token check failed (ERR_UNAUTHORIZED)'],
  ];
  for (const [text, cleaned] of cases) assert.equal(cleanText(text, [TOKEN, 'a b/c']), cleaned, text);
  assert.equal(cleanText('x'.repeat(MAX_TEXT + 50), []).length, MAX_TEXT + 1);
  assert.equal(cleanText('nothing to hide', ['']), 'nothing to hide', 'an empty token masks nothing');
});

test('codes keep the contract shape; server paths are told from API paths', () => {
  assert.equal(cleanCode('ERR_BAD_MODEL', 'ERR_SLICER_SERVICE'), 'ERR_BAD_MODEL');
  assert.equal(cleanCode('<b>x</b>', 'ERR_SLICER_SERVICE'), 'ERR_SLICER_SERVICE');
  for (const path of ['/srv/jobs/x.gcode', '/tmp', 'C:\\jobs\\x.gcode', 'file:///srv/x']) assert.ok(isServerPath(path), path);
  for (const text of ['/api/jobs/x/gcode', 'cube.stl', '/', 'a/b']) assert.ok(!isServerPath(text), text);
  assert.equal(hidePaths('could not read /srv/jobs/1/model.stl, see /api/jobs/1 (and/or 1/2)'), 'could not read …, see /api/jobs/1 (and/or 1/2)');
});

let upstream: EchoUpstream;
let dash: DashboardFixture;
before(async () => {
  upstream = await startEchoUpstream();
  dash = await startRemoteDashboard({ url: upstream.url, token: TOKEN });
});
after(async () => {
  await dash.cleanup();
  await upstream.close();
});

test("the service's labels and error texts reach nobody with the token or credentials in them", async () => {
  for (const role of ['view', 'admin'] as const) {
    const status = await dash.request('get', '/api/slicer/remote/status?force=1', { token: TEST_TOKENS[role] });
    assert.equal(status.json.ok, true, status.text);
    assert.ok(!status.text.includes(TOKEN) && !status.text.includes('hunter2') && !status.text.includes('\\u202e'), status.text);
    assert.equal(status.json.version, '1.0 (Bearer ***)');
  }
  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.ok(!info.text.includes(TOKEN) && !info.text.includes('hunter2'));

  const echoed = await dash.request('get', '/api/slicer/remote/profiles?vendor=echo', { token: TEST_TOKENS.view });
  assert.deepEqual([echoed.status, echoed.json.code, echoed.json.error], [404, 'ERR_PROFILE_NOT_FOUND', 'no vendor "echo" for Bearer ***']);
  const odd = await dash.request('get', '/api/slicer/remote/profiles?vendor=odd-code', { token: TEST_TOKENS.view });
  assert.deepEqual([odd.status, odd.json.code], [404, 'ERR_SLICER_SERVICE']);
  assert.ok(
    upstream.requests.every((r) => r.authorization === `Bearer ${TOKEN}`),
    'the service did get the token',
  );
  assert.equal((await dash.request('get', '/api/health')).status, 200);
});
