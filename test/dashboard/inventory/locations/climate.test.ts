import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryToolsFeature, notificationsFeature } from '../../../../appliance/dashboard/features.js';
import type { ClimateEvent } from '../../../../appliance/dashboard/inventory/locations/climate.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';

const spools = new MemorySpools();
let dash: DashboardFixture;
const start = (dataDir?: string) =>
  startDashboardFixture({
    features: [notificationsFeature, inventoryToolsFeature],
    services: { spools },
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
    dataDir,
  });
before(async () => {
  dash = await start();
});
after(() => dash.cleanup());

const admin = { token: TEST_TOKENS.admin };
const print = { token: TEST_TOKENS.print };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

async function location(name: string, body: Record<string, unknown> = {}): Promise<number> {
  const created = await dash.request('post', '/api/inventory/locations', { ...admin, body: { name, ...body } });
  assert.equal(created.status, 201, created.text);
  return created.json.id;
}

async function post(id: number, humidity: number, at?: string, temperature = 21.5) {
  const response = await dash.request('post', `/api/inventory/locations/${id}/climate`, {
    ...print,
    body: { temperature_c: temperature, humidity_pct: humidity, at },
  });
  assert.equal(response.status, 201, response.text);
  return response.json as ClimateEvent;
}

async function excursionNotices(id: number) {
  const page = (await dash.request('get', '/api/notifications?limit=500', admin)).json;
  return page.items.filter(
    (n: { kind: string; data: { location_id: number } }) => n.kind === 'inventory.humidity_excursion' && n.data.location_id === id,
  );
}

test('a reading is stored, published as inventory.climate and read back with from/to', async () => {
  const id = await location('Shelf');
  const events: ClimateEvent[] = [];
  const off = dash.server.context.bus.on('inventory.climate', (e) => events.push(e));
  try {
    const first = await post(id, 35, minutesAgo(30), 20);
    const second = await post(id, 36.5, undefined, 21);
    assert.deepEqual(first, {
      location_id: id,
      location_name: 'Shelf',
      at: first.at,
      temperature_c: 20,
      humidity_pct: 35,
      humidity_limit_pct: null,
      excursion: false,
    });
    assert.ok(Math.abs(Date.parse(second.at) - Date.now()) < 10_000, 'at defaults to now');
    assert.deepEqual(events, [first, second]);
  } finally {
    off();
  }
  const series = (await dash.request('get', `/api/inventory/locations/${id}/climate`, { token: TEST_TOKENS.view })).json;
  assert.deepEqual(
    series.readings.map((r: { humidity_pct: number }) => r.humidity_pct),
    [35, 36.5],
  );
  const narrow = await dash.request('get', `/api/inventory/locations/${id}/climate?from=${minutesAgo(40)}&to=${minutesAgo(20)}`, {
    token: TEST_TOKENS.view,
  });
  assert.deepEqual(
    narrow.json.readings.map((r: { humidity_pct: number }) => r.humidity_pct),
    [35],
  );
  assert.equal((await dash.request('get', `/api/inventory/locations/${id}`, admin)).json.latest_reading.humidity_pct, 36.5);
});

test('readings out of range, in the future or too old are refused with 400 and not stored; roles', async () => {
  const id = await location('Rack');
  const bad: Record<string, unknown>[] = [
    { temperature_c: 20 },
    { humidity_pct: 40 },
    { temperature_c: -40.5, humidity_pct: 40 },
    { temperature_c: 85.1, humidity_pct: 40 },
    { temperature_c: 20, humidity_pct: -0.1 },
    { temperature_c: 20, humidity_pct: 100.5 },
    { temperature_c: '20', humidity_pct: 40 },
    { temperature_c: 20, humidity_pct: 40, at: 'yesterday' },
    { temperature_c: 20, humidity_pct: 40, at: '2026-02-30T10:00:00Z' },
    { temperature_c: 20, humidity_pct: 40, at: '2026-01-01T10:00:00' },
    { temperature_c: 20, humidity_pct: 40, at: new Date(Date.now() + 10 * 60_000).toISOString() },
    { temperature_c: 20, humidity_pct: 40, at: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() },
    { temperature_c: 20, humidity_pct: 40, pressure: 1013 },
  ];
  for (const body of bad) {
    expectError(await dash.request('post', `/api/inventory/locations/${id}/climate`, { ...print, body }), 400, 'ERR_VALIDATION');
  }
  await post(id, 40, new Date(Date.now() + 60_000).toISOString(), -40);
  await post(id, 100, undefined, 85);
  const later = new Date(Date.now() + 5 * 60_000).toISOString();
  assert.equal((await dash.request('get', `/api/inventory/locations/${id}/climate?to=${later}`, admin)).json.readings.length, 2);
  const body = { temperature_c: 20, humidity_pct: 40 };
  expectError(await dash.request('post', `/api/inventory/locations/${id}/climate`, { token: TEST_TOKENS.view, body }), 403, 'ERR_FORBIDDEN');
  expectError(await dash.request('post', `/api/inventory/locations/${id}/climate`, { body }), 401, 'ERR_UNAUTHORIZED');
  expectError(await dash.request('post', '/api/inventory/locations/9999/climate', { ...print, body }), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('get', '/api/inventory/locations/9999/climate', print), 404, 'ERR_NOT_FOUND');
  const to = minutesAgo(60);
  expectError(await dash.request('get', `/api/inventory/locations/${id}/climate?from=${minutesAgo(1)}&to=${to}`, print), 400, 'ERR_VALIDATION');
  expectError(await dash.request('get', `/api/inventory/locations/${id}/climate?from=soon`, print), 400, 'ERR_VALIDATION');
  expectError(await dash.request('get', `/api/inventory/locations/${id}/climate?limit=3`, print), 400, 'ERR_VALIDATION');
});

