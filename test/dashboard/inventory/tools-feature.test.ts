import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inventoryToolsFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';

const common = { features: [inventoryToolsFeature], createAuthenticator: testAuthenticator, logLevel: 'error' as const };

test('it reports its stores in /api/system/info', async () => {
  const dash = await startDashboardFixture({ ...common, services: { spools: new MemorySpools() } });
  try {
    assert.equal((await dash.request('get', '/api/inventory/locations', { token: TEST_TOKENS.view })).status, 200);
    const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json;
    const block = JSON.stringify(info);
    assert.match(block, /"climate_log"/);
  } finally {
    await dash.cleanup();
  }
});
