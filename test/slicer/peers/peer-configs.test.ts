import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { curaCommandArgs } from '../../../appliance/slicer/peers/curaengine.js';
import { peerConfigs } from '../../../appliance/slicer/peers/peer-configs.js';
import { PEER_GCODE, benchConfig } from '../../fixtures/bench-config.js';
import { GCODE_CHECKER, corpusModel } from '../../fixtures/shared.js';

const DEFINITIONS = join(process.cwd(), '.cache', 'peers', 'cura-4.13', 'definitions');
const BOX = corpusModel('box.stl');

describe('peerConfigs', () => {
  it('hands both peers the rendered G-code of the job', () => {
    const gcode = { ...PEER_GCODE, start: 'G28\nG1 X3 Y20\n', end: 'G1 Z35\n' };
    const peers = peerConfigs(benchConfig(), gcode);
    assert.equal(peers.prusaSettings.start_gcode, 'G28\nG1 X3 Y20\n');
    assert.equal(peers.curaSettings.machine_start_gcode, 'G28\nG1 X3 Y20\n');
    assert.equal(peers.curaSettings.machine_end_gcode, 'G1 Z35\n');
    assert.match(peers.prusaIni, /^end_gcode = G1 Z35\\n$/m);
    // CuraEngine must not add its own heating in front of ours.
    assert.equal(peers.curaSettings.material_print_temp_prepend, false);
    assert.equal(peers.curaSettings.material_bed_temp_prepend, false);
  });

  it('names the settings it cannot match for this config', () => {
    const { caveats } = peerConfigs(benchConfig({ brim_type: 'auto_brim', initial_layer_infill_speed: 60, initial_layer_speed: 30 }), PEER_GCODE);
    assert.ok(caveats.some((c) => c.startsWith('CuraEngine: brim_type auto_brim')));
    assert.ok(caveats.some((c) => c.startsWith('PrusaSlicer: initial_layer_infill_speed 60')));
    assert.ok(caveats.some((c) => c.startsWith('PrusaSlicer: ensure_vertical_shell_thickness ensure_moderate')));
    const expressible = benchConfig({
      brim_type: 'no_brim',
      initial_layer_infill_speed: 30,
      initial_layer_speed: 30,
      ensure_vertical_shell_thickness: 'ensure_all',
    });
    assert.deepEqual(peerConfigs(expressible, PEER_GCODE).caveats, []);
  });
});

const peersPresent =
  existsSync('/usr/bin/prusa-slicer') &&
  existsSync('/usr/bin/CuraEngine') &&
  existsSync(join(DEFINITIONS, 'fdmprinter.def.json')) &&
  existsSync(GCODE_CHECKER) &&
  existsSync(BOX);

describe('the peers on the mapped settings', {
  skip: !peersPresent && 'needs prusa-slicer, CuraEngine, the fetched Cura definitions, and gcode_check.py and box.stl of the shared folder',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-peer-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const peers = peerConfigs(benchConfig(), PEER_GCODE);

  const check = (gcode: string): { pass: boolean; summary: { layers: number; volume_ratio: number } } => {
    const r = spawnSync('/usr/bin/python3', [GCODE_CHECKER, BOX, gcode, '--bed=0,0,220,220'], { encoding: 'utf8' });
    return JSON.parse(r.stdout);
  };

  it('PrusaSlicer reads back every setting of the INI unchanged and prints a correct part', () => {
    const ini = join(dir, 'prusa.ini');
    const out = join(dir, 'box.prusa.gcode');
    writeFileSync(ini, peers.prusaIni);
    const r = spawnSync('/usr/bin/prusa-slicer', ['--export-gcode', '--load', ini, '--output', out, BOX], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const gcode = readFileSync(out, 'utf8');
    const echoed = new Map([...gcode.matchAll(/^; (\w+) = (.*)$/gm)].map((m) => [m[1], m[2]]));
    for (const line of peers.prusaIni.split('\n').filter((l) => l.includes(' = '))) {
      const [key, value] = [line.slice(0, line.indexOf(' = ')), line.slice(line.indexOf(' = ') + 3)];
      assert.equal(echoed.get(key), value, `PrusaSlicer's ${key}`);
    }
    const report = check(out);
    assert.equal(report.pass, true, JSON.stringify(report));
    assert.equal(report.summary.layers, 125);
  });

  it('CuraEngine receives every setting and prints a correct part with the same material as PrusaSlicer', () => {
    const out = join(dir, 'box.cura.gcode');
    const args = curaCommandArgs({ definition: join(DEFINITIONS, 'fdmprinter.def.json'), settings: peers.curaSettings, model: BOX, output: out });
    const r = spawnSync('/usr/bin/CuraEngine', args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    for (const [key, value] of Object.entries(peers.curaSettings)) {
      assert.ok(r.stderr.includes(`-s ${key}="${String(value)}"`), `CuraEngine did not echo ${key}=${value}`);
    }
    const report = check(out);
    assert.equal(report.pass, true, JSON.stringify(report));
    assert.equal(report.summary.layers, 125);
    const prusa = check(join(dir, 'box.prusa.gcode'));
    assert.ok(
      Math.abs(report.summary.volume_ratio / prusa.summary.volume_ratio - 1) < 0.05,
      `extruded volume ratio Cura ${report.summary.volume_ratio} vs PrusaSlicer ${prusa.summary.volume_ratio}`,
    );
  });
});
