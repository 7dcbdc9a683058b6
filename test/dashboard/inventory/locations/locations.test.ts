import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { inventoryToolsFeature } from '../../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';

const spools = new MemorySpools();
let dash: DashboardFixture;
before(async () => {
  dash = await startDashboardFixture({
    features: [inventoryToolsFeature],
    services: { spools },
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
});
after(() => dash.cleanup());

const admin = { token: TEST_TOKENS.admin };
const stored = () => JSON.parse(readFileSync(path.join(dash.dataDir, 'inventory-locations.json'), 'utf8'));

test('admin adds, changes and deletes a location; view reads; print may not manage', async () => {
  const created = await dash.request('post', '/api/inventory/locations', { ...admin, body: { name: '  Dry box A ', description: 'by the door' } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id;
  assert.deepEqual(created.json, {
    id,
    name: 'Dry box A',
    description: 'by the door',
    humidity_limit_pct: null,
    created_at: created.json.created_at,
    updated_at: created.json.created_at,
    spool_count: 0,
    effective_limit: null,
    latest_reading: null,
    excursion: null,
  });
  const listed = await dash.request('get', '/api/inventory/locations', { token: TEST_TOKENS.view });
  assert.deepEqual(
    listed.json.items.map((l: { id: number }) => l.id),
    [id],
  );
  assert.equal((await dash.request('get', `/api/inventory/locations/${id}`, { token: TEST_TOKENS.view })).json.name, 'Dry box A');

  expectError(await dash.request('post', '/api/inventory/locations', { token: TEST_TOKENS.print, body: { name: 'B' } }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('put', `/api/inventory/locations/${id}`, { token: TEST_TOKENS.print, body: { name: 'B' } }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('delete', `/api/inventory/locations/${id}`, { token: TEST_TOKENS.print }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('get', '/api/inventory/locations'), 401, 'ERR_UNAUTHORIZED');

  const changed = await dash.request('put', `/api/inventory/locations/${id}`, { ...admin, body: { humidity_limit_pct: 35, description: null } });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.json.name, 'Dry box A');
  assert.equal(changed.json.description, null);
  assert.deepEqual(changed.json.effective_limit, { limit_pct: 35, source: 'override', material: null });
  assert.equal(stored().locations[0].humidity_limit_pct, 35);

  assert.equal((await dash.request('delete', `/api/inventory/locations/${id}`, admin)).status, 204);
  expectError(await dash.request('get', `/api/inventory/locations/${id}`, admin), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('delete', `/api/inventory/locations/${id}`, admin), 404, 'ERR_NOT_FOUND');
  assert.deepEqual(stored().locations, []);
});

test('ids are never reused; names are unique whatever their case (409) and checked (400), nothing changes', async () => {
  const a = (await dash.request('post', '/api/inventory/locations', { ...admin, body: { name: 'Shelf 1' } })).json;
  const b = (await dash.request('post', '/api/inventory/locations', { ...admin, body: { name: 'Shelf 2' } })).json;
  assert.ok(b.id > a.id && a.id > 1, 'the deleted location of the first test keeps its id');
  const before = stored();
  expectError(
    await dash.request('post', '/api/inventory/locations', { ...admin, body: { name: 'SHELF 1' } }),
    409,
    'ERR_CONFLICT',
    /already named "Shelf 1"/,
  );
  expectError(await dash.request('put', `/api/inventory/locations/${b.id}`, { ...admin, body: { name: 'shelf 1' } }), 409, 'ERR_CONFLICT');
  for (const body of [
    {},
    { name: '' },
    { name: 'x'.repeat(65) },
    { name: 'a\u202Eb' },
    { name: 'ok', humidity_limit_pct: 101 },
    { name: 'ok', humidity_limit_pct: -1 },
    { name: 'ok', humidity_limit_pct: '40' },
    { name: 'ok', colour: 'red' },
  ]) {
    expectError(await dash.request('post', '/api/inventory/locations', { ...admin, body }), 400, 'ERR_VALIDATION');
  }
  expectError(await dash.request('put', `/api/inventory/locations/${b.id}`, { ...admin, body: { humidity_limit_pct: 200 } }), 400, 'ERR_VALIDATION');
  expectError(await dash.request('get', '/api/inventory/locations/0', admin), 400, 'ERR_VALIDATION');
  expectError(await dash.request('put', '/api/inventory/locations/999', { ...admin, body: { name: 'x' } }), 404, 'ERR_NOT_FOUND');
  assert.deepEqual(stored(), before);
});

test('a location that spools name cannot be deleted (409); the spools and materials show on it', async () => {
  const loc = (await dash.request('post', '/api/inventory/locations', { ...admin, body: { name: 'Cabinet' } })).json;
  spools.put(stockedSpool({ id: 1, material: 'PLA', location_id: loc.id }));
  spools.put(stockedSpool({ id: 2, material: 'PA6-CF', location_id: loc.id }));
  spools.put(stockedSpool({ id: 3, material: 'PVA', location_id: loc.id, archived: true }));
  const shown = (await dash.request('get', `/api/inventory/locations/${loc.id}`, admin)).json;
  assert.equal(shown.spool_count, 2);
  assert.deepEqual(shown.effective_limit, { limit_pct: 20, source: 'material', material: 'PA6-CF' });
  expectError(await dash.request('delete', `/api/inventory/locations/${loc.id}`, admin), 409, 'ERR_CONFLICT', /holds 3 spool\(s\) \(1, 2, 3\)/);
  for (const id of [1, 2, 3]) spools.remove(id);
  assert.equal((await dash.request('delete', `/api/inventory/locations/${loc.id}`, admin)).status, 204);
});

test('the routes are in the OpenAPI description with summaries', async () => {
  const doc = (await dash.request('get', '/api/openapi.json', admin)).json;
  for (const [route, method] of [
    ['/api/inventory/locations', 'post'],
    ['/api/inventory/locations/{id}', 'put'],
    ['/api/inventory/locations/{id}/climate', 'post'],
    ['/api/inventory/locations/{id}/climate', 'get'],
    ['/api/inventory/spools/{id}/qr.png', 'get'],
    ['/api/inventory/spools/{id}/label', 'get'],
  ]) {
    assert.ok(doc.paths[route]?.[method]?.summary, `${method} ${route}`);
  }
});
