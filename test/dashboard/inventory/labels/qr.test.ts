import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { inventoryToolsFeature } from '../../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';
import { formatCodewords, readQrFormat } from './qr-format.js';

const spools = new MemorySpools([stockedSpool({ id: 7, material: 'PETG' }), stockedSpool({ id: 123456, material: 'PLA' })]);
let dash: DashboardFixture;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'printyard-qr-test-'));
before(async () => {
  dash = await startDashboardFixture({
    features: [inventoryToolsFeature],
    services: { spools },
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
});
after(async () => {
  await dash.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

/** GET with node:http, which (unlike fetch) sends the Host header it is given. */
function get(urlPath: string, host?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const headers: Record<string, string> = { authorization: `Bearer ${TEST_TOKENS.view}` };
  if (host !== undefined) headers.host = host;
  return new Promise((resolve, reject) => {
    http
      .get(`${dash.url}${urlPath}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

async function qr(id: number, host?: string): Promise<Buffer> {
  const response = await get(`/api/inventory/spools/${id}/qr.png`, host);
  assert.equal(response.status, 200, response.body.toString());
  assert.equal(response.headers['content-type'], 'image/png');
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
  return response.body;
}

/** What Debian's zbarimg decodes from the PNG. */
function zbar(png: Buffer): string {
  const file = path.join(tmp, `qr-${Date.now()}-${Math.random()}.png`);
  writeFileSync(file, png);
  return execFileSync('zbarimg', ['--quiet', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).replace(/\n$/, '');
}

test('the format reader knows the 32 codewords and reads the level of codes drawn at each level', async () => {
  assert.equal(formatCodewords().size, 32);
  assert.equal(formatCodewords().get(0x5412), 0, 'level M, mask 0 is 0x5412 (ISO/IEC 18004 table C.1)');
  for (const level of ['L', 'M', 'Q', 'H'] as const) {
    const png = await QRCode.toBuffer('http://127.0.0.1/#/spools/1', { type: 'png', errorCorrectionLevel: level, width: 256 });
    assert.equal(readQrFormat(png).level, level);
  }
});

test('the QR code is a 256×256 PNG at level M whose content opens the spool on the host asked', async () => {
  const png = await qr(7);
  const image = PNG.sync.read(png);
  assert.deepEqual([image.width, image.height], [256, 256]);
  assert.equal(readQrFormat(png).level, 'M');
  assert.equal(zbar(png), `http://127.0.0.1:${dash.port}/spools/7`);
  assert.equal(zbar(await qr(123456, 'printfarm.local:8080')), 'http://printfarm.local:8080/spools/123456');
});

test('with dashboard.public_url set, the link uses it whatever the Host header says', async () => {
  await dash.server.context.settings.update({ dashboard: { public_url: 'https://farm.example.org/printyard/' } });
  try {
    const png = await qr(7, 'elsewhere.example');
    assert.equal(zbar(png), 'https://farm.example.org/printyard/spools/7');
    assert.equal(readQrFormat(png).level, 'M');
  } finally {
    await dash.server.context.settings.update({ dashboard: { public_url: '' } });
  }
});

test('an unknown spool is 404, a bad id 400, and reading needs a credential (view is enough)', async () => {
  expectError(await dash.request('get', '/api/inventory/spools/8/qr.png', { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND', /no spool 8/);
  for (const bad of ['0', 'abc', '1.5', '-3']) {
    const response = await dash.request('get', `/api/inventory/spools/${bad}/qr.png`, { token: TEST_TOKENS.view });
    expectError(response, 400, 'ERR_VALIDATION');
    assert.equal(response.json.details[0].path, 'path/id');
  }
  expectError(await dash.request('get', '/api/inventory/spools/7/qr.png'), 401, 'ERR_UNAUTHORIZED');
  const badHost = await get('/api/inventory/spools/7/qr.png', 'bad/host');
  assert.equal(badHost.status, 400);
  assert.match(JSON.parse(badHost.body.toString()).error, /Host header.*dashboard\.public_url/);
});
