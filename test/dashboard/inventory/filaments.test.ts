import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryFeature } from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

const start = (dataDir?: string) =>
  startDashboardFixture({
    features: [inventoryFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false }, inventory: { low_stock_g: 150 } },
    logLevel: 'warn',
    dataDir,
  });

let dash: DashboardFixture;
before(async () => {
  dash = await start();
});
after(() => dash.cleanup());

const add = (body: Record<string, unknown>, token = TEST_TOKENS.print) => dash.request('post', '/api/filaments', { token, body });

test('a spool is created from flat fields, finding or making its vendor and filament; view reads, print adds', async () => {
  assert.equal((await add({ material: 'PLA' }, TEST_TOKENS.view)).status, 403);
  assert.equal((await dash.request('get', '/api/filaments')).status, 401);
  const created = await add({ material: 'PLA', color_hex: '#FF0000', vendor: 'Polymaker', initial_weight_g: 1000, price: 20 });
  assert.equal(created.status, 201, created.text);
  const spool = created.json;
  assert.match(spool.short_id, /^[2-9A-HJKMNP-Z]{4,5}$/);
  assert.equal(spool.color_hex, '#ff0000');
  assert.equal(spool.density, 1.24);
  assert.equal(spool.diameter, 1.75);
  assert.equal(spool.remaining_weight_g, 1000);
  const second = (await add({ material: 'pla', color_hex: 'ff0000', vendor: 'polymaker' })).json;
  assert.notEqual(second.short_id, spool.short_id);
  const v1 = await dash.request('get', '/api/v1/filament', { token: TEST_TOKENS.view });
  assert.equal(v1.json.length, 1, 'the same vendor and filament records serve both spools');
  const list = await dash.request('get', '/api/filaments?material=PLA&vendor=polymaker', { token: TEST_TOKENS.view });
  assert.equal(list.json.total, 2);
});

test('bad input changes nothing and answers the documented error', async () => {
  const before = (await dash.request('get', '/api/filaments', { token: TEST_TOKENS.view })).json.total;
  expectError(await add({ color_hex: '#ff0000' }), 400, 'ERR_VALIDATION');
  expectError(await add({ material: 'PLA', color_hex: 'red' }), 400, 'ERR_VALIDATION');
  expectError(await add({ material: 'PLA', used_weight_g: 1, remaining_weight_g: 2 }), 400, 'ERR_VALIDATION');
  expectError(await add({ material: 'PLA', printer_id: 'p1' }), 400, 'ERR_VALIDATION', /slot/);
  expectError(await add({ material: 'PLA', slot: { kind: 'tool', tool: -1 } }), 400, 'ERR_VALIDATION');
  expectError(await dash.request('put', '/api/filaments/999', { token: TEST_TOKENS.print, body: { comment: 'x' } }), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('get', '/api/filaments?archived=maybe', { token: TEST_TOKENS.view }), 400, 'ERR_VALIDATION');
  assert.equal((await dash.request('get', '/api/filaments', { token: TEST_TOKENS.view })).json.total, before);
});

test('used weight is capped at the initial weight; a slot holds one spool; admin deletes', async () => {
  const a = (await add({ material: 'PETG', initial_weight_g: 500 })).json;
  const capped = await dash.request('put', `/api/filaments/${a.id}`, { token: TEST_TOKENS.print, body: { used_weight_g: 900 } });
  assert.equal(capped.json.used_weight_g, 500);
  assert.equal(capped.json.remaining_weight_g, 0);
  const lowered = await dash.request('put', `/api/filaments/${a.id}`, { token: TEST_TOKENS.print, body: { initial_weight_g: 300 } });
  assert.equal(lowered.json.used_weight_g, 300);
  const b = (await add({ material: 'PETG' })).json;
  const slot = { kind: 'ams', unit: 0, tray: 2 };
  await dash.request('put', `/api/filaments/${a.id}`, { token: TEST_TOKENS.print, body: { printer_id: 'bambu-1', slot } });
  const loaded = await dash.request('put', `/api/filaments/${b.id}`, { token: TEST_TOKENS.print, body: { printer_id: 'bambu-1', slot } });
  assert.deepEqual(loaded.json.slot, slot);
  const onPrinter = await dash.request('get', '/api/filaments?printer_id=bambu-1', { token: TEST_TOKENS.view });
  assert.deepEqual(
    onPrinter.json.items.map((s: { id: number }) => s.id),
    [b.id],
  );
  assert.deepEqual(
    dash.server.services.inventory.loadedOn('bambu-1').map((s) => s.id),
    [b.id],
  );
  assert.equal((await dash.request('delete', `/api/filaments/${a.id}`, { token: TEST_TOKENS.print })).status, 403);
  assert.equal((await dash.request('delete', `/api/filaments/${a.id}`, { token: TEST_TOKENS.admin })).status, 204);
  assert.equal(dash.server.services.inventory.get(a.id), null);
});

test('use is idempotent by key across a restart of the dashboard; length becomes grams', async () => {
  const spool = (await add({ material: 'ABS', vendor: 'eSun', color_hex: '#000000', initial_weight_g: 1000, price: 30 })).json;
  const ledger = dash.server.services.inventory;
  const first = await ledger.use(spool.id, { grams: 40 }, 'job-1/copy-1');
  assert.equal(first?.used_weight_g, 40);
  assert.equal((await ledger.use(spool.id, { grams: 40 }, 'job-1/copy-1'))?.used_weight_g, 40);
  // 1000 mm of 1.75 mm ABS (1.04 g/cm³): π × 0.875² × 1000 mm³ × 1.04 / 1000 ≈ 2.5015 g.
  const byLength = await ledger.use(spool.id, { length_mm: 1000 }, 'job-2');
  assert.ok(Math.abs((byLength?.used_weight_g ?? 0) - 42.5015) < 0.001);
  const dataDir = dash.dataDir;
  await dash.stop();
  dash = await start(dataDir);
  const again = await dash.server.services.inventory.use(spool.id, { grams: 40 }, 'job-1/copy-1');
  assert.ok(Math.abs((again?.used_weight_g ?? 0) - 42.5015) < 0.001);
  assert.equal(await dash.server.services.inventory.use(99999, { grams: 1 }, 'x'), null);
});

test('stats: consumption per week and month by material, colour and vendor; low stock; value in stock', async () => {
  const stats = await dash.request('get', '/api/filaments/stats', { token: TEST_TOKENS.view });
  assert.equal(stats.status, 200, stats.text);
  const month = stats.json.consumption.monthly.at(-1);
  assert.equal(month.by_material.ABS, 42.5);
  assert.equal(month.by_vendor.eSun, 42.5);
  assert.equal(month.by_color['#000000'], 42.5);
  assert.match(stats.json.consumption.weekly.at(-1).period, /^\d{4}-W\d{2}$/);
  assert.equal(stats.json.low_stock.threshold_g, 150);
  const spools = (await dash.request('get', '/api/filaments', { token: TEST_TOKENS.view })).json.items;
  const expected = spools
    .filter((s: { price: number | null }) => s.price !== null)
    .reduce(
      (sum: number, s: { price: number; remaining_weight_g: number; initial_weight_g: number }) =>
        sum + (s.price * s.remaining_weight_g) / s.initial_weight_g,
      0,
    );
  assert.ok(Math.abs(stats.json.stock.value - expected) < 0.01);
  assert.ok(stats.json.low_stock.spools.every((s: { remaining_weight_g: number }) => s.remaining_weight_g <= 150));
});
