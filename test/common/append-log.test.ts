import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AppendLog, type AppendLogOptions } from '../../appliance/common/append-log.js';
import { JsonStores } from '../../appliance/common/json-store.js';
import { createLogger } from '../../appliance/common/logger.js';
import { withFileSizeLimit } from '../fixtures/file-size-limit.js';
import { SLOTS, slotLogOptions, slotRecord, type SlotRecord, type SlotState } from '../fixtures/slot-log.js';
import { runWriterUntilKilled } from '../fixtures/killed-writer.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const WRITER = fileURLToPath(new URL('../fixtures/append-log-writer.js', import.meta.url));

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'printyard-append-log-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A list of strings: records add or remove one. */
type ListRecord = { add: string } | { remove: string };

function listOptions(file: string, extra: Partial<AppendLogOptions<string[], ListRecord>> = {}): AppendLogOptions<string[], ListRecord> {
  return {
    file,
    empty: () => [],
    apply(state, record) {
      if ('add' in record) state.push(record.add);
      else if (state.includes(record.remove)) state.splice(state.indexOf(record.remove), 1);
    },
    snapshot: (state) => state.map((add) => ({ add })),
    check: (record) => {
      const r = record as Record<string, unknown> | null;
      return typeof r === 'object' && r !== null && (typeof r.add === 'string' || typeof r.remove === 'string') ? null : 'neither add nor remove';
    },
    log: quiet,
    ...extra,
  };
}

const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');

test('appends are one JSON line each, applied once durable, and replayed at open', async (t) => {
  const file = path.join(await tempDir(t), 'list.log');
  const log = await AppendLog.open(listOptions(file));
  assert.deepEqual(log.state, []);
  const pending = log.append({ add: 'a' }, { add: 'b' });
  assert.deepEqual(log.state, [], 'the state waits for the disk');
  await pending;
  await log.append({ remove: 'a' });
  await log.append({ add: 'c' });
  assert.deepEqual(log.state, ['b', 'c']);
  assert.deepEqual(await lines(file), ['{"add":"a"}', '{"add":"b"}', '{"remove":"a"}', '{"add":"c"}']);
  await log.close();
  await assert.rejects(log.append({ add: 'late' }), { code: 'ERR_UNAVAILABLE' });

  const again = await AppendLog.open(listOptions(file));
  assert.deepEqual(again.state, ['b', 'c']);
  assert.deepEqual(again.problems(), []);
  await again.close();
});

test('concurrent appends share writes and fsyncs, and keep their order', async (t) => {
  const file = path.join(await tempDir(t), 'list.log');
  const log = await AppendLog.open(listOptions(file));
  const names = Array.from({ length: 200 }, (_, i) => `n${i}`);
  await Promise.all(names.map((add) => log.append({ add })));
  assert.deepEqual(log.state, names);
  const { syncs, records_appended } = log.stats();
  assert.equal(records_appended, 200);
  assert.ok(syncs < 20, `${syncs} fsyncs for 200 concurrent appends`);
  await log.close();
  const again = await AppendLog.open(listOptions(file));
  assert.deepEqual(again.state, names);
  await again.close();
});

test('a record that cannot be written changes nothing, and the next one is written', async (t) => {
  const file = path.join(await tempDir(t), 'list.log');
  const log = await AppendLog.open(listOptions(file));
  await log.append({ add: 'a' });
  await assert.rejects(log.append({ add: 'b' }, { add: 'c', size: 1n } as never), /BigInt/);
  await assert.rejects(log.append({ other: 1 } as never), { code: 'ERR_INTERNAL', message: /neither add nor remove/ });
  assert.deepEqual(log.state, ['a']);
  await log.append({ add: 'c' });
  assert.deepEqual(await lines(file), ['{"add":"a"}', '{"add":"c"}']);
  await log.close();
});

test('a write the disk refuses leaves the state and the file as they were; later appends work', async (t) => {
  const file = path.join(await tempDir(t), 'list.log');
  const log = await AppendLog.open(listOptions(file));
  await log.append({ add: 'kept' });
  const before = await readFile(file);
  const big = 'x'.repeat(4000);
  await withFileSizeLimit(before.length + 1000, async () => {
    // The write comes up short at the limit, then fails: the partial line must not stay.
    await assert.rejects(log.append({ add: big }), { code: 'EFBIG' });
    assert.deepEqual(log.state, ['kept']);
    assert.deepEqual(await readFile(file), before);
    await log.append({ add: 'small' });
  });
  await log.append({ add: 'after' });
  assert.deepEqual(log.state, ['kept', 'small', 'after']);
  await log.close();
  const again = await AppendLog.open(listOptions(file));
  assert.deepEqual(again.state, ['kept', 'small', 'after']);
  assert.deepEqual(again.problems(), []);
  await again.close();
});

