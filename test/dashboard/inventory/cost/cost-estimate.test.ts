import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryToolsFeature } from '../../../../appliance/dashboard/features.js';
import type { PrintUsage, UsageLookup } from '../../../../appliance/dashboard/inventory/cost/usage-lookup.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';

const spools = new MemorySpools([
  stockedSpool({ id: 1, material: 'PETG', price: 25, initial_weight_g: 1000 }),
  stockedSpool({ id: 2, material: 'PETG', price: 45, initial_weight_g: 1000 }),
  stockedSpool({ id: 3, material: 'petg', price: 10, initial_weight_g: 500 }),
  stockedSpool({ id: 4, material: 'PETG', price: 1000, initial_weight_g: 1000, archived: true }),
  stockedSpool({ id: 5, material: 'PLA', price: null }),
]);
const usage: UsageLookup = {
  history: (id) => (id === 'h1' ? ({ grams: 50, duration_s: 7200, printer_id: 'bambu-1', spool_id: 1 } satisfies PrintUsage) : null),
  queueJob: (id) => (id === 'q1' ? { grams: 20, duration_s: 1800, printer_id: null, material: 'PETG' } : null),
};
const config = {
  rate_limit: { enabled: false },
  inventory: { currency: 'CHF', electricity_price_kwh: 0.25, printer_watts: 120, machine_hour_rate: 0.5 },
};
let dash: DashboardFixture;
/** Every feature, with the real history and queue behind the lookup. */
let whole: DashboardFixture;
before(async () => {
  const common = { features: [inventoryToolsFeature], createAuthenticator: testAuthenticator, config, logLevel: 'warn' as const };
  dash = await startDashboardFixture({ ...common, services: { spools, usage } });
  whole = await startDashboardFixture({ createAuthenticator: testAuthenticator, config, logLevel: 'warn' });
});
after(async () => {
  await dash.cleanup();
  await whole.cleanup();
});

const view = { token: TEST_TOKENS.view };
const estimate = (query: string, fixture = dash) => fixture.request('get', `/api/inventory/cost-estimate?${query}`, view);

test('grams on a spool and a print time: every figure, from the spool price and the settings', async () => {
  const response = await estimate('grams=100&spool_id=1&print_time_s=5400');
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(response.json, {
    grams: 100,
    print_time_s: 5400,
    printer_id: null,
    spool_id: 1,
    material: 'PETG',
    price_per_kg: 25,
    filament_cost: 2.5,
    watts: 120,
    kwh: 0.18,
    electricity_price_kwh: 0.25,
    electricity_cost: 0.045,
    machine_hour_rate: 0.5,
    machine_cost: 0.75,
    total: 3.295,
    currency: 'CHF',
    sources: { usage: 'request', filament: 'spool', spools_averaged: 0, watts: 'default' },
  });
});

test('a material without a spool is priced by the mean of its spools in stock (archived ones left out)', async () => {
  const { json } = await estimate('grams=200&material=PETG');
  // (25 + 45 + 20) / 3 = 30 per kg
  assert.equal(json.price_per_kg, 30);
  assert.equal(json.filament_cost, 6);
  assert.deepEqual(json.sources, { usage: 'request', filament: 'material_average', spools_averaged: 3, watts: 'default' });
  assert.deepEqual([json.kwh, json.electricity_cost, json.machine_cost, json.total], [0, 0, 0, 6]);
  const unpriced = (await estimate('grams=10&spool_id=5')).json;
  assert.deepEqual([unpriced.price_per_kg, unpriced.filament_cost, unpriced.sources.filament, unpriced.total], [null, null, 'none', 0]);
  assert.equal((await estimate('grams=10&material=Unobtainium')).json.sources.filament, 'none');
});

