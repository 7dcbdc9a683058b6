import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';
import { GCODE_CHECKER, corpusModel } from '../../fixtures/shared.js';

interface CheckModule {
  withoutStartExtrusions(gcode: string): string;
  checkGcode(
    model: string,
    gcodePath: string,
    facts: { bed: { minX: number; minY: number; maxX: number; maxY: number }; filamentDiameter: number },
  ): { pass: boolean; failed: string[] };
}

const check = await loadScript<CheckModule>('scripts/bench/check-gcode.mjs');
const BOX = corpusModel('box.stl');
const FACTS = { bed: { minX: 0, minY: 0, maxX: 220, maxY: 220 }, filamentDiameter: 1.75 };

describe('withoutStartExtrusions', () => {
  it('drops the prime line of a relative-E start G-code and keeps heating, homing and retraction', () => {
    const gcode = 'M109 S215\nG28\nM83\nG1 Z0.3\nG1 Y120 E10 F1500\nG1 E-1\n;LAYER_CHANGE\nG1 X10 Y10 E0.5\n';
    const out = check.withoutStartExtrusions(gcode);
    assert.equal(
      out,
      'M109 S215\nG28\nM83\nG1 Z0.3\n; bench: start G-code extrusion dropped: G1 Y120 E10 F1500\nG1 E-1\n;LAYER_CHANGE\nG1 X10 Y10 E0.5\n',
    );
  });

  it('keeps the extruder position in absolute E mode, and never touches the layers', () => {
    const gcode = 'M82\nG92 E0\nG1 X5 Y20 E12.5\n;LAYER:0\nG1 X10 Y10 E13\nG1 X5 Y20 E14\n';
    assert.equal(
      check.withoutStartExtrusions(gcode),
      'M82\nG92 E0\nG92 E12.5 ; bench: start G-code extrusion dropped\n;LAYER:0\nG1 X10 Y10 E13\nG1 X5 Y20 E14\n',
    );
  });

  it('leaves a G-code without a first-layer marker as it is', () => {
    assert.equal(check.withoutStartExtrusions('G1 X1 Y1 E1\n'), 'G1 X1 Y1 E1\n');
  });
});

const ready = existsSync(GCODE_CHECKER) && existsSync('/usr/bin/prusa-slicer') && existsSync(BOX);

describe('checkGcode', { skip: !ready && 'needs gcode_check.py, prusa-slicer and the corpus' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-check-gcode-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // A start G-code with a prime line at the left edge of the bed, as real profiles have.
  const ini = join(dir, 'prime.ini');
  writeFileSync(
    ini,
    'bed_shape = 0x0,220x0,220x220,0x220\nuse_relative_e_distances = 1\nperimeter_generator = classic\n' +
      'layer_height = 0.2\nfirst_layer_height = 0.2\n' +
      'start_gcode = M190 S60\\nM109 S215\\nG28\\nM83\\nG1 X3 Y20 F6000\\nG1 Z0.3\\nG1 Y120 E10 F1500\\nG1 Z1\\n\nlayer_gcode = G92 E0\n',
  );
  const gcode = join(dir, 'box.gcode');
  const sliced = spawnSync('/usr/bin/prusa-slicer', ['--export-gcode', '--load', ini, '--output', gcode, BOX], { encoding: 'utf8' });

  it('passes a correct part whose start G-code primes beside it', () => {
    assert.equal(sliced.status, 0, sliced.stderr);
    const result = check.checkGcode(BOX, gcode, FACTS);
    assert.equal(result.pass, true, result.failed.join(','));
    assert.deepEqual(result.failed, []);
    const raw = JSON.parse(spawnSync('/usr/bin/python3', [GCODE_CHECKER, BOX, gcode, '--bed=0,0,220,220'], { encoding: 'utf8' }).stdout);
    assert.equal(raw.checks.overflow, false, 'the unfiltered file fails: the prime line counts as a layer outside the part');
  });

  it('fails three lines that are not the part, naming the failed checks', () => {
    const other = join(dir, 'other.gcode');
    writeFileSync(
      other,
      'G28\nM109 S215\nM83\n;LAYER_CHANGE\nG1 Z0.2\nG1 X10 Y10\nG1 X60 Y10 E3\n' +
        ';LAYER_CHANGE\nG1 Z0.4\nG1 X10 Y10 E3\n;LAYER_CHANGE\nG1 Z0.6\nG1 X60 Y10 E3\n',
    );
    const result = check.checkGcode(BOX, other, FACTS);
    assert.equal(result.pass, false);
    assert.deepEqual(result.failed, ['reaches_top', 'wall_cover', 'first_cover', 'overflow', 'top_cover']);
  });
});
