import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { createLogger } from '../../appliance/common/logger.js';
import { STATE_VERSION_FILE, StateVersions } from '../../appliance/common/state-versions.js';
import { packageVersion } from '../../appliance/common/version.js';
import { authFeature, settingsFeature } from '../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../fixtures/dashboard.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });

test('after an update the dashboard keeps its state as the old version left it, and a rollback finds it so', async (t) => {
  const oldRecord = { version: '0.0.1-old', from: null, kept: {}, since: '2026-11-01T00:00:00.000Z' };
  const dash = await startDashboardFixture({
    createAuthenticator: testAuthenticator,
    features: [settingsFeature],
    config: { box: { name: 'Before' } },
    files: { [STATE_VERSION_FILE]: JSON.stringify(oldRecord) },
  });
  t.after(() => dash.cleanup());
  const { status } = await dash.request('PATCH', '/api/settings', { token: TEST_TOKENS.admin, body: { box: { name: 'After' } } });
  assert.equal(status, 200);
  await dash.server.stop();

  const record = JSON.parse(await readFile(path.join(dash.dataDir, STATE_VERSION_FILE), 'utf8'));
  assert.equal(record.version, packageVersion());
  assert.equal(record.from, '0.0.1-old');
  assert.equal(record.kept['config.json'], 'kept');
  const kept = JSON.parse(await readFile(path.join(dash.dataDir, 'versions', '0.0.1-old', 'config.json'), 'utf8'));
  assert.equal(kept.box.name, 'Before');

  // The old slot boots again: its dashboard opens the data directory as version 0.0.1-old.
  (await StateVersions.open(dash.dataDir, '0.0.1-old', quiet)).close();
  const config = JSON.parse(await readFile(path.join(dash.dataDir, 'config.json'), 'utf8'));
  assert.equal(config.box.name, 'Before');
});

test('a dashboard rolled back from 1.1.0 to 1.0.0 finds its users as 1.0.0 left them', async (t) => {
  const admin = { username: 'farmer', password: 'Spool-Yard-4711' };
  const first = await startDashboardFixture({ features: [authFeature], version: '1.0.0', logLevel: 'error' });
  t.after(() => first.cleanup());
  assert.ok((await first.request('post', '/api/auth/setup', { body: admin })).status < 300);
  await first.stop();

  const updated = await startDashboardFixture({ features: [authFeature], version: '1.1.0', dataDir: first.dataDir, logLevel: 'error' });
  const token = (await updated.request('post', '/api/auth/login', { body: admin })).json.token;
  const made = await updated.request('post', '/api/users', { token, body: { username: 'trial', password: 'Glass-Bed-0815', role: 'view' } });
  assert.equal(made.status, 201, made.text);
  await updated.stop();

  const rolledBack = await startDashboardFixture({ features: [authFeature], version: '1.0.0', dataDir: first.dataDir, logLevel: 'error' });
  try {
    const again = (await rolledBack.request('post', '/api/auth/login', { body: admin })).json.token;
    const users = await rolledBack.request('get', '/api/users', { token: again });
    assert.equal(users.status, 200, users.text);
    assert.deepEqual(
      users.json.map((user: { username: string }) => user.username),
      ['farmer'],
    );
  } finally {
    await rolledBack.stop();
  }
});
