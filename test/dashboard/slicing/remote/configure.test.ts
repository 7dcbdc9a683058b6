/**
 * The slicer token stays with the origin it was given for (issue 16, finding 5): a kept token
 * (`***` or none) never goes to a new address, a URL with credentials is refused, a redirect is
 * not followed, and the environment's token cannot be moved through the API. Real dashboards,
 * fake slicer services on loopback recording every request they get.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { expectError, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const TOKEN = 'tok-secret-1';
const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let home: FakeUpstream;
/** The new address: it must never see the stored token. */
let elsewhere: FakeUpstream;
let dash: DashboardFixture;
before(async () => {
  home = await startFakeUpstream({ token: TOKEN });
  elsewhere = await startFakeUpstream();
  cleanups.push(
    () => home.close(),
    () => elsewhere.close(),
  );
  dash = await startRemoteDashboard({ url: home.url, token: TOKEN });
  cleanups.push(() => dash.cleanup());
});

const configFile = (fixture: DashboardFixture) => JSON.parse(readFileSync(path.join(fixture.dataDir, 'config.json'), 'utf8')).slicer_service;
const configure = (body: unknown, fixture = dash) => fixture.request('post', '/api/slicer/remote/configure', { token: TEST_TOKENS.admin, body });
const sawToken = (upstream: FakeUpstream, token = TOKEN) => upstream.requests.some((r) => (r.authorization ?? '').includes(token));

async function stillIntact(fixture = dash): Promise<void> {
  assert.equal((await fixture.request('get', '/api/health')).status, 200);
  assert.deepEqual(configFile(fixture), { enabled: true, url: home.url, token: TOKEN });
  const status = await fixture.request('get', '/api/slicer/remote/status?force=1', { token: TEST_TOKENS.view });
  assert.deepEqual([status.json.ok, status.json.url, status.json.token_set], [true, home.url, true]);
}

test('a new address with "***" or without a token: 400, the token is never sent there, nothing stored changes', async () => {
  for (const body of [{ url: elsewhere.url, token: '***' }, { url: elsewhere.url }, { url: `${elsewhere.url}/`, token: '***', enabled: true }]) {
    const refused = await configure(body);
    expectError(refused, 400, 'ERR_VALIDATION', /must be given again for a new address/);
    assert.equal(refused.json.details[0].path, 'body/token');
    assert.ok(!refused.text.includes(TOKEN));
  }
  // Another scheme, port or host name is another origin too.
  const port = home.port;
  for (const url of [`https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, `http://localhost:${port}`]) {
    expectError(await configure({ url, token: '***' }), 400, 'ERR_VALIDATION');
  }
  assert.equal(elsewhere.requests.length, 0, 'the new address was never called');
  await stillIntact();
});

test('the same origin keeps the token with "***"; a new origin gets only the token given for it', async () => {
  home.requests.length = 0;
  const samePlace = await configure({ url: `${home.url}/`, token: '***' });
  assert.equal(samePlace.status, 200, samePlace.text);
  assert.deepEqual([samePlace.json.ok, configFile(dash).token], [true, TOKEN]);
  assert.ok(home.requests.length > 0 && home.requests.every((r) => r.authorization === `Bearer ${TOKEN}`));

  const moved = await configure({ url: elsewhere.url, token: 'tok-for-elsewhere' });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(configFile(dash), { enabled: true, url: elsewhere.url, token: 'tok-for-elsewhere' });
  assert.ok(elsewhere.requests.length > 0);
  assert.ok(!sawToken(elsewhere), 'the old token never went to the new address');

  expectError(await configure({ url: home.url, token: '***' }), 400, 'ERR_VALIDATION', /must be given again/);
  assert.ok(!sawToken(home, 'tok-for-elsewhere'), 'nor the new token to the old one');
  assert.equal((await configure({ url: home.url, token: TOKEN })).status, 200);
  await stillIntact();
});

test('no stored token: a new address needs none; "" removes a token on a move', async () => {
  const open = await startFakeUpstream();
  cleanups.push(() => open.close());
  const bare = await startRemoteDashboard({ url: open.url });
  cleanups.push(() => bare.cleanup());
  const other = await startFakeUpstream();
  cleanups.push(() => other.close());
  assert.equal((await configure({ url: other.url, token: '***' }, bare)).status, 200);
  assert.deepEqual(configFile(bare), { enabled: true, url: other.url, token: '' });

  const moved = await configure({ url: other.url, token: '' });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(configFile(dash), { enabled: true, url: other.url, token: '' });
  assert.ok(!sawToken(other));
  assert.equal((await configure({ url: home.url, token: TOKEN })).status, 200);
  await stillIntact();
});

test('a URL with a user name or password is refused and never shown back', async () => {
  elsewhere.requests.length = 0;
  for (const url of [`http://admin:hunter2@127.0.0.1:${elsewhere.port}`, `http://hunter2@127.0.0.1:${home.port}/`]) {
    const refused = await configure({ url, token: 'x' });
    expectError(refused, 400, 'ERR_VALIDATION', /must not contain a user name or password/);
    assert.equal(refused.json.details[0].path, 'body/url');
    assert.ok(!refused.text.includes('hunter2'));
  }
  assert.equal(elsewhere.requests.length, 0);
  await stillIntact();
});

test('a redirect to another origin is not followed: the token stays where it was given', async () => {
  elsewhere.requests.length = 0;
  const redirector = http.createServer((req, res) => {
    res.writeHead(307, { location: `${elsewhere.url}${req.url ?? '/'}` });
    res.end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => redirector.close(resolve)));
  const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  const res = await configure({ url, token: 'tok-redirected' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.ok, false);
  assert.match(res.json.error_detail, /HTTP 307/);
  assert.equal(elsewhere.requests.length, 0, 'the redirect target was never called');
  assert.equal((await configure({ url: home.url, token: TOKEN })).status, 200);
  await stillIntact();
});

test('SLICER_TOKEN in the environment: the API cannot move the URL to another origin (409); with SLICER_URL too, only the file changes', async () => {
  elsewhere.requests.length = 0;
  const envDash = await startRemoteDashboard({ url: home.url, env: { SLICER_TOKEN: TOKEN } });
  cleanups.push(() => envDash.cleanup());
  assert.equal((await envDash.request('get', '/api/slicer/remote/status?force=1', { token: TEST_TOKENS.view })).json.ok, true);
  for (const body of [{ url: elsewhere.url }, { url: elsewhere.url, token: 'a-new-one' }]) {
    expectError(await configure(body, envDash), 409, 'ERR_CONFLICT', /SLICER_TOKEN/);
  }
  assert.equal(elsewhere.requests.length, 0);
  assert.equal(configFile(envDash).url, home.url);
  const samePlace = await configure({ url: `${home.url}/api/..`, enabled: true }, envDash);
  assert.equal(samePlace.status, 200, samePlace.text);
  assert.equal((await envDash.request('get', '/api/health')).status, 200);

  const pinned = await startRemoteDashboard({ url: home.url, env: { SLICER_TOKEN: TOKEN, SLICER_URL: home.url } });
  cleanups.push(() => pinned.cleanup());
  const fileOnly = await configure({ url: elsewhere.url }, pinned);
  assert.equal(fileOnly.status, 200, fileOnly.text);
  assert.deepEqual([fileOnly.json.url, fileOnly.json.ok, fileOnly.json.overridden], [home.url, true, ['url']]);
  assert.deepEqual(configFile(pinned), { enabled: true, url: elsewhere.url, token: '' }, 'the file keeps the URL and no token');
  assert.equal(elsewhere.requests.length, 0, 'the environment still decides where the token goes');
});
