/**
 * `/api/v1`'s `location` is the name of the spool's storage location: the inventory and the
 * inventory tools share one StorageLocations (services.ts). Called as Moonraker's and Spoolman's
 * clients call it (plain JSON, no credentials, the open LAN mode): a location's name (any case)
 * puts the spool there (`location_id`), other text stays free text as in Spoolman, a rename shows
 * at once, the `location` filter follows the name, and the flat API's `location_id` shows as the name.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryFeature, inventoryToolsFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

let dash: DashboardFixture;
let filamentId: number;

before(async () => {
  dash = await startDashboardFixture({
    features: [inventoryFeature, inventoryToolsFeature],
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    config: { rate_limit: { enabled: false }, inventory: { spoolman_open_lan: true } },
  });
  const filament = await call('post', '/api/v1/filament', { name: 'PolyTerra', material: 'PLA', density: 1.24, diameter: 1.75, weight: 1000 });
  assert.equal(filament.status, 200, filament.text);
  filamentId = filament.json.id;
});

after(async () => {
  await dash?.cleanup();
});

/** A Moonraker-style call: plain JSON, no credentials. */
const call = (method: string, path: string, body?: unknown) => dash.request(method, path, { body });

async function flat(id: number): Promise<Record<string, any>> {
  const items = (await dash.request('get', '/api/filaments', { token: TEST_TOKENS.view })).json.items as Record<string, any>[];
  return items.find((s) => s.id === id) as Record<string, any>;
}

async function newLocation(name: string): Promise<number> {
  const created = await dash.request('post', '/api/inventory/locations', { token: TEST_TOKENS.admin, body: { name } });
  assert.equal(created.status, 201, created.text);
  return created.json.id;
}

test("a location's name (any case) stores the spool there; other text stays free text; null clears it", async () => {
  const dryBox = await newLocation('Dry box 1');
  const added = await call('post', '/api/v1/spool', { filament_id: filamentId, location: 'dry BOX 1' });
  assert.equal(added.status, 200, added.text);
  assert.equal(added.json.location, 'Dry box 1');
  assert.deepEqual([(await flat(added.json.id)).location_id], [dryBox]);
  const located = (await dash.request('get', `/api/inventory/locations/${dryBox}`, { token: TEST_TOKENS.view })).json;
  assert.equal(located.spool_count, 1);

  const moved = await call('patch', `/api/v1/spool/${added.json.id}`, { location: 'Bench by the door' });
  assert.equal(moved.json.location, 'Bench by the door');
  assert.equal((await flat(added.json.id)).location_id, null);
  assert.equal((await call('get', `/api/v1/spool/${added.json.id}`)).json.location, 'Bench by the door');

  const cleared = await call('patch', `/api/v1/spool/${added.json.id}`, { location: null });
  assert.equal('location' in cleared.json, false, 'no location: left out, as Spoolman leaves out nulls');
  assert.equal((await flat(added.json.id)).location_id, null);
});

test('a rename shows at once; the location filter follows the name; the flat location_id shows as the name', async () => {
  const shelf = await newLocation('Shelf B');
  const spool = (await call('post', '/api/v1/spool', { filament_id: filamentId, location: 'Shelf B' })).json;
  const other = (await call('post', '/api/v1/spool', { filament_id: filamentId })).json;
  const renamed = await dash.request('put', `/api/inventory/locations/${shelf}`, { token: TEST_TOKENS.admin, body: { name: 'Shelf B2' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal((await call('get', `/api/v1/spool/${spool.id}`)).json.location, 'Shelf B2');
  const filtered = (await call('get', '/api/v1/spool?location=Shelf%20B2')).json as Record<string, any>[];
  assert.deepEqual(
    filtered.map((s) => s.id),
    [spool.id],
  );

  const placed = await dash.request('put', `/api/filaments/${other.id}`, { token: TEST_TOKENS.print, body: { location_id: shelf } });
  assert.equal(placed.status, 200, placed.text);
  assert.equal((await call('get', `/api/v1/spool/${other.id}`)).json.location, 'Shelf B2');
  const refused = await dash.request('delete', `/api/inventory/locations/${shelf}`, { token: TEST_TOKENS.admin });
  assert.equal(refused.status, 409);
});