test('a torn last line (power loss mid-write) is dropped and reported; the rest is kept', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'list.log');
  await writeFile(file, '{"add":"a"}\n{"add":"b"}\n{"add":"c');
  const lines_: string[] = [];
  const log = await AppendLog.open(listOptions(file, { log: createLogger({ name: 'test', level: 'error', write: (l) => lines_.push(l) }) }));
  assert.deepEqual(log.state, ['a', 'b']);
  const [problem] = log.problems();
  assert.equal(problem?.file, 'list.log');
  assert.match(problem!.reason, /^line 3: incomplete/);
  assert.equal(await readFile(path.join(dir, problem!.moved_to), 'utf8'), '{"add":"c\n');
  assert.match(lines_.join(''), /list\.log had unreadable lines/);
  await log.append({ add: 'd' });
  await log.close();
  const again = await AppendLog.open(listOptions(file));
  assert.deepEqual(again.state, ['a', 'b', 'd']);
  assert.deepEqual(again.problems(), []);
  await again.close();
});

test('corrupt lines in the middle are skipped and reported without losing the others', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'list.log');
  await writeFile(
    file,
    ['{"add":"a"}', '{"add":"b"', '\u0000\u0000\u0000', '{"add":"c"}', '{"what":1}', '{"remove":"a"}', '{"add":"d"}', ''].join('\n'),
  );
  const log = await AppendLog.open(listOptions(file));
  assert.deepEqual(log.state, ['c', 'd']);
  const [problem] = log.problems();
  assert.match(problem!.reason, /line 2: not valid JSON .*; line 3: not valid JSON .*; line 5: neither add nor remove; skipped/);
  assert.equal(await readFile(path.join(dir, problem!.moved_to), 'utf8'), '{"add":"b"\n\u0000\u0000\u0000\n{"what":1}\n');
  assert.deepEqual(await lines(file), ['{"add":"c"}', '{"add":"d"}'], 'the log was compacted without them');
  await log.close();
});

test('compaction keeps the live state exactly and bounds the file', async (t) => {
  const file = path.join(await tempDir(t), 'slots.log');
  const open = () => AppendLog.open<SlotState, SlotRecord>({ ...slotLogOptions, file, log: quiet, compactMinBytes: 8 * 1024 });
  const log = await open();
  for (let value = 1; value <= 2000; value += 10) {
    await Promise.all(Array.from({ length: 10 }, (_, k) => log.append(slotRecord(value + k))));
  }
  const stats = log.stats();
  assert.ok(stats.compactions >= 5, `${stats.compactions} compactions`);
  // 50 live records of ~330 bytes: the file never holds much more than twice that.
  assert.ok(stats.file_bytes <= 2 * stats.live_bytes + 11 * 330, `${stats.file_bytes} bytes on disk for ${stats.live_bytes} live`);
  await log.compact();
  assert.equal((await stat(file)).size, log.stats().live_bytes);
  const expected = structuredClone(log.state);
  await log.close();
  const again = await open();
  assert.deepEqual(again.state, expected);
  assert.equal(again.state.highest, 2000);
  assert.equal(again.state.slots[1999 % SLOTS]!.value, 1999);
  await again.close();
});

test('a crash between the steps of a compaction leaves a readable log', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'list.log');
  const written = async (names: string[]) => {
    const log = await AppendLog.open(listOptions(file));
    for (const add of names) await log.append({ add });
    await log.close();
  };
  await written(['a', 'b']);
  // Killed while writing the temp file, and killed after its fsync but before the rename.
  for (const leftover of ['{"add":"a"}\n{"ad', '{"add":"a"}\n{"add":"b"}\n']) {
    await writeFile(`${file}.tmp`, leftover);
    const log = await AppendLog.open(listOptions(file));
    assert.deepEqual(log.state, ['a', 'b']);
    assert.deepEqual(log.problems(), []);
    await log.close();
    assert.deepEqual(await readdir(dir), ['list.log'], 'the temp file is removed');
  }
});

