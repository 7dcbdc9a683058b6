import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { packageVersion } from '../../../appliance/common/version.js';
import type { DashboardContext, DashboardFeature } from '../../../appliance/dashboard/feature.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

/** A feature with state in a JSON store and an info block, like the real ones. */
const widgets = (ctx: DashboardContext): DashboardFeature => {
  let count = 0;
  return {
    name: 'widgets',
    routes: [],
    async start() {
      const store = await ctx.stores.open('widgets', { items: [] as string[] });
      count = store.data.items.length;
    },
    info: () => ({ count }),
  };
};

describe('health and system info', () => {
  let dash: DashboardFixture;
  before(async () => {
    dash = await startDashboardFixture({
      createAuthenticator: testAuthenticator,
      features: [widgets],
      // mDNS left on (the fixture's default is off): the note then says the feature is not running.
      env: { SLICER_URL: 'http://slicer.lan:8765', SLICER_TOKEN: 'do-not-show', PRINTYARD_DASHBOARD_MDNS_ENABLED: undefined },
      files: { 'widgets.json': '{"items": [' },
    });
  });
  after(async () => dash.cleanup());

  test('health is public and cheap', async () => {
    const res = await dash.request('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.equal(res.json.ok, true);
    assert.equal(res.json.service, 'printyard-dashboard');
    assert.equal(res.json.version, packageVersion());
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('system info needs the view level', async () => {
    assert.equal((await dash.request('GET', '/api/system/info')).status, 401);
  });

  test('versions, uptime, data directory', async () => {
    const { status, json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.equal(status, 200);
    assert.equal(json.version, packageVersion());
    assert.equal(json.versions.printyard, packageVersion());
    assert.equal(json.versions.node, process.versions.node);
    assert.match(json.versions.uws, /^\d+\.\d+/);
    assert.match(json.versions.hyper_express, /^6\./);
    assert.ok(Number.isInteger(json.uptime_s) && json.uptime_s >= 0);
    assert.equal(json.data_dir, dash.dataDir);
    assert.ok(Date.parse(json.started_at) <= Date.now());
  });

  test('storage: free space, and a state file that was unreadable and moved aside', async () => {
    const { json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.ok(Number.isInteger(json.storage.free_bytes) && json.storage.free_bytes > 0);
    assert.ok(json.storage.total_bytes >= json.storage.free_bytes);
    assert.equal(json.storage.ok, false);
    assert.equal(json.storage.problems.length, 1);
    assert.equal(json.storage.problems[0].file, 'widgets.json');
    assert.match(json.storage.problems[0].moved_to, /^widgets\.json\.corrupt-/);
    assert.match(dash.logs(), /state file widgets\.json is unreadable/);
  });

  test('hardware support is reported, never fatal', async () => {
    const { json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.equal(typeof json.hardware.serial.available, 'boolean');
    assert.equal(json.hardware.serial.available, true, 'the serialport binding loads on the development machine');
    assert.equal(typeof json.hardware.gpio.available, 'boolean');
    assert.ok(Array.isArray(json.hardware.gpio.chips));
    assert.equal(json.hardware.systemd_notify.available, false, 'a test dashboard is not run by systemd');
    assert.equal(json.hardware.mdns.running, false);
    assert.match(json.hardware.mdns.note, /not started/, 'the network feature is not among these features');
  });

  test('the slicer service block shows the configuration, never the token', async () => {
    const { json, text } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.deepEqual(json.slicer_service, {
      enabled: false,
      url: 'http://slicer.lan:8765',
      ok: null,
      version: null,
      upstream: null,
      last_check: null,
      error: null,
    });
    assert.doesNotMatch(text, /do-not-show/);
  });

  test("each feature's block is under its name", async () => {
    const { json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
    assert.deepEqual(json.widgets, { count: 0 });
  });
});

describe('system info around the features', () => {
  test('a corrupt config.json is reported and the service runs on defaults', async () => {
    const dash = await startDashboardFixture({ createAuthenticator: testAuthenticator, config: '{"rate_limit": {' });
    try {
      const { json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.view });
      assert.equal(json.storage.ok, false);
      assert.equal(json.storage.problems[0].file, 'config.json');
      assert.equal(json.storage.problems[0].reason.startsWith('not valid JSON'), true);
      assert.equal(dash.server.context.settings.current.rate_limit.per_minute, 200);
    } finally {
      await dash.cleanup();
    }
  });

  test('a slicer_service feature replaces the configured-only block', async () => {
    const probe = (): DashboardFeature => ({ name: 'slicer_service', routes: [], info: () => ({ enabled: true, ok: true, version: '9.9.9' }) });
    const dash = await startDashboardFixture({ createAuthenticator: testAuthenticator, features: [probe] });
    try {
      const { json } = await dash.request('GET', '/api/system/info', { token: TEST_TOKENS.admin });
      assert.deepEqual(json.slicer_service, { enabled: true, ok: true, version: '9.9.9' });
    } finally {
      await dash.cleanup();
    }
  });

  test('a feature may not take a key of the info body', async () => {
    const clash = (): DashboardFeature => ({ name: 'storage', routes: [] });
    await assert.rejects(startDashboardFixture({ features: [clash] }), /feature name "storage" is taken/);
  });
});
