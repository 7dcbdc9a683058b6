import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadScript } from '../fixtures/load-script.js';

/** The build this test belongs to (dist/ or another --outDir): the bench runs the same one. */
const BUILD = fileURLToPath(new URL('../../', import.meta.url));

interface ProcStats {
  processTree(pid: number): number[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('the fleet bench measures a small fleet: CPU, memory, latency and message counts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-fleet-test-'));
  try {
    const json = join(dir, 'report.json');
    // A 200 ms report interval gives the dashboard enough work in 4 s for /proc's 10 ms CPU ticks.
    const r = spawnSync(
      process.execPath,
      [
        'scripts/bench-fleet.mjs',
        '--dist',
        BUILD,
        '--bambu',
        '2',
        '--marlin',
        '1',
        '--warmup',
        '1',
        '--seconds',
        '4',
        '--push-interval',
        '200',
        '--online-timeout',
        '15',
        '--json',
        json,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^Fleet bench: one dashboard, 2 Bambu \(1 P1S deltas, 1 X1C full\)/m);
    assert.match(r.stdout, /^command: node scripts\/bench-fleet\.mjs --dist /m);
    assert.match(r.stdout, /^ {2}bambu-lan +2 +2 +2$/m);
    assert.match(r.stdout, /^ {2}bambu printer\.status +\d+ +\d+ +\d+ +\d+ +\d+ +[\d.]+ +[\d.]+ +[\d.]+$/m);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.deepEqual(report.problems, []);
    assert.equal(report.printers['bambu-lan'].onlineEnd, 2);
    assert.ok(report.dashboard.cpuPercent > 0, `CPU ${report.dashboard.cpuPercent}`);
    assert.ok(report.dashboard.rssEndMb > 10 && report.dashboard.peakMb >= report.dashboard.rssEndMb);
    assert.ok(report.reports.bambu > 0 && report.reports.bambuDeltas > 0 && report.reports.bambuFull > 0);
    const status = report.latency.groups['bambu printer.status'];
    assert.ok(status.received > 0 && status.matched > 0, JSON.stringify(status));
    assert.ok(status.latency.p50 > 0 && status.latency.p99 >= status.latency.p50 && status.latency.max < 5000, JSON.stringify(status.latency));
    assert.ok(report.ws.messages > 0 && report.ws.perSecond > 0);
    // Marlin is online once the build registers a marlin-serial driver; until then offline, saying why.
    const marlin = report.printers['marlin-serial'];
    assert.equal(marlin.configured, 1);
    if (marlin.onlineEnd === 1) {
      assert.ok(report.latency.groups['marlin printer.status']?.matched > 0, JSON.stringify(report.latency.groups));
    } else {
      assert.deepEqual(marlin.offlineReasons, { 'no driver for type marlin-serial': 1 });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Ctrl-C stops every process the bench started and removes its temp folders', async () => {
  const { processTree } = await loadScript<ProcStats>('scripts/bench/fleet/proc-stats.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-fleet-int-'));
  try {
    const bench = spawn(
      process.execPath,
      ['scripts/bench-fleet.mjs', '--dist', BUILD, '--bambu', '1', '--marlin', '1', '--warmup', '0', '--seconds', '60', '--online-timeout', '15'],
      { env: { ...process.env, TMPDIR: dir }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    bench.stderr.setEncoding('utf8');
    const measuring = new Promise<void>((resolve, reject) => {
      bench.stderr.on('data', (text: string) => {
        stderr += text;
        if (stderr.includes('measuring')) resolve();
      });
      bench.once('exit', (code) => reject(new Error(`the bench exited (${code}) before measuring:\n${stderr}`)));
    });
    await measuring;
    const started = processTree(bench.pid as number).slice(1);
    assert.ok(started.length >= 4, `dashboard, simulators, mosquitto and socat expected, got ${started.length}`);
    const exit = once(bench, 'exit');
    bench.kill('SIGINT');
    const [code] = await exit;
    assert.equal(code, 130, stderr);
    assert.deepEqual(started.filter(alive), []);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bench refuses options it cannot run with', () => {
  const r = spawnSync(process.execPath, ['scripts/bench-fleet.mjs', '--dist', BUILD, '--bambu', '0', '--marlin', '0'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /nothing to simulate/);
  const missing = spawnSync(process.execPath, ['scripts/bench-fleet.mjs', '--dist', join(BUILD, 'no-such-build')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /main\.js is missing: build first/);
});
