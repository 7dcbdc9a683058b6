import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeModel } from '../fixtures/model-files.js';
import { SLICER_MAIN } from '../fixtures/slicer-service.js';

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/bench-memory.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      stdout += t;
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => {
      stderr += t;
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test("the memory bench slices with the built service and reports its memory and its tasks' peak", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-memory-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['--entry', SLICER_MAIN, writeModel(dir, 'box.stl'), 'bomb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^idle +service RSS +\d+ MB$/m);
  assert.match(r.stdout, /^box\.stl +200 +[\d.]+ s +service RSS +\d+ MB, peak +\d+ MB; task peak \d+ MB$/m);
  assert.match(
    r.stdout,
    /^bomb\.3mf +413 +[\d.]+ s +service RSS +\d+ MB, peak +\d+ MB; task peak \d+ MB {2}the 1\.01 MB 3MF package inflates to 1024 MB/m,
  );
});
