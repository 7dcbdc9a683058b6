import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadScript } from '../fixtures/load-script.js';

/** The executable of the same build as this test. */
const DASHBOARD_MAIN = fileURLToPath(new URL('../../appliance/dashboard/main.js', import.meta.url));

interface BenchModule {
  quantile(sorted: number[], q: number): number;
  latencySummary(samples: number[]): { count: number; p50: number; p99: number; max: number };
}

test('percentiles are nearest-rank over the sorted samples', async () => {
  const bench = await loadScript<BenchModule>('scripts/bench-dashboard.mjs');
  assert.equal(bench.quantile([1, 2, 3, 4], 0.5), 2);
  assert.ok(Number.isNaN(bench.quantile([], 0.5)));
  assert.deepEqual(bench.latencySummary(Array.from({ length: 100 }, (_, k) => 100 - k)), { count: 100, p50: 50, p99: 99, max: 100 });
});

test('the bench runs the built dashboard and reports every measurement', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-dashboard-test-'));
  try {
    const json = join(dir, 'report.json');
    const r = spawnSync(
      process.execPath,
      [
        'scripts/bench-dashboard.mjs',
        '--entry',
        DASHBOARD_MAIN,
        '--seconds',
        '0.3',
        '--connections',
        '4',
        '--ws-clients',
        '3',
        '--ws-events',
        '5',
        '--json',
        json,
      ],
      { encoding: 'utf8', timeout: 90_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^HTTP, 4 keep-alive clients, 0\.3 s each/m);
    assert.match(r.stdout, /^ {2}GET \/api\/health +\d+ +[\d.]+ +[\d.]+ +[\d.]+$/m);
    assert.match(r.stdout, /^ {2}GET \/api\/printers \(API key\) +\d+ +[\d.]+ +[\d.]+ +[\d.]+$/m);
    assert.match(r.stdout, /^WebSocket fan-out, 3 clients, 5 events/m);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.ok(report.health.requestsPerS > 10);
    assert.ok(report.printers.requestsPerS > 10);
    assert.equal(report.wsFanout.perDelivery.count, 15);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