test('humidity above the strictest material notifies once per excursion; hysteresis ends it; the next one notifies again', async () => {
  const id = await location('Dry box');
  spools.put(stockedSpool({ id: 11, material: 'PLA', location_id: id }));
  spools.put(stockedSpool({ id: 12, material: 'PETG', location_id: id }));
  assert.equal((await post(id, 40)).excursion, false, 'PETG allows 40 %');
  const opened = await post(id, 41);
  assert.deepEqual([opened.humidity_limit_pct, opened.excursion], [40, true]);
  await post(id, 48);
  await post(id, 39, undefined, 22);
  assert.equal((await post(id, 36)).excursion, true, 'still open: not 5 points below the limit');
  const notices = await excursionNotices(id);
  assert.equal(notices.length, 1, 'one notification for the whole excursion');
  assert.equal(notices[0].level, 'warning');
  assert.match(notices[0].message, /41 % relative humidity, above 40 % \(the limit for PETG\)/);
  assert.deepEqual(notices[0].data.limit_pct, 40);

  assert.equal((await post(id, 34.9)).excursion, false, 'below limit − 5: over');
  assert.equal((await dash.request('get', `/api/inventory/locations/${id}`, admin)).json.excursion, null);
  await post(id, 42);
  assert.equal((await excursionNotices(id)).length, 2, 'a new excursion notifies again');
  spools.remove(11);
  spools.remove(12);
});

test('a late reading fills the series but does not move the excursion; an override replaces the table', async () => {
  const id = await location('Nylon cabinet', { humidity_limit_pct: 25 });
  spools.put(stockedSpool({ id: 21, material: 'PLA', location_id: id }));
  await post(id, 20);
  const late = await post(id, 90, minutesAgo(120));
  assert.deepEqual([late.excursion, late.humidity_limit_pct], [false, 25]);
  assert.equal((await excursionNotices(id)).length, 0);
  await post(id, 26);
  const [notice] = await excursionNotices(id);
  assert.match(notice.message, /above 25 % \(the location's own limit\)/);
  const series = (await dash.request('get', `/api/inventory/locations/${id}/climate?from=${minutesAgo(180)}`, admin)).json;
  assert.deepEqual(
    series.readings.map((r: { humidity_pct: number }) => r.humidity_pct),
    [90, 20, 26],
  );
  assert.deepEqual(series.effective_limit, { limit_pct: 25, source: 'override', material: null });
  spools.remove(21);
});

test('a location without a limit (no spools, no override) never notifies; deleting it forgets its readings', async () => {
  const id = await location('Empty shelf');
  assert.equal((await post(id, 99)).excursion, false);
  assert.equal((await excursionNotices(id)).length, 0);
  assert.equal((await dash.request('delete', `/api/inventory/locations/${id}`, admin)).status, 204);
  expectError(await dash.request('get', `/api/inventory/locations/${id}/climate`, admin), 404, 'ERR_NOT_FOUND');
});

test('an open excursion survives a restart: the next high reading does not notify again', async () => {
  const id = await location('Garage');
  spools.put(stockedSpool({ id: 31, material: 'TPU', location_id: id }));
  await post(id, 45);
  assert.equal((await excursionNotices(id)).length, 1);
  await dash.stop();
  dash = await start(dash.dataDir);
  const shown = (await dash.request('get', `/api/inventory/locations/${id}`, admin)).json;
  assert.equal(shown.excursion.limit_pct, 30);
  assert.equal(shown.latest_reading.humidity_pct, 45);
  assert.equal((await post(id, 50)).excursion, true);
  assert.equal((await excursionNotices(id)).length, 1);
  spools.remove(31);
});
