import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig, type PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';
import { buildTemplateVars, withLayer, type TemplateJobContext } from '../../../../appliance/slicer/engine/gcode/template-vars.js';
import { renderTemplate } from '../../../../appliance/slicer/engine/gcode/template/index.js';
import { PRUSA_PROFILES_DIR, readIni, resolveSection, unescapeIniValue } from '../../../fixtures/prusa-vendor-ini.js';

const prusa = readIni(`${PRUSA_PROFILES_DIR}/PrusaResearch.ini`);

function vendorGcode(printer: string, key: string): string {
  const value = resolveSection(prusa, `printer:${printer}`).get(key);
  assert.ok(value !== undefined, `${printer} has no ${key}`);
  return unescapeIniValue(value);
}

function config(patch: Partial<PrintConfig>): PrintConfig {
  return { ...defaultConfig(), ...patch };
}

function job(patch: Partial<TemplateJobContext> = {}): TemplateJobContext {
  return {
    initialExtruder: 0,
    usedExtruders: [0],
    totalLayerCount: 100,
    firstLayerPrintMin: [90.5, 80],
    firstLayerPrintMax: [130.25, 120],
    totalToolchanges: 0,
    inputFilenameBase: 'gearwheel',
    date: new Date(2025, 2, 7, 9, 5, 3),
    printSettingsId: '0.20mm QUALITY @MK3',
    printerSettingsId: 'Original Prusa i3 MK3S & MK3S+',
    filamentSettingsId: ['Prusament PLA'],
    ...patch,
  };
}

const mk3s = config({
  printer_model: 'MK3S',
  nozzle_diameter: [0.4],
  nozzle_temperature: [210],
  nozzle_temperature_initial_layer: [215],
  textured_plate_temp: [60],
  textured_plate_temp_initial_layer: [60],
  layer_height: 0.2,
  printable_height: 210,
  printable_area: [
    [0, 0],
    [250, 0],
    [250, 210],
    [0, 210],
  ],
});

test('the MK3S start G-code from PrusaResearch.ini renders completely', () => {
  const out = renderTemplate(vendorGcode('Original Prusa i3 MK3S & MK3S+', 'start_gcode'), buildTemplateVars(mk3s, job()), 'start_gcode');
  assert.equal(
    out,
    [
      'M862.3 P "MK3S" ; printer model check',
      'M862.1 P0.4 ; nozzle diameter check',
      'M115 U3.11.0 ; tell printer latest fw version',
      'G90 ; use absolute coordinates',
      'M83 ; extruder relative mode',
      'M104 S215 ; set extruder temp',
      'M140 S60 ; set bed temp',
      'M190 S60 ; wait for bed temp',
      'M109 S215 ; wait for extruder temp',
      'G28 W ; home all without mesh bed level',
      'G80 ; mesh bed leveling',
      'G1 Z0.2 F720',
      'G1 Y-3 F1000 ; go outside print area',
      'G92 E0',
      'G1 X60 E9 F1000 ; intro line',
      'G1 X100 E12.5 F1000 ; intro line',
      'G92 E0',
      'M221 S95',
      '',
      "; Don't change E values below. Excessive value can damage the printer.",
      'M907 E430 ; set extruder motor current',
      '',
    ].join('\n'),
  );
});

test('the MK3S start G-code follows the filament and print profile names', () => {
  const vars = buildTemplateVars(
    config({ ...mk3s, layer_height: 0.05 }),
    job({
      filamentSettingsId: ['Prusament PA11 Carbon Fiber'],
      printSettingsId: '0.20mm SPEED @MK3',
    }),
  );
  const out = renderTemplate(vendorGcode('Original Prusa i3 MK3S & MK3S+', 'start_gcode'), vars, 'start_gcode');
  assert.match(out, /G80 ; mesh bed leveling\nG1 Z0\.3 F720\n/);
  assert.match(out, /\nG1 X100 E9 F1000 ; intro line\n/);
  assert.match(out, /\nM221 S100\n/);
  assert.match(out, /\nM907 E538 ; set extruder motor current$/);
  assert.doesNotMatch(out, /E430/);
});

