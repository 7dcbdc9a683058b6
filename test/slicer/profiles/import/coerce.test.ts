import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coerceSetting } from '../../../../appliance/slicer/profiles/import/coerce.js';

function run(key: Parameters<typeof coerceSetting>[0], raw: unknown) {
  const warnings: string[] = [];
  const value = coerceSetting(key, raw, (m) => warnings.push(m));
  return { value, warnings };
}

test('valid values pass through without warnings', () => {
  assert.deepEqual(run('sparse_infill_density', '15%'), { value: 15, warnings: [] });
  assert.deepEqual(run('nozzle_diameter', ['0.4']), { value: [0.4], warnings: [] });
  assert.deepEqual(run('sparse_infill_pattern', 'rectilinear'), { value: 'zig-zag', warnings: [] });
});

test('machine limits given as (normal, silent) keep the normal value', () => {
  assert.deepEqual(run('machine_max_acceleration_x', '9000,1000'), { value: 9000, warnings: [] });
  assert.deepEqual(run('machine_max_speed_x', ['500', '200']), { value: 500, warnings: [] });
});

test('numbers outside our range are clamped, with a warning', () => {
  const { value, warnings } = run('resolution', '0');
  assert.equal(value, 0.0001);
  assert.match(warnings[0]!, /"resolution": 0 is outside 0.0001..1; using 0.0001/);
  assert.deepEqual(run('retraction_length', '0.8,25').value, [0.8, 20]);
  assert.equal(run('wall_loops', '200').value, 100);
});

test('enum values we lack map to the nearest we have, with a warning', () => {
  const infill = run('sparse_infill_pattern', 'cubic');
  assert.equal(infill.value, 'triangles');
  assert.match(infill.warnings[0]!, /cubic is not supported; using the nearest, triangles/);
  assert.equal(run('gcode_flavor', 'sailfish').value, 'marlin');
  assert.equal(run('curr_bed_type', 'Textured Cool Plate').value, 'Cool Plate');
  assert.equal(run('seam_position', 'Aligned').value, 'aligned');
});

test('filament types keep their base material, or become OTHER', () => {
  assert.deepEqual(run('filament_type', ['PLA-S']).value, ['PLA']);
  assert.deepEqual(run('filament_type', 'TPU95A').value, ['TPU']);
  assert.deepEqual(run('filament_type', ['PETG HF']).value, ['PETG']);
  assert.deepEqual(run('filament_type', 'Unobtainium').value, ['OTHER']);
});

test('values with no sensible reading are dropped with a warning; empty ones silently', () => {
  const dropped = run('layer_height', 'thin');
  assert.equal(dropped.value, undefined);
  assert.match(dropped.warnings[0]!, /"layer_height".*dropped/);
  assert.equal(run('brim_type', 'mouse_ears').value, undefined);
  assert.deepEqual(run('filament_cost', ''), { value: undefined, warnings: [] });
  assert.deepEqual(run('machine_start_gcode', ''), { value: '', warnings: [] });
});

test('a key we do not know is a programming error, not a value problem', () => {
  assert.throws(() => coerceSetting('no_such' as 'layer_height', 1, () => undefined), /unknown setting/);
});
