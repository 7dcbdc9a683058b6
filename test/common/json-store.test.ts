import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { JsonStores } from '../../appliance/common/json-store.js';
import { createLogger } from '../../appliance/common/logger.js';
import { runWriterUntilKilled } from '../fixtures/killed-writer.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const WRITER = fileURLToPath(new URL('../fixtures/json-store-writer.js', import.meta.url));

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'printyard-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a missing file starts from a copy of the defaults and writes create it', async (t) => {
  const dir = await tempDir(t);
  const defaults = { users: [] as string[] };
  const store = await new JsonStores(dir, quiet).open('users', defaults);
  store.data.users.push('ada');
  await store.write();
  assert.deepEqual(defaults.users, []);
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'users.json'), 'utf8')), { users: ['ada'] });
  const again = await new JsonStores(dir, quiet).open('users', { users: [] as string[] });
  assert.deepEqual(again.data.users, ['ada']);
});

test('concurrent writes are serialised and the newest data wins', async (t) => {
  const dir = await tempDir(t);
  const store = await new JsonStores(dir, quiet).open('n', { n: 0 });
  const writes: Promise<void>[] = [];
  for (let i = 1; i <= 50; i++) {
    store.data.n = i;
    writes.push(store.write());
  }
  await Promise.all(writes);
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'n.json'), 'utf8')), { n: 50 });
  assert.deepEqual((await readdir(dir)).sort(), ['n.json']);
});

test('settled waits for writes nobody awaited, on every store, and for failed ones too', async (t) => {
  const dir = await tempDir(t);
  const stores = new JsonStores(dir, quiet);
  const a = await stores.open('a', { n: 0 });
  const b = await stores.open('b', { n: 0 });
  for (let i = 1; i <= 20; i++) {
    a.data.n = i;
    void a.write();
    b.data.n = -i;
    void b.write();
  }
  await stores.settled();
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'a.json'), 'utf8')), { n: 20 });
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'b.json'), 'utf8')), { n: -20 });
  assert.deepEqual((await readdir(dir)).sort(), ['a.json', 'b.json'], 'no temp file is left');

  await rm(dir, { recursive: true });
  const failed = a.write();
  await stores.settled();
  await assert.rejects(failed, { code: 'ENOENT' });
});

test('a corrupt file is moved aside, reported, and the store starts from defaults', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'spools.json'), '{"spools": [1, 2');
  const lines: string[] = [];
  const stores = new JsonStores(dir, createLogger({ name: 'test', level: 'error', write: (l) => lines.push(l) }));
  const store = await stores.open('spools', { spools: [] as number[] });
  assert.deepEqual(store.data, { spools: [] });
  const [problem] = stores.problems();
  assert.equal(problem?.file, 'spools.json');
  assert.match(problem!.reason, /not valid JSON/);
  assert.equal(await readFile(path.join(dir, problem!.moved_to), 'utf8'), '{"spools": [1, 2');
  assert.match(lines.join(''), /spools\.json is unreadable/);
});

test('a file of the wrong shape counts as corrupt when the store checks its shape', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'queue.json'), '[1,2,3]');
  const stores = new JsonStores(dir, quiet);
  const store = await stores.open('queue', { jobs: [] }, (d) =>
    typeof d === 'object' && d !== null && Array.isArray((d as { jobs?: unknown }).jobs) ? null : 'no jobs list',
  );
  assert.deepEqual(store.data, { jobs: [] });
  assert.equal(stores.problems()[0]?.reason, 'no jobs list');
});

test('a salvaged part of a file that fails its check is kept and written back; the original is moved aside', async (t) => {
  const dir = await tempDir(t);
  const original = '{"n": [1, "two", 3]}';
  await writeFile(path.join(dir, 'nums.json'), original);
  const lines: string[] = [];
  const stores = new JsonStores(dir, createLogger({ name: 'test', level: 'error', write: (l) => lines.push(l) }));
  const numbers = (d: unknown) => (d as { n?: unknown[] }).n ?? [];
  const check = (d: unknown) => (numbers(d).every((x) => typeof x === 'number') ? null : 'a value is not a number');
  const salvage = (d: unknown) => {
    const n = numbers(d).filter((x): x is number => typeof x === 'number');
    return { data: { n }, kept: `${n.length} of ${numbers(d).length} values` };
  };
  const store = await stores.open('nums', { n: [] as number[] }, check, salvage);
  assert.deepEqual(store.data, { n: [1, 3] });
  const [problem] = stores.problems();
  assert.equal(problem.reason, 'a value is not a number; kept the valid part (2 of 3 values)');
  assert.equal(await readFile(path.join(dir, problem.moved_to), 'utf8'), original);
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'nums.json'), 'utf8')), { n: [1, 3] });
  assert.match(lines.join(''), /starting from the valid part \(2 of 3 values\)/);

  await writeFile(path.join(dir, 'nums.json'), '{"n": [1, 2');
  const torn = await new JsonStores(dir, quiet).open('nums', { n: [] as number[] }, check, salvage);
  assert.deepEqual(torn.data, { n: [] }, 'a file that does not parse has nothing to salvage');
});

test('killing the writer at any moment loses nothing that was acknowledged and never tears the file', async (t) => {
  const dir = await tempDir(t);
  let lastAcked = 0;
  for (let round = 0; round < 25; round++) {
    const acked = await runWriterUntilKilled(WRITER, dir, 5 + ((round * 37) % 90));
    assert.ok(acked >= lastAcked, `round ${round}: the counter went back from ${lastAcked} to ${acked}`);
    const stores = new JsonStores(dir, quiet);
    const store = await stores.open('state', { counter: 0, items: [] as { id: number; name: string }[] });
    assert.deepEqual(stores.problems(), [], `round ${round}: the file was torn`);
    assert.ok(store.data.counter >= acked, `round ${round}: acknowledged ${acked} but the file holds ${store.data.counter}`);
    assert.ok(store.data.counter <= acked + 1, `round ${round}: the file is ahead of any write that was started`);
    if (store.data.counter > 0) {
      assert.equal(store.data.items.length, 2000);
      assert.equal(store.data.items[1999]!.name, `item 1999 of write ${store.data.counter}`);
    }
    lastAcked = store.data.counter;
  }
  assert.ok(lastAcked > 25, `the writer made too little progress (${lastAcked}) for the test to mean anything`);
});
