import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadScript } from '../fixtures/load-script.js';
import { writeModel } from '../fixtures/model-files.js';
import { SLICER_MAIN } from '../fixtures/slicer-service.js';

interface BenchModule {
  quantile(sorted: number[], q: number): number;
  latencySummary(samples: number[]): { count: number; p50: number; p95: number; p99: number; max: number; over5ms: number };
}

test('percentiles are nearest-rank over the sorted samples', async () => {
  const bench = await loadScript<BenchModule>('scripts/bench-slicer-service.mjs');
  const samples = Array.from({ length: 100 }, (_, k) => 100 - k);
  assert.equal(bench.quantile([1, 2, 3, 4], 0.5), 2);
  assert.ok(Number.isNaN(bench.quantile([], 0.5)));
  assert.deepEqual(bench.latencySummary(samples), { count: 100, p50: 50, p95: 95, p99: 99, max: 100, over5ms: 96 });
});

test('the bench runs the built service and reports health latency and profile throughput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-service-test-'));
  try {
    const json = join(dir, 'report.json');
    const r = spawnSync(
      process.execPath,
      [
        'scripts/bench-slicer-service.mjs',
        '--entry',
        SLICER_MAIN,
        '--model',
        writeModel(dir, 'box.stl'),
        '--seconds',
        '0.3',
        '--connections',
        '2',
        '--json',
        json,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^slice of box\.stl: [\d.]+ s, 125 layers$/m);
    assert.match(r.stdout, /^ {2}while slicing +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +\d+ +(PASS|FAIL) \(p99 < 5 ms\)$/m);
    assert.match(r.stdout, /^ {2}kind=all +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+$/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { health: { idle: { count: number } }; profiles: { all: { requestsPerS: number } } };
    assert.equal(report.health.idle.count, 500);
    assert.ok(report.profiles.all.requestsPerS > 10);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
