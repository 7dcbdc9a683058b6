import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GCODE_CHECKER, corpusModel } from '../fixtures/shared.js';

// The bench runs the build in dist/ (npm test builds it): our schema and G-code template engine.
const ready = [
  '/usr/bin/prusa-slicer',
  '/usr/bin/CuraEngine',
  '/usr/bin/time',
  'dist/appliance/slicer/profiles/schema.js',
  'dist/appliance/slicer/engine/gcode/template-vars.js',
  'dist/appliance/slicer/engine/gcode/template/index.js',
  '.cache/peers/cura-4.13/definitions/fdmprinter.def.json',
  corpusModel('box.stl'),
  GCODE_CHECKER,
].every((p) => existsSync(p));

function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['scripts/bench-slice.mjs', ...args], { encoding: 'utf8' });
}

describe('bench-slice.mjs', {
  skip:
    !ready && 'needs both peers, GNU time, the build in dist/, the fetched Cura definitions, and the corpus and G-code checker of the shared folder',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-slice-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('slices a model with every slicer it has and reports each side by side', () => {
    const json = join(dir, 'out.json');
    const r = bench('--models', 'box', '--runs', '1', '--json', json);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^== box\.stl ==$/m);
    assert.match(r.stdout, /^PrusaSlicer +[\d.]+ +[\d.]+ +\d+ +125 +\d+m \d\ds +[\d.]+ +[\d.]+ +PASS$/m);
    assert.match(r.stdout, /^CuraEngine +[\d.]+ +[\d.]+ +\d+ +125 +\d+m \d\ds +[\d.]+ +[\d.]+ +PASS$/m);
    assert.match(r.stdout, /^== summary ==$/m);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const [box] = report.results;
    assert.equal(box.model, 'box.stl');
    for (const peer of ['prusa', 'cura']) {
      assert.equal(box.slicers[peer].status, 'ok');
      assert.equal(box.slicers[peer].runs.length, 1);
      assert.ok(box.slicers[peer].summary.peakRssMb > 1);
      assert.ok(Math.abs(box.slicers[peer].summary.filamentMm - 1980) < 60, `${peer} filament ${box.slicers[peer].summary.filamentMm} mm`);
    }
    const ours = box.slicers.ours.status;
    assert.ok(ours === 'ok' || ours === 'not built' || ours === 'failed');
    if (ours === 'not built') assert.match(r.stdout, /^ours: not built/m);
  });

  it('refuses unknown models and a bad run count', () => {
    const unknown = bench('--models', 'no-such-model', '--runs', '1');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /not in .*: no-such-model/);
    const runs = bench('--runs', '0');
    assert.equal(runs.status, 1);
    assert.match(runs.stderr, /--runs must be a positive integer/);
  });
});