test('the MK3 end G-code uses max_layer_z from the layer overlay', () => {
  const vars = buildTemplateVars(mk3s, job());
  const end = vendorGcode('Original Prusa i3 MK3S & MK3S+', 'end_gcode');
  const low = renderTemplate(end, withLayer(vars, { layer_num: 99, layer_z: 20, max_layer_z: 20 }), 'end_gcode');
  assert.match(low, /^G1 Z21 F720 ; Move print head up\nG1 X0 Y200 F3600 ; park\nG1 Z69 F720 ; Move print head further up\n/);
  assert.match(low, /\nM907 E538 ; reset extruder motor current\n/);
  const high = renderTemplate(end, withLayer(vars, { layer_num: 1040, layer_z: 209.5, max_layer_z: 209.5 }), 'end_gcode');
  assert.match(high, /^G1 Z210 F720 ; Move print head up\n/);
});

test('the MINI start G-code renders with PrusaSlicer names mapped from our settings', () => {
  const mini = config({
    printer_model: 'MINI',
    nozzle_temperature_initial_layer: [230],
    curr_bed_type: 'High Temp Plate',
    hot_plate_temp_initial_layer: [85],
    machine_max_acceleration_travel: 2500,
  });
  const out = renderTemplate(vendorGcode('Original Prusa MINI & MINI+', 'start_gcode'), buildTemplateVars(mini, job()), 'start_gcode');
  const lines = out.split('\n');
  for (const expected of [
    'M862.3 P "MINI" ; printer model check',
    'M140 S85 ; set bed temp',
    'M190 S85 ; wait for bed temp',
    'M204 T2500 ; restore travel acceleration',
    'M104 S230 ; set extruder temp',
    'M109 S230 ; wait for extruder temp',
  ]) {
    assert.ok(lines.includes(expected), `missing "${expected}" in:\n${out}`);
  }
  assert.doesNotMatch(out, /[[\]{}]/);
});

test('bed temperatures follow curr_bed_type', () => {
  const base = config({
    nozzle_temperature: [200, 250],
    cool_plate_temp: [35, 40],
    cool_plate_temp_initial_layer: [36, 41],
    eng_plate_temp: [45, 80],
    eng_plate_temp_initial_layer: [46, 81],
    filament_type: ['PLA', 'PETG'],
  });
  const cool = buildTemplateVars({ ...base, curr_bed_type: 'Cool Plate' }, job({ initialExtruder: 1, usedExtruders: [0, 1] }));
  assert.deepEqual(cool.bed_temperature, [35, 40]);
  assert.deepEqual(cool.first_layer_bed_temperature, [36, 41]);
  assert.deepEqual(cool.bed_temperature_initial_layer, [36, 41]);
  assert.equal(cool.bed_temperature_initial_layer_single, 41);
  const eng = buildTemplateVars({ ...base, curr_bed_type: 'Engineering Plate' }, job());
  assert.deepEqual(eng.bed_temperature, [45, 80]);
  assert.equal(eng.bed_temperature_initial_layer_single, 46);
});

test('aliases, derived names and the job context', () => {
  const vars = buildTemplateVars(
    config({ wall_loops: 3, sparse_infill_density: 20, z_hop: [0.4], machine_max_speed_z: 12 }),
    job({ usedExtruders: [0], totalToolchanges: 0 }),
  );
  assert.equal(vars.perimeters, 3);
  assert.equal(vars.fill_density, 20);
  assert.deepEqual(vars.retract_lift, [0.4]);
  assert.deepEqual(vars.machine_max_feedrate_z, [12, 12]);
  assert.deepEqual(vars.bed_shape, ['0x0', '220x0', '220x220', '0x220']);
  assert.deepEqual(vars.printable_area, vars.bed_shape);
  assert.deepEqual(vars.print_bed_max, [220, 220]);
  assert.deepEqual(vars.print_bed_size, [220, 220]);
  assert.deepEqual(vars.first_layer_print_size, [39.75, 40]);
  assert.deepEqual(vars.is_extruder_used, [true]);
  assert.equal(vars.has_wipe_tower, false);
  assert.equal(vars.timestamp, '20250307090503');
  assert.deepEqual([vars.year, vars.month, vars.day, vars.hour, vars.minute, vars.second], [2025, 3, 7, 9, 5, 3]);
  assert.equal(vars.input_filename_base, 'gearwheel');
  const out = renderTemplate('{machine_max_feedrate_z[0]*60} [retract_lift] {filament_settings_id[initial_tool]} {print_settings_id}', vars, 'test');
  assert.equal(out, '720 0.4 Prusament PLA 0.20mm QUALITY @MK3');
});

