import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultConfig, type PrintConfig } from '../../../appliance/slicer/profiles/schema.js';
import { loadScript } from '../../fixtures/load-script.js';

type Settings = Record<string, string | number | boolean>;
interface PeerGcode { start: string; end: string; beforeLayer: string; layer: string; filamentStart: string; filamentEnd: string }
interface PeerConfigModule {
  prusaSettings(config: PrintConfig, gcode: PeerGcode): { settings: Settings; caveats: string[] };
  formatPrusaIni(settings: Settings): string;
  curaSettings(config: PrintConfig, gcode: PeerGcode): { settings: Settings; caveats: string[] };
  curaCommandArgs(args: { definition: string; settings: Settings; model: string; output: string }): string[];
  peerConfigs(config: PrintConfig, gcode: PeerGcode): { prusaIni: string; prusaSettings: Settings; curaSettings: Settings; caveats: string[] };
}

const peer = await loadScript<PeerConfigModule>('scripts/bench/peer-config.mjs');
const GCODE: PeerGcode = { start: 'M190 S55\nM109 S220\nG28\n', end: 'M104 S0\nM84\n', beforeLayer: '', layer: '', filamentStart: '', filamentEnd: '' };
const prusa = (patch: Partial<PrintConfig> = {}, gcode: Partial<PeerGcode> = {}): Settings => peer.prusaSettings(config(patch), { ...GCODE, ...gcode }).settings;
const cura = (patch: Partial<PrintConfig> = {}): Settings => peer.curaSettings(config(patch), GCODE).settings;
const DEFINITIONS = join(process.cwd(), '.cache', 'peers', 'cura-4.13', 'definitions');
const BOX = '/work/shared/corpus/box.stl';
const CHECKER = '/work/shared/tools/gcode_check.py';

function config(patch: Partial<PrintConfig> = {}): PrintConfig {
  return { ...defaultConfig(), ...patch };
}

describe('PrusaSlicer settings', () => {
  it('passes line widths in mm: our percentages are of the nozzle, PrusaSlicer\'s of the layer height', () => {
    const settings = prusa({ line_width: '110%', outer_wall_line_width: 0.42, initial_layer_line_width: '125%' });
    assert.equal(settings.extrusion_width, 0.44);
    assert.equal(settings.external_perimeter_extrusion_width, 0.42);
    assert.equal(settings.first_layer_extrusion_width, 0.5);
  });

  it('takes the bed temperature of the selected plate and the filament retraction override', () => {
    const settings = prusa({
      curr_bed_type: 'Cool Plate', cool_plate_temp: [40], cool_plate_temp_initial_layer: [45],
      retraction_length: [0.8], filament_retraction_length: [1.5],
    });
    assert.equal(settings.bed_temperature, 40);
    assert.equal(settings.first_layer_bed_temperature, 45);
    assert.equal(settings.retract_length, 1.5);
  });

  it('maps patterns, seam and wall order onto PrusaSlicer names', () => {
    const settings = prusa({
      sparse_infill_pattern: 'zig-zag', top_surface_pattern: 'monotonicline', seam_position: 'back', wall_sequence: 'outer wall/inner wall',
    });
    assert.equal(settings.fill_pattern, 'rectilinear');
    assert.equal(settings.top_fill_pattern, 'monotonic');
    assert.equal(settings.seam_position, 'rear');
    assert.equal(settings.external_perimeters_first, 1);
    assert.equal(settings.perimeter_generator, 'classic');
  });

  it('adds the extruder reset PrusaSlicer demands for relative E, once', () => {
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: '' }).layer_gcode, 'G92 E0');
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: ';L [layer_num]' }).layer_gcode, ';L [layer_num]\nG92 E0');
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: ';L [layer_num]\nG92 E0' }).layer_gcode, ';L [layer_num]\nG92 E0');
    assert.equal(prusa({ use_relative_e_distances: false }, { layer: '' }).layer_gcode, '');
  });

  it('refuses a value it has no translation for instead of writing "undefined"', () => {
    const odd = { ...config(), sparse_infill_pattern: 'honeycomb' } as unknown as PrintConfig;
    assert.throws(() => peer.prusaSettings(odd, GCODE), /sparse_infill_pattern "honeycomb" has no PrusaSlicer 2\.5 equivalent/);
    assert.throws(() => peer.curaSettings(odd, GCODE), /sparse_infill_pattern "honeycomb" has no CuraEngine 4\.13 equivalent/);
  });

  it('writes multi-line G-code escaped and per-filament strings quoted', () => {
    const ini = peer.formatPrusaIni({ start_gcode: 'G28\nG1 Z5', start_filament_gcode: '; "PLA"\n', layer_height: 0.2 });
    assert.match(ini, /^start_gcode = G28\\nG1 Z5$/m);
    assert.match(ini, /^start_filament_gcode = "; \\"PLA\\"\\n"$/m);
    assert.match(ini, /^layer_height = 0.2$/m);
  });
});

