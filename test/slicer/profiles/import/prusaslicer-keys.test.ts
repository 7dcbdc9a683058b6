import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PRUSASLICER_RULES, iniValueFor, type MapContext } from '../../../../appliance/slicer/profiles/import/prusaslicer-keys.js';
import { SETTINGS, type SettingKey } from '../../../../appliance/slicer/profiles/schema.js';

const KIND = { printer: 'printer', filament: 'filament', print: 'process' } as const;

function context(raw: Record<string, string>): MapContext & { warnings: string[] } {
  const warnings: string[] = [];
  return { raw: new Map(Object.entries(raw)), warn: (m) => warnings.push(m), warnings };
}

test('every rule targets a setting of its own section kind', () => {
  for (const [section, rules] of Object.entries(PRUSASLICER_RULES)) {
    const kind = KIND[section as keyof typeof KIND];
    for (const [key, rule] of Object.entries(rules)) {
      const targets: SettingKey[] =
        typeof rule === 'string'
          ? [rule]
          : rule('1', context({ [key]: '1', layer_height: '0.2', external_perimeter_extrusion_width: '0.45' })).map(([k]) => k);
      for (const target of targets) assert.equal(SETTINGS[target].kind, kind, `${section}.${key} → ${target}`);
    }
  }
});

test("the brief's key pairs are mapped", () => {
  const expect: Array<[keyof typeof PRUSASLICER_RULES, string, SettingKey]> = [
    ['print', 'perimeters', 'wall_loops'],
    ['print', 'top_solid_layers', 'top_shell_layers'],
    ['print', 'fill_density', 'sparse_infill_density'],
    ['print', 'fill_pattern', 'sparse_infill_pattern'],
    ['printer', 'max_print_height', 'printable_height'],
    ['printer', 'bed_shape', 'printable_area'],
    ['filament', 'temperature', 'nozzle_temperature'],
    ['filament', 'first_layer_temperature', 'nozzle_temperature_initial_layer'],
    ['printer', 'start_gcode', 'machine_start_gcode'],
    ['printer', 'retract_length', 'retraction_length'],
    ['filament', 'extrusion_multiplier', 'filament_flow_ratio'],
    ['print', 'perimeter_generator', 'wall_generator'],
  ];
  for (const [section, from, to] of expect) assert.equal(PRUSASLICER_RULES[section][from], to, from);
});

test('bed temperature feeds all four plates', () => {
  const rule = PRUSASLICER_RULES.filament.first_layer_bed_temperature;
  assert.ok(typeof rule === 'function');
  assert.deepEqual(
    rule('65', context({})).map(([k]) => k),
    ['cool_plate_temp_initial_layer', 'eng_plate_temp_initial_layer', 'hot_plate_temp_initial_layer', 'textured_plate_temp_initial_layer'],
  );
});

test('machine_limits_usage decides whether limits are emitted', () => {
  const rule = PRUSASLICER_RULES.printer.machine_limits_usage;
  assert.ok(typeof rule === 'function');
  assert.deepEqual(rule('emit_to_gcode', context({})), [['emit_machine_limits_to_gcode', true]]);
  assert.deepEqual(rule('time_estimate_only', context({})), [['emit_machine_limits_to_gcode', false]]);
});

test('an absolute infill overlap cannot be honoured and is dropped with a warning', () => {
  const rule = PRUSASLICER_RULES.print.infill_overlap;
  assert.ok(typeof rule === 'function');
  const ctx = context({});
  assert.deepEqual(rule('0.1', ctx), []);
  assert.match(ctx.warnings[0]!, /only a percentage/);
  assert.deepEqual(rule('25%', context({})), [['infill_wall_overlap', '25%']]);
});

test('INI text is unquoted for strings and passed through for numbers', () => {
  assert.equal(iniValueFor('machine_start_gcode', 'G28 ; home\\nG29'), 'G28 ; home\nG29');
  assert.equal(iniValueFor('printer_notes', '"a \\"quoted\\" note"'), 'a "quoted" note');
  assert.equal(iniValueFor('retraction_length', '0.8,1 # per extruder'), '0.8,1');
  assert.deepEqual(iniValueFor('filament_start_gcode', '"; one";"; two"'), ['; one', '; two']);
});