test('a printer with a power of its own (admin sets it) is priced with it', async () => {
  expectError(
    await dash.request('put', '/api/inventory/printer-watts/bambu-1', { token: TEST_TOKENS.print, body: { watts: 300 } }),
    403,
    'ERR_FORBIDDEN',
  );
  assert.equal((await dash.request('put', '/api/inventory/printer-watts/bambu-1', { token: TEST_TOKENS.admin, body: { watts: 300 } })).status, 204);
  expectError(
    await dash.request('put', '/api/inventory/printer-watts/bambu-1', { token: TEST_TOKENS.admin, body: { watts: -1 } }),
    400,
    'ERR_VALIDATION',
  );
  expectError(
    await dash.request('put', '/api/inventory/printer-watts/__proto__', { token: TEST_TOKENS.admin, body: { watts: 1 } }),
    400,
    'ERR_VALIDATION',
  );
  assert.deepEqual((await dash.request('get', '/api/inventory/printer-watts', view)).json, { printers: { 'bambu-1': 300 } });
  const own = (await estimate('grams=0&print_time_s=3600&printer_id=bambu-1')).json;
  assert.deepEqual([own.watts, own.kwh, own.electricity_cost, own.sources.watts], [300, 0.3, 0.075, 'printer']);
  assert.equal((await estimate('grams=0&print_time_s=3600&printer_id=constructor')).json.watts, 120);

  const history = (await estimate('history_id=h1')).json;
  assert.deepEqual(
    [history.grams, history.print_time_s, history.printer_id, history.spool_id, history.watts, history.sources.usage, history.total],
    [50, 7200, 'bambu-1', 1, 300, 'history', 1.25 + 0.15 + 1],
  );
  assert.equal((await dash.request('delete', '/api/inventory/printer-watts/bambu-1', { token: TEST_TOKENS.admin })).status, 204);
  expectError(await dash.request('delete', '/api/inventory/printer-watts/bambu-1', { token: TEST_TOKENS.admin }), 404, 'ERR_NOT_FOUND');
});

test('a queue job is priced by its material; unknown references are 404, in the real history and queue too', async () => {
  const job = (await estimate('queue_id=q1')).json;
  assert.deepEqual([job.grams, job.material, job.price_per_kg, job.sources.usage], [20, 'PETG', 30, 'queue']);
  expectError(await estimate('history_id=nope'), 404, 'ERR_NOT_FOUND', /no history record nope/);
  expectError(await estimate('queue_id=nope'), 404, 'ERR_NOT_FOUND', /no queue job nope/);
  expectError(await estimate('history_id=h1', whole), 404, 'ERR_NOT_FOUND', /no history record h1/);
  expectError(await estimate('queue_id=q1', whole), 404, 'ERR_NOT_FOUND', /no queue job q1/);
});

test('bad queries are 400 naming the parameter; an unknown spool is 404; a credential is needed', async () => {
  for (const [query, where] of [
    ['', 'query/grams'],
    ['grams=10&history_id=h1', 'query/history_id'],
    ['grams=-1', 'query/grams'],
    ['grams=abc', 'query/grams'],
    ['grams=100001', 'query/grams'],
    ['grams=1&print_time_s=1.5', 'query/print_time_s'],
    ['grams=1&spool_id=1&material=PLA', 'query/material'],
    ['history_id=h1&print_time_s=60', 'query/print_time_s'],
    ['grams=1&printer_id=bad%20id', 'query/printer_id'],
    ['grams=1&colour=red', 'query/colour'],
  ]) {
    const response = await estimate(query);
    expectError(response, 400, 'ERR_VALIDATION');
    assert.equal(response.json.details[0].path, where, query);
  }
  expectError(await estimate('grams=1&spool_id=99'), 404, 'ERR_NOT_FOUND', /no spool 99/);
  expectError(await dash.request('get', '/api/inventory/cost-estimate?grams=1'), 401, 'ERR_UNAUTHORIZED');
});

test('a batch prices each item and sums them; one bad item fails it naming the item; the size is bounded', async () => {
  const batch = await dash.request('post', '/api/inventory/cost-estimate/batch', {
    ...view,
    body: [{ grams: 100, spool_id: 1, print_time_s: 5400 }, { grams: 200, material: 'PETG' }, { history_id: 'h1' }],
  });
  assert.equal(batch.status, 200, batch.text);
  assert.deepEqual(
    batch.json.items.map((e: { total: number }) => e.total),
    [3.295, 6, 1.25 + 0.06 + 1],
  );
  assert.deepEqual([batch.json.total, batch.json.currency], [11.605, 'CHF']);
  const bad = await dash.request('post', '/api/inventory/cost-estimate/batch', { ...view, body: [{ grams: 1 }, { grams: 1, queue_id: 'q1' }] });
  expectError(bad, 400, 'ERR_VALIDATION');
  assert.equal(bad.json.details[0].path, 'body/1/queue_id');
  expectError(await dash.request('post', '/api/inventory/cost-estimate/batch', { ...view, body: [] }), 400, 'ERR_VALIDATION');
  expectError(await dash.request('post', '/api/inventory/cost-estimate/batch', { ...view, body: { grams: 1 } }), 400, 'ERR_VALIDATION');
  const tooMany = Array.from({ length: 101 }, () => ({ grams: 1 }));
  expectError(await dash.request('post', '/api/inventory/cost-estimate/batch', { ...view, body: tooMany }), 400, 'ERR_VALIDATION');
  expectError(await dash.request('post', '/api/inventory/cost-estimate/batch', { ...view, body: [{ grams: 1, watts: 5 }] }), 400, 'ERR_VALIDATION');
});
