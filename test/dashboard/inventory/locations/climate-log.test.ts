import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createLogger } from '../../../../appliance/common/logger.js';
import { ClimateLog, MAX_READINGS_PER_LOCATION, RETENTION_MS } from '../../../../appliance/dashboard/inventory/locations/climate-log.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-climate-log-test-'));
  dirs.push(dir);
  return dir;
};
const at = (ms: number) => new Date(ms).toISOString();
const T0 = Date.parse('2026-06-01T00:00:00Z');

test('a location keeps the readings of the 7 days before its newest one, sorted, across a reopen', async () => {
  const dir = tempDir();
  const log = await ClimateLog.open(dir, quiet);
  await log.add(1, { at: at(T0), temperature_c: 20, humidity_pct: 30 });
  await log.add(1, { at: at(T0 + 3600_000), temperature_c: 20, humidity_pct: 31 });
  await log.add(1, { at: at(T0 + 1800_000), temperature_c: 20, humidity_pct: 32 });
  await log.add(2, { at: at(T0), temperature_c: 20, humidity_pct: 50 });
  assert.deepEqual(
    log.readings(1, 0, Number.MAX_SAFE_INTEGER).map((r) => r.humidity_pct),
    [30, 32, 31],
  );
  await log.add(1, { at: at(T0 + RETENTION_MS + 1800_000), temperature_c: 20, humidity_pct: 33 });
  assert.deepEqual(
    log.readings(1, 0, Number.MAX_SAFE_INTEGER).map((r) => r.humidity_pct),
    [32, 31, 33],
    'the one older than 7 days before the newest is gone; the one exactly 7 days older stays',
  );
  await log.setExcursion(2, { since: at(T0), limit_pct: 40 });
  await log.close();
  const reopened = await ClimateLog.open(dir, quiet);
  assert.deepEqual(
    reopened.readings(1, 0, Number.MAX_SAFE_INTEGER).map((r) => r.humidity_pct),
    [32, 31, 33],
  );
  assert.deepEqual(reopened.excursion(2), { since: at(T0), limit_pct: 40 });
  assert.equal(reopened.latest(2)?.humidity_pct, 50);
  await reopened.forget(2);
  assert.equal(reopened.count(2), 0);
  assert.equal(reopened.excursion(2), null);
  await reopened.close();
});

test(`a location keeps at most ${MAX_READINGS_PER_LOCATION} readings, and the log stays compact`, async () => {
  const dir = tempDir();
  const log = await ClimateLog.open(dir, quiet);
  const batch = 240;
  const extra = 2 * batch;
  for (let i = 0; i < MAX_READINGS_PER_LOCATION + extra; i += batch) {
    await Promise.all(
      Array.from({ length: batch }, (_, k) => log.add(7, { at: at(T0 + (i + k) * 10_000), temperature_c: 21, humidity_pct: (i + k) % 100 })),
    );
  }
  assert.equal(log.count(7), MAX_READINGS_PER_LOCATION);
  assert.equal(log.readings(7, 0, Number.MAX_SAFE_INTEGER)[0].at, at(T0 + extra * 10_000), 'the oldest went first');
  const stats = log.stats();
  assert.ok(stats.compactions > 0 && stats.file_bytes < 3 * stats.live_bytes, JSON.stringify(stats));
  await log.close();
});