test('killing the writer at any moment, compactions included, loses nothing acknowledged', async (t) => {
  const file = path.join(await tempDir(t), 'slots.log');
  let lastAcked = 0;
  for (let round = 0; round < 25; round++) {
    const acked = await runWriterUntilKilled(WRITER, file, 5 + ((round * 37) % 90));
    assert.ok(acked >= lastAcked, `round ${round}: acknowledged ${acked} after ${lastAcked}`);
    const log = await AppendLog.open<SlotState, SlotRecord>({ ...slotLogOptions, file, log: quiet });
    for (const problem of log.problems()) assert.match(problem.reason, /^line \d+: incomplete/, `round ${round}: only a torn last line may be found`);
    const { highest, slots } = log.state;
    assert.ok(highest >= acked, `round ${round}: acknowledged ${acked} but the log holds up to ${highest}`);
    for (let value = Math.max(1, highest - SLOTS + 1); value <= highest; value++) {
      assert.equal(slots[value % SLOTS]?.value, value, `round ${round}: slot of ${value}`);
    }
    await log.close();
    lastAcked = highest;
  }
  assert.ok(lastAcked > 200, `the writer made too little progress (${lastAcked}) for the test to mean anything`);
});

test('an append costs the same bytes whatever the size of the store', async (t) => {
  const dir = await tempDir(t);
  const perAppend = async (liveRecords: number): Promise<number> => {
    const file = path.join(dir, `list-${liveRecords}.log`);
    await writeFile(file, Array.from({ length: liveRecords }, (_, i) => `{"add":"${`old ${i}`.padEnd(200, '.')}"}\n`).join(''));
    const log = await AppendLog.open(listOptions(file));
    const before = log.stats().bytes_written;
    const appends = 3000;
    // Each append adds one item and removes the oldest: the live state keeps its size.
    for (let i = 0; i < appends; i++) {
      const oldest = log.state[0];
      await log.append({ add: `new ${i}`.padEnd(200, '.') }, ...(oldest === undefined ? [] : [{ remove: oldest }]));
    }
    await log.close();
    return (log.stats().bytes_written - before) / appends;
  };
  const lineBytes = `{"add":"${''.padEnd(200, '.')}"}\n`.length + `{"remove":"${''.padEnd(200, '.')}"}\n`.length;
  const small = await perAppend(10);
  const large = await perAppend(5000);
  t.diagnostic(`bytes written per append of ${lineBytes}: ${small.toFixed(0)} with 10 live records, ${large.toFixed(0)} with 5000`);
  for (const [size, cost] of [
    ['small', small],
    ['large', large],
  ] as const) {
    assert.ok(cost <= 3 * lineBytes, `${size} store: ${cost.toFixed(0)} bytes per append of ${lineBytes}`);
  }
  assert.ok(large <= 1.5 * small + lineBytes, `per append: ${small.toFixed(0)} bytes with 10 records, ${large.toFixed(0)} with 5000`);
});

test('a new log starts from the initial records, written whole; an existing one never asks for them', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'list.log');
  let asked = 0;
  const initial = async () => {
    asked++;
    return [{ add: 'migrated 1' }, { add: 'migrated 2' }];
  };
  const log = await AppendLog.open(listOptions(file, { initial }));
  assert.deepEqual(log.state, ['migrated 1', 'migrated 2']);
  assert.deepEqual(await lines(file), ['{"add":"migrated 1"}', '{"add":"migrated 2"}']);
  await log.close();
  await appendFile(file, '{"add":"later"}\n');
  const again = await AppendLog.open(listOptions(file, { initial }));
  assert.deepEqual(again.state, ['migrated 1', 'migrated 2', 'later']);
  assert.equal(asked, 1);
  await again.close();
});

test("a log tracked by the data directory's stores is on disk once they have settled, appends nobody awaited included", async (t) => {
  const dir = await tempDir(t);
  const stores = new JsonStores(dir, quiet);
  const file = path.join(dir, 'list.log');
  const log = await AppendLog.open(listOptions(file));
  stores.track(log);
  void log.append({ add: 'a' });
  void log.append({ add: 'b' });
  await stores.settled();
  assert.deepEqual(await lines(file), ['{"add":"a"}', '{"add":"b"}']);
  assert.deepEqual((await readdir(dir)).sort(), ['list.log']);
});