describe('custom G-code for the peers', () => {
  it('hands both peers the rendered G-code of the job', () => {
    const gcode = { ...GCODE, start: 'G28\nG1 X3 Y20\n', end: 'G1 Z35\n' };
    const peers = peer.peerConfigs(config(), gcode);
    assert.equal(peers.prusaSettings.start_gcode, 'G28\nG1 X3 Y20\n');
    assert.equal(peers.curaSettings.machine_start_gcode, 'G28\nG1 X3 Y20\n');
    assert.equal(peers.curaSettings.machine_end_gcode, 'G1 Z35\n');
    assert.match(peers.prusaIni, /^end_gcode = G1 Z35\\n$/m);
    // CuraEngine must not add its own heating in front of ours.
    assert.equal(peers.curaSettings.material_print_temp_prepend, false);
    assert.equal(peers.curaSettings.material_bed_temp_prepend, false);
  });
});

describe('CuraEngine settings', () => {
  it('computes infill_line_distance, which CuraEngine needs besides the density', () => {
    const grid = cura({ sparse_infill_pattern: 'grid', sparse_infill_density: 15, sparse_infill_line_width: 0.45 });
    assert.equal(grid.infill_line_distance, 6);
    const gyroid = cura({ sparse_infill_pattern: 'gyroid', sparse_infill_density: 20, sparse_infill_line_width: 0.45 });
    assert.equal(gyroid.infill_line_distance, 2.25);
    assert.equal(gyroid.infill_pattern, 'gyroid');
    const triangles = cura({ sparse_infill_pattern: 'triangles', sparse_infill_density: 15, sparse_infill_line_width: 0.45 });
    assert.equal(triangles.infill_line_distance, 9);
  });

  it('derives shell layer counts from the minimum thickness, bottom layers of the part included', () => {
    const settings = cura({ top_shell_layers: 2, top_shell_thickness: 1, bottom_shell_layers: 3, bottom_shell_thickness: 0, layer_height: 0.2 });
    assert.equal(settings.top_layers, 5);
    assert.equal(settings.bottom_layers, 3);
    assert.equal(settings.initial_bottom_layers, 3);
    assert.equal(settings.roofing_layer_count, 1);
  });

  it('passes per-feature widths, speeds and flows that Cura would otherwise take from its defaults', () => {
    const settings = cura({ outer_wall_speed: 60, inner_wall_speed: 80, filament_flow_ratio: [0.98], initial_layer_print_height: 0.25 });
    assert.equal(settings.speed_wall_0, 60);
    assert.equal(settings.speed_wall_x, 80);
    assert.equal(settings.wall_0_material_flow, 98);
    assert.equal(settings.material_flow_layer_0, 98);
    assert.equal(settings.layer_height_0, 0.25);
    assert.equal(settings.infill_sparse_thickness, 0.2);
    assert.equal(settings.material_diameter, 1.75);
  });

  it('sends every setting to the global stack and again to extruder 0', () => {
    const args = peer.curaCommandArgs({ definition: 'fdmprinter.def.json', settings: { material_diameter: 1.75 }, model: 'm.stl', output: 'o.gcode' });
    assert.deepEqual(args, ['slice', '-v', '-j', 'fdmprinter.def.json', '-s', 'material_diameter=1.75', '-e0', '-s', 'material_diameter=1.75', '-l', 'm.stl', '-o', 'o.gcode']);
  });

  it('names the settings it cannot match for this config', () => {
    const { caveats } = peer.peerConfigs(config({ brim_type: 'auto_brim', initial_layer_infill_speed: 60, initial_layer_speed: 30 }), GCODE);
    assert.ok(caveats.some((c) => c.startsWith('CuraEngine: brim_type auto_brim')));
    assert.ok(caveats.some((c) => c.startsWith('PrusaSlicer: initial_layer_infill_speed 60')));
    assert.deepEqual(peer.peerConfigs(config({ brim_type: 'no_brim', initial_layer_infill_speed: 30, initial_layer_speed: 30 }), GCODE).caveats, []);
  });

  it('uses only keys and enum values that fdmprinter.def.json 4.13 declares', { skip: !existsSync(join(DEFINITIONS, 'fdmprinter.def.json')) && 'Cura definitions not fetched yet (npm run bench:slice fetches them)' }, () => {
    const declared = new Map<string, { options?: Record<string, string> }>();
    const walk = (node: Record<string, { type?: string; options?: Record<string, string>; children?: Record<string, unknown> }>): void => {
      for (const [key, def] of Object.entries(node)) {
        if (def.type && def.type !== 'category') declared.set(key, def);
        if (def.children) walk(def.children as typeof node);
      }
    };
    for (const file of ['fdmprinter.def.json', 'fdmextruder.def.json']) walk(JSON.parse(readFileSync(join(DEFINITIONS, file), 'utf8')).settings);
    const settings = cura();
    for (const [key, value] of Object.entries(settings)) {
      const def = declared.get(key);
      assert.ok(def, `CuraEngine 4.13 has no setting ${key}`);
      if (def.options) assert.ok(String(value) in def.options, `${key}=${value} is not one of ${Object.keys(def.options).join(', ')}`);
    }
  });
});

