import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryToolsFeature } from '../../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
const spools = new MemorySpools([
  stockedSpool({ id: 1, expiry_date: day(10) }),
  stockedSpool({ id: 2, expiry_date: day(-3) }),
  stockedSpool({ id: 3, expiry_date: day(45) }),
  stockedSpool({ id: 4, expiry_date: day(-1), archived: true }),
  stockedSpool({ id: 5, expiry_date: null }),
  stockedSpool({ id: 6, expiry_date: day(0) }),
  stockedSpool({ id: 7, expiry_date: day(400) }),
]);
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

const expiring = (query = '') => dash.request('get', `/api/inventory/spools/expiring${query}`, { token: TEST_TOKENS.view });

test('by default the next 30 days, expired ones included and marked, archived ones never, soonest first', async () => {
  const { status, json } = await expiring();
  assert.equal(status, 200);
  assert.equal(json.within, 30);
  assert.equal(json.today, day(0));
  assert.deepEqual(
    json.items.map((i: { spool: { id: number }; days_left: number; expired: boolean }) => [i.spool.id, i.days_left, i.expired]),
    [
      [2, -3, true],
      [6, 0, false],
      [1, 10, false],
    ],
  );
  assert.equal(json.items[0].spool.short_id, 'S002');
});

test('within widens or narrows the window; 0 is today and before', async () => {
  const ids = async (query: string) => (await expiring(query)).json.items.map((i: { spool: { id: number } }) => i.spool.id);
  assert.deepEqual(await ids('?within=60'), [2, 6, 1, 3]);
  assert.deepEqual(await ids('?within=0'), [2, 6]);
  assert.deepEqual(await ids('?within=3650'), [2, 6, 1, 3, 7]);
});

test('a bad within is 400 naming it; a credential is needed', async () => {
  for (const bad of ['-1', '3651', 'soon', '1.5']) expectError(await expiring(`?within=${bad}`), 400, 'ERR_VALIDATION');
  assert.equal((await expiring('?within=x')).json.details[0].path, 'query/within');
  expectError(await dash.request('get', '/api/inventory/spools/expiring'), 401, 'ERR_UNAUTHORIZED');
});
