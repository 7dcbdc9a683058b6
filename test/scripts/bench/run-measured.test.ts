import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';

interface Run {
  wallS: number;
  cpuS: number;
  peakRssMb: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}
interface RunModule {
  GNU_TIME: string;
  parseTimeReport(text: string): { wallS: number; peakRssMb: number; cpuS: number };
  runMeasured(command: string, args: string[], options: { workDir: string }): Run;
}

const runner = await loadScript<RunModule>('scripts/bench/run-measured.mjs');

describe('parseTimeReport', () => {
  it('reads elapsed seconds, peak RSS (KiB → MB) and CPU seconds, also after a non-zero exit notice', () => {
    assert.deepEqual(runner.parseTimeReport('0.22 81920 0.25 0.5\n'), { wallS: 0.22, peakRssMb: 80, cpuS: 0.75 });
    assert.deepEqual(runner.parseTimeReport('Command exited with non-zero status 1\n1.50 1024 1.00 0.00\n'), { wallS: 1.5, peakRssMb: 1, cpuS: 1 });
    assert.throws(() => runner.parseTimeReport('Command terminated by signal 9\n'), /unreadable/);
  });
});

describe('runMeasured', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-run-measured-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the wall time of the process, and CPU time apart from it', () => {
    const run = runner.runMeasured('/bin/sleep', ['0.3'], { workDir: dir });
    assert.equal(run.exitCode, 0);
    assert.ok(run.wallS >= 0.29 && run.wallS < 2, `wall ${run.wallS}`);
    assert.ok(run.cpuS < 0.1, `a sleeping process used ${run.cpuS} s of CPU`);
    // Spins until it has used 0.4 s of CPU, however long a loaded machine takes to give it that.
    const spin = 'const start = process.cpuUsage(); while (process.cpuUsage(start).user < 400_000);';
    const busy = runner.runMeasured(process.execPath, ['-e', spin], { workDir: dir });
    assert.ok(busy.cpuS >= 0.3, `a spinning process used ${busy.cpuS} s of CPU`);
  });

  it('measures the peak RSS including memory touched by worker threads', () => {
    const script = [
      "const { Worker } = require('node:worker_threads');",
      'const w = new Worker("const b = Buffer.alloc(160 * 1024 * 1024, 1); ' +
        "require('node:worker_threads').parentPort.postMessage(b[5]);\", { eval: true });",
      'w.on("message", () => w.terminate());',
    ].join('\n');
    const run = runner.runMeasured(process.execPath, ['-e', script], { workDir: dir });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(run.peakRssMb > 160, `peak RSS ${run.peakRssMb} MB`);
  });

  it("returns a failed run with its exit code and keeps the command's own stderr", () => {
    const run = runner.runMeasured('/bin/sh', ['-c', 'echo oops >&2; exit 3'], { workDir: dir });
    assert.equal(run.exitCode, 3);
    assert.equal(run.stderr, 'oops\n');
    assert.ok(Number.isFinite(run.wallS));
  });
});
