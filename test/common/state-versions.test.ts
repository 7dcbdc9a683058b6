/**
 * State across versions (common/state-versions.ts): an update keeps the old version's state files
 * before the new one writes, a rollback finds its own state back, and a real dashboard started as
 * 1.1.0 and then again as 1.0.0 sees a user it made as 1.0.0 and not one made as 1.1.0.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createLogger } from '../../appliance/common/logger.js';
import { keepStateAcrossVersions } from '../../appliance/common/state-versions.js';
import { authFeature } from '../../appliance/dashboard/features.js';
import { startDashboardFixture } from '../fixtures/dashboard.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-state-versions-'));
  dirs.push(dir);
  return dir;
}

const lines: string[] = [];
const log = createLogger({ name: 'test', level: 'debug', write: (line) => void lines.push(line) });
const read = (dir: string, name: string) => readFileSync(path.join(dir, name), 'utf8');

test('first start records the version; the same version again does nothing', async () => {
  const dir = dataDir();
  writeFileSync(path.join(dir, 'queue.json'), '{"jobs":[]}');
  assert.equal((await keepStateAcrossVersions(dir, '1.0.0', log)).action, 'first-start');
  assert.equal(read(dir, 'state-version'), '1.0.0\n');
  assert.deepEqual(await keepStateAcrossVersions(dir, '1.0.0', log), { action: 'same', previous: '1.0.0', files: [] });
  assert.equal(existsSync(path.join(dir, 'versions')), false);
});

test('an update keeps the state files (not the folders) of the old version; a rollback restores them', async () => {
  const dir = dataDir();
  await keepStateAcrossVersions(dir, '1.0.0', log);
  writeFileSync(path.join(dir, 'queue.json'), '{"jobs":["old"]}');
  writeFileSync(path.join(dir, 'history.log'), 'record 1\n');
  mkdirSync(path.join(dir, 'slicing-work'));
  writeFileSync(path.join(dir, 'slicing-work', 'big.gcode'), 'G1 X1\n');

  const update = await keepStateAcrossVersions(dir, '1.1.0', log);
  assert.deepEqual(update, { action: 'kept', previous: '1.0.0', files: ['history.log', 'queue.json'] });
  assert.deepEqual(readdirSync(path.join(dir, 'versions', '1.0.0')).sort(), ['history.log', 'queue.json']);
  // The new version migrates and adds files.
  writeFileSync(path.join(dir, 'queue.json'), '{"schema":2,"jobs":["old","new"]}');
  writeFileSync(path.join(dir, 'history.log'), 'record 1\nrecord 2\n');
  writeFileSync(path.join(dir, 'spools.json'), '{"spools":[]}');

  const rollback = await keepStateAcrossVersions(dir, '1.0.0', log);
  assert.deepEqual(rollback, { action: 'restored', previous: '1.1.0', files: ['history.log', 'queue.json'] });
  assert.equal(read(dir, 'queue.json'), '{"jobs":["old"]}');
  assert.equal(read(dir, 'history.log'), 'record 1\n');
  assert.equal(existsSync(path.join(dir, 'spools.json')), false, 'a file the newer version made is not left behind');
  assert.equal(read(path.join(dir, 'versions', '1.1.0'), 'queue.json'), '{"schema":2,"jobs":["old","new"]}', "the newer version's state is kept too");
  assert.equal(read(dir, 'slicing-work/big.gcode'), 'G1 X1\n', 'folders are left alone');
  assert.equal(read(dir, 'state-version'), '1.0.0\n');
  assert.match(lines.join('\n'), /rolled back from 1\.1\.0 to 1\.0\.0/);

  // Updating again keeps the state as 1.0.0 has it now, not the copy of the failed try.
  writeFileSync(path.join(dir, 'queue.json'), '{"jobs":["old","after rollback"]}');
  await keepStateAcrossVersions(dir, '1.1.0', log);
  assert.equal(read(path.join(dir, 'versions', '1.0.0'), 'queue.json'), '{"jobs":["old","after rollback"]}');
  assert.equal(read(dir, 'queue.json'), '{"jobs":["old","after rollback"]}', 'the update itself changes nothing');
});

test('a rollback to a version that left no copy keeps the files and says so', async () => {
  const dir = dataDir();
  await keepStateAcrossVersions(dir, '2.0.0', log);
  writeFileSync(path.join(dir, 'queue.json'), '{"jobs":[]}');
  const r = await keepStateAcrossVersions(dir, '1.9.0', log);
  assert.equal(r.action, 'no-copy');
  assert.equal(read(dir, 'queue.json'), '{"jobs":[]}');
  assert.match(lines.join('\n'), /no state of 1\.9\.0 was kept/);
});

test('a dashboard rolled back from 1.1.0 to 1.0.0 finds its users as 1.0.0 left them', async () => {
  const admin = { username: 'farmer', password: 'Spool-Yard-4711' };
  const first = await startDashboardFixture({ features: [authFeature], version: '1.0.0', logLevel: 'error' });
  dirs.push(first.dataDir);
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
