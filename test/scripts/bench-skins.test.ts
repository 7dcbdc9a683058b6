import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GCODE_CHECKER } from '../fixtures/shared.js';

// The bench runs the build in dist/: our command line, the parts and the top cover measure of test/fixtures.
const ready = [
  '/usr/bin/prusa-slicer',
  '/usr/bin/CuraEngine',
  '/usr/bin/time',
  'dist/appliance/slicer/cli/printyard-slice.js',
  'dist/test/fixtures/skin-parts.js',
  '.cache/peers/cura-4.13/definitions/fdmprinter.def.json',
].every((p) => existsSync(p));

function bench(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['scripts/bench-skins.mjs', ...args], { encoding: 'utf8' });
}

describe('bench-skins.mjs', { skip: !ready && 'needs both peers, GNU time, the build in dist/ and the fetched Cura definitions' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-skins-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('slices a part with the three slicers and prints the top cover of each as a Markdown row', () => {
    const json = join(dir, 'out.json');
    const r = bench('--parts', 'cone', '--json', json);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\| part \| slicer \| wall s \| top_cover \| lowest top share \| open top mm² \| widest open mm \|$/m);
    const verdict = existsSync(GCODE_CHECKER) ? 'pass' : 'no checker';
    for (const name of ['ours', 'PrusaSlicer 2\\.5', 'CuraEngine 4\\.13']) {
      assert.match(r.stdout, new RegExp(`^\\| cone \\| ${name} \\| [\\d.]+ \\| ${verdict} \\| [\\d.–]+ \\| [\\d.]+ of \\d+ \\| [\\d.]+ \\|$`, 'm'));
    }
    const [cone] = JSON.parse(readFileSync(json, 'utf8')).results;
    for (const id of ['ours', 'prusa', 'cura']) {
      const s = cone.slicers[id];
      assert.equal(s.ok, true, JSON.stringify(s));
      assert.ok(s.coreMm2 > 50, `${id}: the cone's slope leaves ${s.coreMm2} mm² of top exposed`);
      assert.ok(s.uncoveredMm2 < 0.02 * s.coreMm2, `${id}: ${s.uncoveredMm2} mm² open`);
    }
  });

  it('refuses unknown parts and a bad run count', () => {
    const unknown = bench('--parts', 'no-such-part');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /unknown parts: no-such-part/);
    const runs = bench('--runs', '0');
    assert.equal(runs.status, 1);
    assert.match(runs.stderr, /--runs must be a positive integer/);
  });
});