const peersPresent = existsSync('/usr/bin/prusa-slicer') && existsSync('/usr/bin/CuraEngine') && existsSync(join(DEFINITIONS, 'fdmprinter.def.json')) && existsSync(CHECKER);

describe('the peers on the mapped settings', { skip: !peersPresent && 'needs prusa-slicer, CuraEngine, the fetched Cura definitions and gcode_check.py' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-peer-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const peers = peer.peerConfigs(config(), GCODE);

  const check = (gcode: string): { pass: boolean; summary: { layers: number; volume_ratio: number } } => {
    const r = spawnSync('/usr/bin/python3', [CHECKER, BOX, gcode, '--bed=0,0,220,220'], { encoding: 'utf8' });
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
    const args = peer.curaCommandArgs({ definition: join(DEFINITIONS, 'fdmprinter.def.json'), settings: peers.curaSettings, model: BOX, output: out });
    const r = spawnSync('/usr/bin/CuraEngine', args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    for (const [key, value] of Object.entries(peers.curaSettings)) {
      assert.ok(r.stderr.includes(`-s ${key}="${String(value)}"`), `CuraEngine did not echo ${key}=${value}`);
    }
    const report = check(out);
    assert.equal(report.pass, true, JSON.stringify(report));
    assert.equal(report.summary.layers, 125);
    const prusa = check(join(dir, 'box.prusa.gcode'));
    assert.ok(Math.abs(report.summary.volume_ratio / prusa.summary.volume_ratio - 1) < 0.05,
      `extruded volume ratio Cura ${report.summary.volume_ratio} vs PrusaSlicer ${prusa.summary.volume_ratio}`);
  });
});
