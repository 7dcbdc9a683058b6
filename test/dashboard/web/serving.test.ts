/**
 * How the dashboard serves the web app: index.html for the app's paths under the app's CSP,
 * hashed assets cached for a year, the precompressed form the client accepts, ETags, and the API,
 * its docs and unknown API paths untouched. A build missing the app fails only the web feature.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { APP_CSP, PAGE_CSP } from '../../../appliance/common/security-headers.js';
import { liveFeature, printersFeature, webFeature } from '../../../appliance/dashboard/features.js';
import { createWebFeature } from '../../../appliance/dashboard/web/feature.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

let dash: DashboardFixture;
before(async () => {
  dash = await startDashboardFixture({
    features: [printersFeature, liveFeature, webFeature],
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
  });
});
after(() => dash.cleanup());

/** The bytes as sent: fetch would decompress them by itself. */
function raw(urlPath: string, headers: Record<string, string> = {}): Promise<{ response: { status: number; headers: Headers }; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(dash.url + urlPath, { headers: { 'accept-encoding': 'identity', ...headers } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        resolve({ response: { status: incoming.statusCode ?? 0, headers: responseHeaders }, body: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
  });
}

async function assetPaths(): Promise<string[]> {
  const { body } = await raw('/');
  return [...body.toString('utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
}

test('the app paths answer index.html under the app CSP, fetched again at every load', async () => {
  for (const urlPath of ['/', '/login', '/setup', '/printers/abc?tab=ams']) {
    const { response, body } = await raw(urlPath);
    assert.equal(response.status, 200, urlPath);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(response.headers.get('content-security-policy'), APP_CSP);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(body.toString('utf8'), /<script type="module" src="\/assets\/main-[A-Z2-7]{8}\.js"><\/script>/);
  }
  assert.doesNotMatch(APP_CSP, /unsafe-inline|unsafe-eval|https?:/);
});

test('hashed assets are cached for a year and sent brotli, gzip or plain as accepted', async () => {
  const assets = await assetPaths();
  assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), assets.join());
  for (const asset of assets) {
    const plain = await raw(asset);
    assert.equal(plain.response.status, 200);
    assert.equal(plain.response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(plain.response.headers.get('content-encoding'), null);
    assert.equal(plain.response.headers.get('vary'), 'accept-encoding');
    const br = await raw(asset, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.response.headers.get('content-encoding'), 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    // Text compresses to well under half once there is some of it (a page's small shared chunk need not).
    if (plain.body.length > 4096) assert.ok(br.body.length < plain.body.length / 2, `${asset}: ${br.body.length} of ${plain.body.length}`);
    else assert.ok(br.body.length < plain.body.length, `${asset}: ${br.body.length} of ${plain.body.length}`);
    const gzip = await raw(asset, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    assert.equal(gzip.response.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(gunzipSync(gzip.body), plain.body);
  }
  const js = assets.find((a) => a.endsWith('.js'))!;
  assert.match((await raw(js)).response.headers.get('content-type') ?? '', /^text\/javascript/);
});

test('missing files are 404s, and the API, its docs and unknown API paths keep their own answers', async () => {
  for (const urlPath of ['/assets/main-AAAAAAAA.js', '/favicon.ico', '/robots.txt']) {
    expectError(await dash.request('get', urlPath), 404, 'ERR_NOT_FOUND');
  }
  const unknownApi = await dash.request('get', '/api/no-such-thing');
  expectError(unknownApi, 404, 'ERR_NOT_FOUND', /no route GET \/api\/no-such-thing/);
  assert.notEqual(unknownApi.headers.get('content-security-policy'), APP_CSP);
  expectError(await dash.request('get', '/ws/extra'), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('get', '/api/printers'), 401, 'ERR_UNAUTHORIZED');
  const printers = await dash.request('get', '/api/printers', { token: TEST_TOKENS.view });
  assert.equal(printers.status, 200);
  assert.doesNotMatch(printers.headers.get('content-security-policy') ?? '', /'self'/);
  const docs = await dash.request('get', '/api/docs');
  assert.equal(docs.status, 200);
  assert.equal(docs.headers.get('content-security-policy'), PAGE_CSP);
  const spec = await dash.request('get', '/api/openapi.json');
  assert.equal(spec.status, 200);
  assert.equal(Object.keys(spec.json.paths).filter((p: string) => !p.startsWith('/api/')).length, 0, 'the app adds no API operations');
  // POST to an app path is no page: the API's 404.
  expectError(await dash.request('post', '/login', { body: {} }), 404, 'ERR_NOT_FOUND');
});

test('without a built app the web feature fails alone: 503 saying so, the API runs', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'printyard-web-empty-'));
  writeFileSync(path.join(empty, 'stray.txt'), 'not an app');
  const broken = await startDashboardFixture({
    features: [printersFeature, (ctx) => createWebFeature({ log: ctx.log, dir: empty })],
    createAuthenticator: testAuthenticator,
    logLevel: 'error',
  });
  try {
    expectError(await broken.request('get', '/'), 503, 'ERR_UNAVAILABLE', /has no index\.html.*npm run build/);
    assert.equal((await broken.request('get', '/api/printers', { token: TEST_TOKENS.view })).status, 200);
    const info = await broken.request('get', '/api/system/info', { token: TEST_TOKENS.admin });
    assert.equal(info.status, 200);
    assert.match(JSON.stringify(info.json), /web/);
  } finally {
    await broken.cleanup();
    rmSync(empty, { recursive: true, force: true });
  }
});