test('an OrcaSlicer-style start G-code with nested conditions and derived names', () => {
  const bambu = config({
    printer_model: 'Bambu Lab P1S',
    filament_type: ['PETG', 'PLA'],
    nozzle_temperature_initial_layer: [240, 220],
    nozzle_temperature_range_high: [270, 240],
    hot_plate_temp: [70, 55],
    hot_plate_temp_initial_layer: [70, 55],
    textured_plate_temp: [70, 55],
    textured_plate_temp_initial_layer: [70, 55],
    filament_max_volumetric_speed: [12, 21],
    outer_wall_speed: 200,
    outer_wall_line_width: 0.42,
    layer_height: 0.2,
  });
  const vars = buildTemplateVars(bambu, job({ initialExtruder: 1, usedExtruders: [1] }));
  const expectedVolumetric = Math.min(200 * 0.2 * (0.42 - 0.2 * (1 - Math.PI / 4)), 21);
  assert.ok(Math.abs((vars.outer_wall_volumetric_speed as number) - expectedVolumetric) < 1e-9);
  const template = [
    'M140 S[bed_temperature_initial_layer_single] ;set bed temp',
    '{if filament_type[initial_extruder]=="PLA"}',
    '    {if (bed_temperature[initial_extruder] >45)||(bed_temperature_initial_layer[initial_extruder] >45)}',
    '    M106 P3 S180',
    '    {elsif (bed_temperature[initial_extruder] >50)}',
    '    M106 P3 S255',
    '    {endif};Prevent PLA from jamming',
    '{endif}',
    'M620 S[initial_extruder]A',
    'M104 S[nozzle_temperature_initial_layer]',
    'M620.1 E F{filament_max_volumetric_speed[initial_extruder]/2.4053*60} T{nozzle_temperature_range_high[initial_extruder]}',
    'G29 A X{first_layer_print_min[0]} Y{first_layer_print_min[1]} I{first_layer_print_size[0]} J{first_layer_print_size[1]}',
    'G0 X240 E15 F{outer_wall_volumetric_speed/(0.3*0.5)     * 60}',
    '{local purge = max(10, total_layer_count / 8)}',
    'G1 E{purge} ; purge',
    '{if curr_bed_type=="Textured PEI Plate"}',
    'G29.1 Z{-0.04} ; for Textured PEI Plate',
    '{else}',
    'G29.1 Z{+0.0}',
    '{endif}',
  ].join('\n');
  const out = renderTemplate(template, vars, 'machine_start_gcode');
  assert.equal(
    out,
    [
      'M140 S55 ;set bed temp',
      '    M106 P3 S180',
      ';Prevent PLA from jamming',
      'M620 S1A',
      'M104 S220',
      `M620.1 E F${Number(((21 / 2.4053) * 60).toPrecision(6))} T240`,
      'G29 A X90.5 Y80 I39.75 J40',
      `G0 X240 E15 F${Number(((expectedVolumetric / 0.15) * 60).toPrecision(6))}`,
      'G1 E12 ; purge',
      'G29.1 Z-0.04 ; for Textured PEI Plate',
      '',
    ].join('\n'),
  );
});

test('[name] in a per-layer template gives the current extruder value; the overlay leaves the job vars alone', () => {
  const vars = buildTemplateVars(config({ nozzle_temperature: [200, 230], filament_type: ['PLA', 'PETG'] }), job({ usedExtruders: [0, 1] }));
  const layer = withLayer(vars, { layer_num: 5, layer_z: 1.2, max_layer_z: 1.2, current_extruder: 1 });
  assert.equal(renderTemplate(';LAYER:{layer_num} Z[layer_z] M104 S[nozzle_temperature]', layer, 'layer_change_gcode'), ';LAYER:5 Z1.2 M104 S230');
  assert.equal(vars.layer_num, 0);
  assert.equal(vars.current_extruder, 0);
  assert.equal(renderTemplate('M104 S[nozzle_temperature]', vars, 'test'), 'M104 S200');
});
