import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import { inventoryFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

let dash: DashboardFixture;
let closed: DashboardFixture;
before(async () => {
  const options = { features: [inventoryFeature], createAuthenticator: testAuthenticator, logLevel: 'warn' as const };
  dash = await startDashboardFixture({ ...options, config: { rate_limit: { enabled: false }, inventory: { spoolman_open_lan: true } } });
  closed = await startDashboardFixture({ ...options, config: { rate_limit: { enabled: false } } });
});
after(async () => {
  await dash.cleanup();
  await closed.cleanup();
});

/** A Moonraker-style call: plain JSON, no credentials. */
const call = (method: string, path: string, body?: unknown, target = dash) => target.request(method, path, { body });

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
}

test('info and health answer as Spoolman does', async () => {
  assert.deepEqual((await call('get', '/api/v1/health', undefined, closed)).json, { status: 'healthy' });
  const info = await call('get', '/api/v1/info');
  assert.equal(info.status, 200);
  assert.equal(typeof info.json.version, 'string');
});

test('without credentials /api/v1 needs the open LAN mode; deletes need admin', async () => {
  const refused = await call('get', '/api/v1/spool', undefined, closed);
  assert.equal(refused.status, 401);
  assert.equal(typeof refused.json.message, 'string');
  assert.equal((await closed.request('get', '/api/v1/spool', { token: TEST_TOKENS.view })).status, 200);
  const vendor = (await call('post', '/api/v1/vendor', { name: 'Prusament' })).json;
  assert.equal((await call('delete', `/api/v1/vendor/${vendor.id}`)).status, 403);
  assert.deepEqual((await dash.request('delete', `/api/v1/vendor/${vendor.id}`, { token: TEST_TOKENS.admin })).json, { message: 'Success!' });
});

test("Moonraker's calls: read a spool, report use by length, follow the change WebSocket", async () => {
  const vendor = (await call('post', '/api/v1/vendor', { name: 'Polymaker', extra: { shelf: '"A"' } })).json;
  assert.deepEqual(vendor.extra, { shelf: '"A"' });
  const filament = await call('post', '/api/v1/filament', {
    name: 'PolyTerra',
    vendor_id: vendor.id,
    material: 'PLA',
    density: 1.24,
    diameter: 1.75,
    weight: 1000,
    color_hex: 'FF0000',
  });
  assert.equal(filament.status, 200, filament.text);
  const spool = (await call('post', '/api/v1/spool', { filament_id: filament.json.id, spool_weight: 140, location: 'Shelf A' })).json;
  assert.equal(spool.initial_weight, 1000);
  assert.equal(spool.used_weight, 0);
  assert.equal(spool.filament.vendor.name, 'Polymaker');
  assert.equal('lot_nr' in spool, false, 'null fields are left out, as Spoolman does');

  const ws = new WebSocket(`${dash.url.replace('http', 'ws')}/api/v1/spool`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await new Promise((r) => setTimeout(r, 100));
  const read = await call('get', `/api/v1/spool/${spool.id}`);
  assert.equal(read.status, 200);
  const message = nextMessage(ws);
  const used = await call('put', `/api/v1/spool/${spool.id}/use`, { use_length: 1000 });
  assert.equal(used.status, 200, used.text);
  assert.ok(Math.abs(used.json.used_weight - 2.9825) < 0.001);
  const event = await message;
  assert.equal(event.type, 'updated');
  assert.equal(event.resource, 'spool');
  assert.match(event.date, /Z$/);
  assert.equal(event.payload.id, spool.id);
  assert.equal(event.payload.used_weight, used.json.used_weight);

  const flat = await dash.request('get', '/api/filaments?text=polymaker', { token: TEST_TOKENS.view });
  assert.equal(flat.json.items[0].used_weight_g, used.json.used_weight, 'the flat view is the same spool');

  const deleted = nextMessage(ws);
  await dash.request('delete', `/api/v1/spool/${spool.id}`, { token: TEST_TOKENS.admin });
  const gone = await deleted;
  assert.equal(gone.type, 'deleted');
  assert.equal(gone.payload.id, spool.id);
  const missing = await call('get', `/api/v1/spool/${spool.id}`);
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.json, { message: `No spool with ID ${spool.id} found.` });
  ws.close();
});

test('use, measure, list filters, paging and errors as Spoolman has them', async () => {
  const filament = (await call('post', '/api/v1/filament', { material: 'PETG', density: 1.27, diameter: 1.75 })).json;
  const ids = [];
  for (const lot of ['L1', 'L2', 'L3'])
    ids.push((await call('post', '/api/v1/spool', { filament_id: filament.id, initial_weight: 1000, spool_weight: 200, lot_nr: lot })).json.id);
  const measured = await call('put', `/api/v1/spool/${ids[0]}/measure`, { weight: 900 });
  assert.equal(measured.json.used_weight, 300);
  const capped = await call('put', `/api/v1/spool/${ids[1]}/use`, { use_weight: 5000 });
  assert.equal(capped.json.used_weight, 1000);
  assert.equal(capped.json.remaining_weight, 0);
  assert.deepEqual((await call('put', `/api/v1/spool/${ids[1]}/use`, {})).json, { message: 'Either use_weight or use_length must be specified.' });
  assert.equal((await call('put', `/api/v1/spool/${ids[1]}/use`, { use_weight: 1, use_length: 1 })).status, 400);
  const invalid = await call('put', `/api/v1/spool/${ids[1]}/measure`, { weight: 'heavy' });
  assert.equal(invalid.status, 422);
  assert.ok(Array.isArray(invalid.json.detail));
  assert.equal((await call('get', '/api/v1/spool/abc')).status, 422);
  const page = await call('get', '/api/v1/spool?filament.material=petg&sort=lot_nr:desc&limit=2&offset=0');
  assert.equal(page.headers.get('x-total-count'), '3');
  assert.deepEqual(
    page.json.map((s: { lot_nr: string }) => s.lot_nr),
    ['L3', 'L2'],
  );
  assert.equal((await call('get', '/api/v1/spool?lot_nr="L"')).json.length, 0);
  assert.equal((await call('delete', `/api/v1/filament/${filament.id}`, undefined)).status, 403);
});
