import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inventoryToolsFeature } from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { MemorySpoolDirectory } from '../../fixtures/spool-directory.js';

const common = { features: [inventoryToolsFeature], createAuthenticator: testAuthenticator, logLevel: 'error' as const };

test('without a spool directory the feature does not start and its routes answer 503 saying why', async () => {
  const dash = await startDashboardFixture(common);
  try {
    expectError(await dash.request('get', '/api/inventory/locations', { token: TEST_TOKENS.view }), 503, 'ERR_UNAVAILABLE', /no spool directory/);
    const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json;
    const state = info.features.find((f: { name: string }) => f.name === 'inventory-tools');
    assert.equal(state.state, 'failed');
    assert.match(state.error, /no spool directory is wired/);
  } finally {
    await dash.cleanup();
  }
});

test('with one it runs and reports its stores in /api/system/info', async () => {
  const dash = await startDashboardFixture({ ...common, services: { spools: new MemorySpoolDirectory() } });
  try {
    assert.equal((await dash.request('get', '/api/inventory/locations', { token: TEST_TOKENS.view })).status, 200);
    const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.admin })).json;
    const block = JSON.stringify(info);
    assert.match(block, /"usage_lookup":false/);
    assert.match(block, /"climate_log"/);
  } finally {
    await dash.cleanup();
  }
});
