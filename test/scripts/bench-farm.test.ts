import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

/** The build this test belongs to (dist/ or another --outDir): the bench runs the same one. */
const BUILD = fileURLToPath(new URL('../../', import.meta.url));

interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

test('the farm bench runs a tiny farm: plates to prints, dispatch rounds, history, CPU and memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-farm-test-'));
  try {
    const json = join(dir, 'report.json');
    const args = ['--dist', BUILD, '--bambu', '2', '--marlin', '1', '--jobs', '6', '--records', '300', '--seconds', '8'];
    const r = spawnSync(
      process.execPath,
      ['scripts/bench-farm.mjs', ...args, '--rounds', '3', '--requests', '5', '--print-seconds', '1', '--operator-delay', '100', '--json', json],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^Farm bench: one dashboard, 2 Bambu \+ 1 Marlin printers, 6 jobs, 300 history records/m);
    assert.match(r.stdout, /^ {2}round, no plate clear \(3 rounds\) +p50 [\d.]+ ms, p99 [\d.]+ ms/m);
    assert.match(r.stdout, /^ {4}→ the printer starts \(simulator\) +p50 [\d.]+ ms/m);
    assert.match(r.stdout, /^ {2}export 300 rows +[\d.]+ s/m);
    assert.match(r.stdout, /^ {2}whole run +[\d.]+ s {2}CPU +[\d.]+ % {2}peak RSS \(VmHWM\) [\d.]+ MB$/m);

    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.printers, { 'bambu-lan': { configured: 2, online: 2 }, 'marlin-serial': { configured: 1, online: 1 } });
    const ordered = (s: Summary) => s.count > 0 && s.p50 > 0 && s.p99 >= s.p50 && s.max >= s.p99;
    assert.ok(ordered(report.queue.add) && report.queue.add.count === 6, JSON.stringify(report.queue.add));
    assert.ok(ordered(report.rounds.noPlateClear) && report.rounds.noPlateClear.count === 3);
    assert.equal(typeof report.rounds.afterAllCleared.ms, 'number');
    // Every plate confirmed at once starts a print: each printer has jobs it fits (both kinds).
    assert.equal(report.plates.burst.plates, 3);
    assert.equal(report.plates.burst.started, 3, JSON.stringify(report.plates.burst));
    for (const group of [report.plates.burst, report.plates.single]) {
      if (group.started === 0) continue;
      assert.ok(ordered(group.toStart), JSON.stringify(group));
      assert.ok(group.toDispatched.p50 <= group.toStart.p50 && group.toStart.max < 30_000, JSON.stringify(group));
    }
    assert.ok(report.queue.end.copiesDone >= 3, JSON.stringify(report.queue.end));
    assert.equal(report.history.records, 300);
    assert.ok(ordered(report.history.list.default));
    assert.equal(report.history.export.lines, 301);
    const phases = report.dashboard.phases.map((p: { name: string }) => p.name);
    assert.deepEqual(phases, [
      'printers added, online',
      '6 jobs queued',
      'rounds, no plate clear',
      'history, 300 records',
      'plates: all at once, then as prints end',
      'prints under way end',
    ]);
    assert.ok(report.dashboard.total.cpuPercent > 0 && report.dashboard.peakMb >= report.dashboard.total.rssMaxMb - 1);
    assert.ok(report.ws['plates: all at once, then as prints end']['print.dispatched'] >= 3, JSON.stringify(report.ws));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the farm bench refuses options it cannot run with', () => {
  const none = spawnSync(process.execPath, ['scripts/bench-farm.mjs', '--dist', BUILD, '--bambu', '0', '--marlin', '0'], { encoding: 'utf8' });
  assert.equal(none.status, 1);
  assert.match(none.stderr, /nothing to simulate/);
  const jobs = spawnSync(process.execPath, ['scripts/bench-farm.mjs', '--dist', BUILD, '--jobs', '0'], { encoding: 'utf8' });
  assert.equal(jobs.status, 1);
  assert.match(jobs.stderr, /--jobs must be a whole number of at least 1/);
  const missing = spawnSync(process.execPath, ['scripts/bench-farm.mjs', '--dist', join(BUILD, 'no-such-build')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /main\.js is missing: build first/);
});
