import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AppendLog } from '../../appliance/common/append-log.js';
import { JsonStores, writeFileAtomic } from '../../appliance/common/json-store.js';
import { createLogger } from '../../appliance/common/logger.js';
import { STATE_VERSION_FILE, StateVersions } from '../../appliance/common/state-versions.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'printyard-state-versions-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

const json = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

/** Opens `dir` as `version` would at its start, runs `work`, and closes it as a stop does. */
async function runAs(dir: string, version: string, work: () => Promise<void> = async () => {}): Promise<StateVersions> {
  const versions = await StateVersions.open(dir, version, quiet);
  try {
    await work();
  } finally {
    versions.close();
  }
  return versions;
}

test('a directory without a record starts one, and keeps nothing until another version writes', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'users.json'), '{"users":["ada"]}\n');
  const versions = await runAs(dir, '1.0.0', () => writeFileAtomic(path.join(dir, 'users.json'), '{"users":["ada","bob"]}\n'));
  assert.deepEqual(versions.state, { version: '1.0.0', from: null, kept: 0 });
  assert.equal(((await json(path.join(dir, STATE_VERSION_FILE))) as { version: string }).version, '1.0.0');
  assert.equal(await exists(path.join(dir, 'versions')), false);
});

test("a new version's first write keeps each file as the previous version left it, once", async (t) => {
  const dir = await tempDir(t);
  await runAs(dir, '1.0.0', async () => {
    const store = await new JsonStores(dir, quiet).open('users', { users: ['ada'] });
    await store.write();
  });
  const versions = await runAs(dir, '2.0.0', async () => {
    const store = await new JsonStores(dir, quiet).open('users', { users: [] as string[], format: 2 });
    store.data.users.push('bob');
    await store.write();
    store.data.users.push('cy');
    await store.write();
    await writeFileAtomic(path.join(dir, 'new-in-2.json'), '{}\n');
  });
  assert.deepEqual(await json(path.join(dir, 'versions', '1.0.0', 'users.json')), { users: ['ada'] }, 'the copy is the old file, not a later write');
  assert.deepEqual(await json(path.join(dir, 'users.json')), { users: ['ada', 'bob', 'cy'] });
  const record = (await json(path.join(dir, STATE_VERSION_FILE))) as { version: string; from: string; kept: Record<string, string> };
  assert.deepEqual(record.kept, { 'users.json': 'kept', 'new-in-2.json': 'absent' });
  assert.deepEqual(versions.state, { version: '2.0.0', from: '1.0.0', kept: 2 });
});

test('the previous version starting again finds its state as it left it; the newer state is set aside', async (t) => {
  const dir = await tempDir(t);
  const history = path.join(dir, 'history', 'jobs.log');
  const options = {
    file: history,
    empty: () => [] as string[],
    apply: (state: string[], record: { add: string }) => void state.push(record.add),
    snapshot: (state: string[]) => state.map((add) => ({ add })),
    check: (record: unknown) => (typeof (record as { add?: unknown }).add === 'string' ? null : 'no add'),
    log: quiet,
  };
  await writeFile(path.join(dir, 'placeholder'), '');
  await runAs(dir, '1.0.0', async () => {
    await writeFileAtomic(path.join(dir, 'settings.json'), '{"v":1}\n');
    await mkdir(path.dirname(history), { recursive: true });
    const log = await AppendLog.open(options);
    await log.append({ add: 'benchy' });
    await log.close();
  });
  await runAs(dir, '2.0.0', async () => {
    await writeFileAtomic(path.join(dir, 'settings.json'), '{"v":2}\n');
    await writeFileAtomic(path.join(dir, 'only-2.json'), '{}\n');
    const log = await AppendLog.open(options);
    await log.append({ add: 'boat' });
    await log.close();
  });
  assert.match(await readFile(history, 'utf8'), /boat/);

  const back = await runAs(dir, '1.0.0');
  assert.deepEqual(back.state, { version: '1.0.0', from: null, kept: 0 });
  assert.deepEqual(await json(path.join(dir, 'settings.json')), { v: 1 });
  assert.equal(await readFile(history, 'utf8'), '{"add":"benchy"}\n', 'the appended log is back to its length before the update');
  assert.equal(await exists(path.join(dir, 'only-2.json')), false);
  assert.deepEqual(await json(path.join(dir, 'versions', '2.0.0', 'settings.json')), { v: 2 }, 'nothing of the newer version is deleted');
  assert.match(await readFile(path.join(dir, 'versions', '2.0.0', 'history', 'jobs.log'), 'utf8'), /boat/);
  assert.equal(await exists(path.join(dir, 'versions', '2.0.0', 'only-2.json')), true);
});

test('a rollback cut short by power loss is finished at the next start', async (t) => {
  const dir = await tempDir(t);
  await runAs(dir, '1.0.0', () => writeFileAtomic(path.join(dir, 'a.json'), '"a1"'));
  await runAs(dir, '1.0.0', () => writeFileAtomic(path.join(dir, 'b.json'), '"b1"'));
  await runAs(dir, '2.0.0', async () => {
    await writeFileAtomic(path.join(dir, 'a.json'), '"a2"');
    await writeFileAtomic(path.join(dir, 'b.json'), '"b2"');
  });
  // As if the first start of 1.0.0 lost power after putting a.json back and before its record.
  await mkdir(path.join(dir, 'versions', '2.0.0'), { recursive: true });
  await rename(path.join(dir, 'a.json'), path.join(dir, 'versions', '2.0.0', 'a.json'));
  await rename(path.join(dir, 'versions', '1.0.0', 'a.json'), path.join(dir, 'a.json'));
  await runAs(dir, '1.0.0');
  assert.equal(await readFile(path.join(dir, 'a.json'), 'utf8'), '"a1"');
  assert.equal(await readFile(path.join(dir, 'b.json'), 'utf8'), '"b1"');
  assert.equal(await readFile(path.join(dir, 'versions', '2.0.0', 'a.json'), 'utf8'), '"a2"');
});

test("a third version keeps the second one's files and drops the copies of the first", async (t) => {
  const dir = await tempDir(t);
  await runAs(dir, '1.0.0', () => writeFileAtomic(path.join(dir, 'a.json'), '"a1"'));
  await runAs(dir, '2.0.0', () => writeFileAtomic(path.join(dir, 'a.json'), '"a2"'));
  await runAs(dir, '3.0.0', () => writeFileAtomic(path.join(dir, 'a.json'), '"a3"'));
  assert.equal(await exists(path.join(dir, 'versions', '1.0.0')), false);
  assert.equal(await readFile(path.join(dir, 'versions', '2.0.0', 'a.json'), 'utf8'), '"a2"');
  await runAs(dir, '2.0.0');
  assert.equal(await readFile(path.join(dir, 'a.json'), 'utf8'), '"a2"');
});

test('files outside an open data directory are written without keeping anything', async (t) => {
  const dir = await tempDir(t);
  const other = await tempDir(t);
  await runAs(dir, '1.0.0');
  await runAs(dir, '2.0.0', async () => {
    await writeFile(path.join(other, 'x.json'), '1');
    await writeFileAtomic(path.join(other, 'x.json'), '2');
  });
  assert.equal(await exists(path.join(other, 'versions')), false);
  assert.equal(await readFile(path.join(other, 'x.json'), 'utf8'), '2');
});

test('an unreadable record is replaced by a new one instead of stopping the service', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, STATE_VERSION_FILE), '{not json');
  const versions = await runAs(dir, '1.0.0');
  assert.deepEqual(versions.state, { version: '1.0.0', from: null, kept: 0 });
});
