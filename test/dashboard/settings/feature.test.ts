import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { settingsFeature } from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

describe('GET and PATCH /api/settings', () => {
  let dash: DashboardFixture;
  before(async () => {
    dash = await startDashboardFixture({
      createAuthenticator: testAuthenticator,
      features: [settingsFeature],
      config: { slicer_service: { enabled: true, url: 'http://slicer.lan:8765', token: 'kept-secret' } },
      // The fixture switches mDNS off through the environment; here the environment holds one key only.
      env: { PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE: '500', PRINTYARD_DASHBOARD_MDNS_ENABLED: undefined },
    });
  });
  after(async () => dash.cleanup());

  const savedFile = async () => JSON.parse(await readFile(path.join(dash.dataDir, 'config.json'), 'utf8'));

  test('admins read the values (secrets redacted), the schema and what the environment holds', async () => {
    const { status, json, text } = await dash.request('GET', '/api/settings', { token: TEST_TOKENS.admin });
    assert.equal(status, 200);
    assert.equal(json.values.box.name, 'Printyard');
    assert.equal(json.values.rate_limit.per_minute, 500);
    assert.equal(json.values.slicer_service.token, '(set)');
    assert.ok(!text.includes('kept-secret'), 'the token is never shown');
    assert.deepEqual(json.environment, [{ key: 'rate_limit.per_minute', variable: 'PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE' }]);
    assert.equal(json.schema.properties.box.properties.name.maxLength, 40);
  });

  test('view and print users may not read or change them', async () => {
    for (const role of ['view', 'print'] as const) {
      expectError(await dash.request('GET', '/api/settings', { token: TEST_TOKENS[role] }), 403, 'ERR_FORBIDDEN');
      expectError(await dash.request('PATCH', '/api/settings', { token: TEST_TOKENS[role], body: { box: { name: 'X' } } }), 403, 'ERR_FORBIDDEN');
    }
  });

  test('a patch is saved to config.json and applied at once; the name is stored trimmed', async () => {
    const { status, json } = await dash.request('PATCH', '/api/settings', {
      token: TEST_TOKENS.admin,
      body: { box: { name: '  Werkstatt Süd ' }, inventory: { currency: 'CHF' } },
    });
    assert.equal(status, 200);
    assert.equal(json.values.box.name, 'Werkstatt Süd');
    assert.equal(json.values.inventory.currency, 'CHF');
    const file = await savedFile();
    assert.equal(file.box.name, 'Werkstatt Süd');
    assert.equal(file.slicer_service.token, 'kept-secret', 'other sections are kept as they were');
    const info = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.equal(info.json.box.name, 'Werkstatt Süd', 'system info shows the new name to every user');
  });

  test('a key the environment holds keeps its value, the file keeps the new one', async () => {
    const { json } = await dash.request('PATCH', '/api/settings', { token: TEST_TOKENS.admin, body: { rate_limit: { per_minute: 90 } } });
    assert.equal(json.values.rate_limit.per_minute, 500);
    assert.equal((await savedFile()).rate_limit.per_minute, 90);
  });

  test('bad patches name the key and change nothing', async () => {
    const before = await readFile(path.join(dash.dataDir, 'config.json'), 'utf8');
    const cases: [unknown, RegExp][] = [
      [{ box: { name: '' } }, /box\.name must be .*1 to 40 characters/],
      [{ box: { name: 'x'.repeat(41) } }, /box\.name/],
      [{ box: { name: 'evil\u202Ename' } }, /box\.name/],
      [{ box: { colour: 'red' } }, /box\.colour is not a setting/],
      [{ rate_limit: { per_second: 'fast' } }, /rate_limit\.per_second must be an integer/],
      [{ nonsense: {} }, /nonsense is not a settings section/],
      [{ slicer_service: { token: 'x' } }, /POST \/api\/slicer\/remote\/configure/],
      [[1, 2], /./],
    ];
    for (const [body, pattern] of cases) {
      const response = await dash.request('PATCH', '/api/settings', { token: TEST_TOKENS.admin, body });
      expectError(response, 400, 'ERR_VALIDATION', pattern);
    }
    assert.equal(await readFile(path.join(dash.dataDir, 'config.json'), 'utf8'), before);
  });
});
