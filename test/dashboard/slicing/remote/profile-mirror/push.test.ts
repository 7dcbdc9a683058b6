import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createLogger } from '../../../../../appliance/common/logger.js';
import { RemoteSlicerClient } from '../../../../../appliance/dashboard/slicing/remote/client.js';
import { RemoteProbe } from '../../../../../appliance/dashboard/slicing/remote/probe.js';
import { ProfilePush, PUSH_FILE, PUSH_FOLDER } from '../../../../../appliance/dashboard/slicing/remote/profile-mirror/push.js';
import { MirrorSync } from '../../../../../appliance/dashboard/slicing/remote/profile-mirror/sync.js';
import { startFakeUpstream } from '../../../../fixtures/fake-slicer-upstream.js';
import { startSlicer } from '../../../../fixtures/slicer-service.js';
import { startRemoteDashboard, TEST_TOKENS } from '../remote-dashboard.js';

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const MY_PLA = {
  id: 'dash-pla',
  kind: 'filament',
  name: 'Dashboard PLA',
  vendor: 'Farm',
  inherits: 'generic-pla',
  settings: { nozzle_temperature: [205] },
};

test("push: the dashboard's user profiles land in the service's config dir, the service lists them, the table follows", async () => {
  const slicer = await startSlicer(['--reload-interval-s', '1']);
  cleanups.push(() => slicer.cleanup());
  const dash = await startRemoteDashboard({ url: slicer.url });
  cleanups.push(() => dash.cleanup());

  const created = await dash.request('post', '/api/slicer/native/profiles', { token: TEST_TOKENS.print, body: MY_PLA });
  assert.equal(created.status, 201, created.text);
  assert.equal((await dash.request('post', '/api/slicer/profiles/push', { token: TEST_TOKENS.print })).status, 403);
  const pushed = await dash.request('post', '/api/slicer/profiles/push', { token: TEST_TOKENS.admin });
  assert.equal(pushed.status, 200, pushed.text);
  const file = path.join(slicer.configDir, 'profiles', PUSH_FOLDER, PUSH_FILE);
  assert.deepEqual([pushed.json.file, pushed.json.pushed, pushed.json.listed, pushed.json.not_listed], [file, ['dash-pla'], ['dash-pla'], []]);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), [MY_PLA]);
  assert.equal(pushed.json.sync.ok, true);

  const remote = await dash.request('get', '/api/slicer/remote/profiles?kind=filament&vendor=farm', { token: TEST_TOKENS.view });
  assert.deepEqual(
    remote.json.profiles.map((p: { id: string; source: string }) => [p.id, p.source]),
    [['dash-pla', 'user']],
  );
  assert.equal(remote.json.profiles[0].settings.nozzle_temperature[0], 205);
  const table = await dash.request('get', '/api/slicer/profiles?kind=filament', { token: TEST_TOKENS.view });
  assert.ok(table.json.profiles.some((p: { name: string; remote_id: string }) => p.name === 'Dashboard PLA' && p.remote_id === 'dash-pla'));

  // Deleted in the dashboard: the next push takes it out of the service.
  assert.equal((await dash.request('delete', '/api/slicer/native/profiles/dash-pla', { token: TEST_TOKENS.print })).status, 204);
  const emptied = await dash.request('post', '/api/slicer/profiles/push', { token: TEST_TOKENS.admin });
  assert.deepEqual([emptied.status, emptied.json.pushed], [200, []]);
  assert.ok(!existsSync(file));
});

test('push refuses a service that is not on this machine, or that does not say where its config dir is', async () => {
  const log = createLogger({ name: 'test', level: 'error' });
  const client = new RemoteSlicerClient(() => ({ url: 'http://slicer.farm.example:8765', token: '' }));
  const probe = new RemoteProbe({
    client,
    settings: () => ({ enabled: true, url: 'http://slicer.farm.example:8765', token: '' }),
    notify: async () => undefined,
    log,
  });
  const sync = new MirrorSync({
    fetchCatalogue: async () => [],
    mirror: () => {
      throw new Error('not used');
    },
    enabled: () => true,
    log,
  });
  const push = new ProfilePush({ client, probe, sync, profiles: async () => [] });
  await assert.rejects(push.push(), { status: 409, message: /must run on this machine; slicer\.farm\.example:8765 is not a loopback address/ });

  const upstream = await startFakeUpstream();
  cleanups.push(() => upstream.close());
  const dash = await startRemoteDashboard({ url: upstream.url });
  cleanups.push(() => dash.cleanup());
  const res = await dash.request('post', '/api/slicer/profiles/push', { token: TEST_TOKENS.admin });
  assert.deepEqual([res.status, res.json.code], [409, 'ERR_CONFLICT']);
  assert.match(res.json.error, /does not say where its config dir is/);
});
