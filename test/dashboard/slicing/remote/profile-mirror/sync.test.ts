import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { settingsHash } from '../../../../../appliance/dashboard/slicing/remote/profile-mirror/sync.js';
import type { DashboardFixture } from '../../../../fixtures/dashboard.js';
import { startFakeUpstream } from '../../../../fixtures/fake-slicer-upstream.js';
import { startSlicer, USER_FILAMENT } from '../../../../fixtures/slicer-service.js';
import { eventually, startRemoteDashboard, TEST_TOKENS } from '../remote-dashboard.js';

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const sync = (dash: DashboardFixture) => dash.request('post', '/api/slicer/remote/sync', { token: TEST_TOKENS.admin });
const counts = (body: Record<string, number>) => {
  const { added, updated, archived, restored, unchanged } = body;
  return { added, updated, archived, restored, unchanged };
};

async function listed(dash: DashboardFixture, id: string): Promise<boolean> {
  const res = await dash.request('get', '/api/slicer/remote/profiles?kind=filament', { token: TEST_TOKENS.view });
  return res.json.profiles.some((p: { id: string }) => p.id === id);
}

test('sync against the real slicer service while its catalogue changes: added, archived, restored, idempotent', async () => {
  const slicer = await startSlicer(['--reload-interval-s', '1']);
  cleanups.push(() => slicer.cleanup());
  const dash = await startRemoteDashboard({ url: slicer.url });
  cleanups.push(() => dash.cleanup());

  assert.equal((await dash.request('post', '/api/slicer/remote/sync', { token: TEST_TOKENS.print })).status, 403);
  const first = await sync(dash);
  assert.equal(first.status, 200, first.text);
  const total = first.json.total as number;
  assert.ok(total > 20, `the bundled catalogue has more than 20 entries, got ${total}`);
  assert.equal(first.json.ok, true);
  // The start-up sync may have been first; either way the table holds the catalogue now.
  assert.equal(first.json.added + first.json.unchanged, total);
  assert.deepEqual(counts((await sync(dash)).json), { added: 0, updated: 0, archived: 0, restored: 0, unchanged: total });

  const userFile = path.join(slicer.configDir, 'profiles', 'mine.json');
  mkdirSync(path.dirname(userFile), { recursive: true });
  writeFileSync(userFile, JSON.stringify(USER_FILAMENT));
  await eventually('the service to load the user profile', () => listed(dash, USER_FILAMENT.id));
  assert.deepEqual(counts((await sync(dash)).json), { added: 1, updated: 0, archived: 0, restored: 0, unchanged: total });

  rmSync(userFile);
  await eventually('the service to drop the user profile', async () => !(await listed(dash, USER_FILAMENT.id)));
  assert.deepEqual(counts((await sync(dash)).json), { added: 0, updated: 0, archived: 1, restored: 0, unchanged: total });
  const table = await dash.request('get', '/api/slicer/profiles?kind=filament&archived=1', { token: TEST_TOKENS.view });
  const row = table.json.profiles.find((p: { name: string }) => p.name === USER_FILAMENT.name);
  assert.deepEqual([row.archived, row.remote_id, row.source, row.vendor], [true, USER_FILAMENT.id, 'remote', 'Me']);
  assert.ok(
    !(await dash.request('get', '/api/slicer/profiles?kind=filament', { token: TEST_TOKENS.view })).json.profiles.some(
      (p: { name: string }) => p.name === USER_FILAMENT.name,
    ),
  );

  writeFileSync(userFile, JSON.stringify({ ...USER_FILAMENT, settings: { nozzle_temperature: [240] } }));
  await eventually('the service to load the user profile again', () => listed(dash, USER_FILAMENT.id));
  assert.deepEqual(counts((await sync(dash)).json), { added: 0, updated: 0, archived: 0, restored: 1, unchanged: total });
  const back = (await dash.request('get', '/api/slicer/profiles?kind=filament', { token: TEST_TOKENS.view })).json.profiles.find(
    (p: { name: string }) => p.name === USER_FILAMENT.name,
  );
  assert.deepEqual([back.id, back.archived, back.archived_at], [row.id, false, null]);
  assert.notEqual(back.settings_hash, row.settings_hash);

  const [a, b] = await Promise.all([sync(dash), sync(dash)]);
  assert.equal(a.json.last_started, b.json.last_started, 'a sync asked for while one runs joins it');
  const status = await dash.request('get', '/api/slicer/remote/sync/status', { token: TEST_TOKENS.view });
  assert.deepEqual([status.json.running, status.json.ok, status.json.error, status.json.total], [false, true, null, total + 1]);
});

test('rows listed without settings are detailed; a failed sync records its error and changes nothing', async () => {
  const upstream = await startFakeUpstream({
    profiles: [
      { id: 'p1', kind: 'printer', name: 'Printer One', vendor: 'V', detail_settings: { nozzle_diameter: [0.4] } },
      { id: 'f1', kind: 'filament', name: 'Filament One', vendor: 'V', settings: { nozzle_temperature: [210] } },
    ],
  });
  cleanups.push(() => upstream.close());
  const dash = await startRemoteDashboard({ url: upstream.url });
  cleanups.push(() => dash.cleanup());
  const first = await sync(dash);
  assert.equal(first.json.total, 2);
  const table = (await dash.request('get', '/api/slicer/profiles', { token: TEST_TOKENS.view })).json.profiles;
  assert.equal(table.find((p: { remote_id: string }) => p.remote_id === 'p1').settings_hash, settingsHash({ nozzle_diameter: [0.4] }));
  assert.ok(upstream.requests.some((r) => r.path === '/api/profiles/p1'));
  assert.equal(settingsHash({ b: 1, a: [1, { d: 2, c: 3 }] }), settingsHash({ a: [1, { c: 3, d: 2 }], b: 1 }), 'key order does not matter');

  upstream.options.profiles[0].detail_settings = { nozzle_diameter: [0.6] };
  assert.deepEqual(counts((await sync(dash)).json), { added: 0, updated: 1, archived: 0, restored: 0, unchanged: 1 });

  await upstream.close();
  const failed = await sync(dash);
  assert.deepEqual([failed.status, failed.json.code], [503, 'ERR_UNAVAILABLE']);
  const status = (await dash.request('get', '/api/slicer/remote/sync/status', { token: TEST_TOKENS.view })).json;
  assert.equal(status.ok, false);
  assert.equal(status.error, 'the slicer service cannot be reached', 'view users read the public reason');
  assert.ok(status.last_success < status.last_finished || status.last_success === status.last_finished);
  const after = (await dash.request('get', '/api/slicer/profiles', { token: TEST_TOKENS.view })).json.profiles;
  assert.equal(after.length, 2, 'nothing is archived from a sync that did not get the catalogue');
});
