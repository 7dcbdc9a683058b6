import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { PrintConfig } from '../../../appliance/slicer/profiles/schema.js';
import { curaCommandArgs, curaSettings } from '../../../appliance/slicer/peers/curaengine.js';
import { PEER_GCODE, benchConfig, type PeerSettings } from '../../fixtures/bench-config.js';

const DEFINITIONS = join(process.cwd(), '.cache', 'peers', 'cura-4.13', 'definitions');

const cura = (patch: Partial<PrintConfig> = {}): PeerSettings => curaSettings(benchConfig(patch), PEER_GCODE).settings;

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
    const args = curaCommandArgs({ definition: 'fdmprinter.def.json', settings: { material_diameter: 1.75 }, model: 'm.stl', output: 'o.gcode' });
    assert.deepEqual(args, [
      'slice',
      '-v',
      '-j',
      'fdmprinter.def.json',
      '-s',
      'material_diameter=1.75',
      '-e0',
      '-s',
      'material_diameter=1.75',
      '-l',
      'm.stl',
      '-o',
      'o.gcode',
    ]);
  });

  it('uses only keys and enum values that fdmprinter.def.json 4.13 declares', {
    skip: !existsSync(join(DEFINITIONS, 'fdmprinter.def.json')) && 'Cura definitions not fetched yet (npm run bench:slice fetches them)',
  }, () => {
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
