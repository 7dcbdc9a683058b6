import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig, type PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';
import { configLines, prusaFooter, statisticsBlock, type PrintStatistics } from '../../../../appliance/slicer/engine/gcode/footer.js';
import { identificationLines } from '../../../../appliance/slicer/engine/gcode/identity.js';
import { identifySlicer, prusaFooterMetadata } from '../../../fixtures/moonraker-metadata.js';

const config: PrintConfig = {
  ...defaultConfig(),
  printer_model: 'MK4',
  layer_height: 0.15,
  initial_layer_print_height: 0.2,
  nozzle_diameter: [0.4, 0.4],
  filament_type: ['PLA', 'PETG'],
  filament_colour: ['#FF8000', '#00AAFF'],
  nozzle_temperature: [215, 240],
  nozzle_temperature_initial_layer: [220, 245],
  curr_bed_type: 'High Temp Plate',
  hot_plate_temp: [60, 80],
  hot_plate_temp_initial_layer: [65, 85],
  chamber_temperatures: [0, 0],
  single_extruder_multi_material: true,
  machine_start_gcode: 'G28\nM104 S[first_layer_temperature]\n',
};

const stats: PrintStatistics = {
  filament: { mm: [2604.634, 120.5], cm3: [6.265, 0.29], g: [7.77, 0.367], cost: [0.19, 0.011] },
  layers: 167,
  estimatedTimeS: 5025.4,
  firstLayerTimeS: 95,
  totalToolchanges: 4,
};

const ids = { print: '0.15mm SPEED @MK4', printer: 'Original Prusa MK4', filament: ['Prusament PLA', 'Prusament PETG'] };

test("the statistics lines have PrusaSlicer's wording and two decimals", () => {
  assert.equal(
    statisticsBlock(stats),
    [
      '; filament used [mm] = 2604.63, 120.50',
      '; filament used [cm3] = 6.26, 0.29',
      '; filament used [g] = 7.77, 0.37',
      '; filament cost = 0.19, 0.01',
      '; total filament used [g] = 8.14',
      '; total filament cost = 0.20',
      '; total toolchanges = 4',
      '; total layers count = 167',
      '; estimated printing time (normal mode) = 1h 23m 45s',
      '; estimated first layer printing time (normal mode) = 1m 35s',
      '',
    ].join('\n'),
  );
});

test('the config block holds every setting and the PrusaSlicer names, sorted', () => {
  const lines = configLines(config, ids);
  const keys = lines.map((l) => /^; (\S+) = /.exec(l)![1]);
  assert.deepEqual(keys, [...keys].sort());
  assert.equal(new Set(keys).size, keys.length);
  for (const key of Object.keys(defaultConfig())) assert.ok(keys.includes(key), `missing ${key}`);
  assert.ok(lines.includes('; machine_start_gcode = G28\\nM104 S[first_layer_temperature]\\n'));
  assert.ok(lines.includes('; first_layer_bed_temperature = 65,85'));
  assert.ok(lines.includes('; bed_temperature = 60,80'));
  assert.ok(lines.includes('; filament_settings_id = "Prusament PLA";"Prusament PETG"'));
  assert.ok(lines.includes('; printer_model = MK4'));
});

test('Moonraker reads our header and footer with its PrusaSlicer parser', () => {
  const gcode =
    identificationLines('0.1.0', new Date(Date.UTC(2025, 0, 2, 3, 4, 5))) +
    'G28\n'.repeat(10) +
    'G1 Z0.2 F720\n;LAYER_CHANGE\n' +
    prusaFooter(config, stats, ids);
  assert.equal(identifySlicer(gcode)?.prusaParser, true);
  const meta = prusaFooterMetadata(gcode);
  assert.equal(meta.layer_height, 0.15);
  assert.equal(meta.first_layer_height, 0.2);
  assert.ok(Math.abs((meta.filament_total as number) - 2725.13) < 1e-9);
  assert.equal(meta.filament_weight_total, 8.14);
  assert.deepEqual(meta.filament_weights, [7.77, 0.37]);
  assert.equal(meta.filament_type, '["PLA", "PETG"]');
  assert.equal(meta.filament_name, '["Prusament PLA", "Prusament PETG"]');
  assert.deepEqual(meta.filament_colors, ['#FF8000', '#00AAFF']);
  assert.deepEqual(meta.filament_temps, [215, 240]);
  assert.equal(meta.estimated_time, 5025);
  assert.equal(meta.first_layer_extr_temp, 220);
  assert.equal(meta.first_layer_bed_temp, 65);
  assert.equal(meta.chamber_temp, 0);
  assert.equal(meta.nozzle_diameter, 0.4);
  assert.equal(meta.layer_count, 167);
  assert.equal(meta.filament_change_count, 4);
  assert.equal(meta.mmu_print, 1);
});

test('the footer starts with the statistics and ends with the config block', () => {
  const footer = prusaFooter(config, stats, ids);
  assert.ok(footer.startsWith('; filament used [mm] = '));
  assert.match(footer, /\n\n; prusaslicer_config = begin\n/);
  assert.ok(footer.endsWith('; prusaslicer_config = end\n'));
});
