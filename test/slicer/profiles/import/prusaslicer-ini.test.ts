import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ProfileCatalogue } from '../../../../appliance/slicer/profiles/catalogue.js';
import { importPrusaSlicerBundle } from '../../../../appliance/slicer/profiles/import/prusaslicer-ini.js';
import type { Profile, ProfileBatch } from '../../../../appliance/slicer/profiles/types.js';

const ACME = path.join(process.cwd(), 'test', 'fixtures', 'profiles', 'acme-bundle.ini');
const DEBIAN_BUNDLES = '/usr/share/PrusaSlicer/profiles';

function acme(): ProfileBatch {
  return importPrusaSlicerBundle(readFileSync(ACME, 'utf8'), ACME);
}

function byName(batch: ProfileBatch, name: string): Profile {
  const found = batch.profiles.find((p) => p.profile.name === name);
  assert.ok(found, `no profile named ${name}`);
  return found.profile;
}

test('concrete sections become profiles; abstract and SLA ones do not', () => {
  const batch = acme();
  assert.deepEqual(batch.profiles.map((p) => p.profile.id).sort(), [
    'acme-printers-0.30mm-draft-acme',
    'acme-printers-acme-1000',
    'acme-printers-acme-1000-duo',
    'acme-printers-acme-mystery',
    'acme-printers-acme-pla',
  ]);
  const skipped = Object.fromEntries(batch.report.skipped.map((s) => [s.name, s.reason]));
  assert.match(skipped['0.20mm Loop @ACME']!, /inheritance cycle: 0.20mm Loop @ACME → 0.20mm Loop Back @ACME → 0.20mm Loop @ACME/);
  assert.match(skipped['0.20mm Orphan @ACME']!, /unknown section "\*missing\*"/);
  assert.equal(skipped['[sla_print:…] × 1'], 'SLA profiles are not supported');
  assert.equal(skipped['[sla_material:…] × 1'], 'SLA profiles are not supported');
});

test('several parents apply left to right, then the section itself; percentages resolve against the final values', () => {
  const draft = byName(acme(), '0.30mm DRAFT @ACME');
  assert.equal(draft.kind, 'process');
  assert.equal(draft.source, 'prusaslicer-import');
  assert.equal(draft.vendor, 'Acme Printers');
  assert.equal(draft.description, 'Quick drafts.\nNot for show.');
  const s = draft.settings;
  assert.equal(s.layer_height, 0.3);
  assert.equal(s.initial_layer_print_height, 0.225, '75 % of the layer height');
  assert.equal(s.inner_wall_speed, 90, '*fast* overrides *common*');
  assert.equal(s.outer_wall_speed, 45, '50 % of the perimeter speed');
  assert.equal(s.internal_solid_infill_speed, 120, '80 % of the infill speed');
  assert.equal(s.top_surface_speed, 60, '50 % of the solid infill speed');
  assert.equal(s.line_width, 0.45);
  assert.equal(s.inner_wall_line_width, 0.6, '200 % of the layer height, in mm');
  assert.equal(s.initial_layer_line_width, 0.3375, '150 % of the first layer height, in mm');
  assert.equal(s.wall_loops, 2);
  assert.equal(s.top_shell_layers, 5);
  assert.equal(s.sparse_infill_density, 20);
  assert.equal(s.sparse_infill_pattern, 'triangles', 'cubic is mapped to the nearest pattern we have');
  assert.equal(s.brim_type, 'no_brim');
  assert.equal(s.enable_prime_tower, false);
});

test('filament values map to ours: temperatures, all four plates, nil left unset, escaped G-code', () => {
  const batch = acme();
  const pla = byName(batch, 'Acme PLA');
  const s = pla.settings;
  assert.deepEqual(s.nozzle_temperature, [205]);
  assert.deepEqual(s.nozzle_temperature_initial_layer, [210]);
  for (const plate of ['cool_plate_temp', 'eng_plate_temp', 'hot_plate_temp', 'textured_plate_temp'] as const) {
    assert.deepEqual(s[plate], [60], plate);
    assert.deepEqual(s[`${plate}_initial_layer`], [65], plate);
  }
  assert.deepEqual(s.filament_flow_ratio, [0.97]);
  assert.deepEqual(s.filament_max_volumetric_speed, [14], 'trailing comment stripped');
  assert.deepEqual(s.filament_colour, ['#3366FF']);
  assert.deepEqual(s.filament_vendor, ['Acme']);
  assert.deepEqual(s.filament_start_gcode, ['; PLA start\nM900 K0.05']);
  assert.equal(s.filament_retraction_length, undefined);
  assert.deepEqual(pla.compatible_printers, ['acme-printers-acme-1000']);
  const mystery = byName(batch, 'Acme Mystery');
  assert.deepEqual(mystery.settings.filament_type, ['OTHER']);
  assert.equal(mystery.settings.filament_density, undefined, 'a density of 0 means unknown');
  assert.ok(batch.report.warnings.some((w) => w.profile === mystery.id && /UNOBTAINIUM/.test(w.message)));
});

test('printer values map to ours: bed shape, vectors, first of (normal, silent), thumbnails, unescaped G-code', () => {
  const batch = acme();
  const printer = byName(batch, 'Acme 1000');
  assert.equal(printer.printer_model, 'Acme 1000 & Friends');
  const s = printer.settings;
  assert.deepEqual(s.printable_area, [
    [0, 0],
    [235, 0],
    [235, 225],
    [0, 225],
  ]);
  assert.equal(s.printable_height, 240);
  assert.equal(s.printer_model, 'A1000');
  assert.equal(s.gcode_flavor, 'marlin');
  assert.equal(s.machine_max_acceleration_x, 1500);
  assert.equal(s.machine_max_speed_x, 250);
  assert.equal(s.emit_machine_limits_to_gcode, true);
  assert.equal(s.thumbnails, '16x16/PNG, 220x124/PNG');
  assert.equal(s.machine_start_gcode, 'M862.3 P "[printer_model]" ; model check\nG28 ; home\nM109 S[first_layer_temperature]');
  assert.deepEqual(s.retraction_length, [0.9]);
  assert.deepEqual(s.z_hop, [0.2]);
  assert.equal(s.max_filaments, 1);
  const duo = byName(batch, 'Acme 1000 Duo').settings;
  assert.deepEqual(duo.nozzle_diameter, [0.4, 0.6]);
  assert.deepEqual(duo.retraction_length, [0.9, 1.2]);
  assert.equal(duo.max_filaments, 2);
  assert.equal(duo.gcode_flavor, 'marlin2');
  assert.ok(batch.report.warnings.some((w) => /sailfish is not supported; using the nearest, marlin/.test(w.message)));
});

test('keys we do not map are dropped and counted', () => {
  const dropped = acme().report.droppedKeys;
  assert.equal(dropped.ironing, 1);
  assert.equal(dropped.serial_speed, 2, 'once per printer that inherits it');
  assert.equal(dropped.variants, undefined, 'printer_model sections are read, not imported');
});

test('a section whose name, vendor or printer model hides text is skipped, naming the field and the code point', () => {
  const ini = [
    '[vendor]',
    'name = Acme',
    '',
    '[printer_model:BOLT]',
    'name = Bolt\u202e',
    '',
    '[printer:Acme Bolt]',
    'printer_model = BOLT',
    'bed_shape = 0x0,200x0,200x200,0x200',
    '',
    '[filament:Acme PLA\u2066]',
    'temperature = 210',
    '',
    '[filament:Acme PETG]',
    'temperature = 240',
    '',
  ].join('\n');
  const batch = importPrusaSlicerBundle(ini, 'acme.ini');
  assert.deepEqual(
    batch.profiles.map((p) => p.profile.name),
    ['Acme PETG'],
  );
  assert.deepEqual(
    batch.report.skipped.map((s) => [s.name, s.reason]),
    [
      ['Acme Bolt', 'printer_model contains U+202E (right-to-left override)'],
      ['Acme PLA\u2066', 'name contains U+2066 (left-to-right isolate)'],
    ],
  );
  const badVendor = importPrusaSlicerBundle(ini.replace('name = Acme', 'name = Acme\u200b'), 'acme.ini');
  assert.deepEqual(badVendor.profiles, []);
  assert.deepEqual(badVendor.report.skipped.find((s) => s.name === 'Acme PETG')?.reason, 'vendor contains U+200B (zero width space)');
});

test('every bundle Debian ships imports without throwing, into a consistent catalogue', () => {
  const files = readdirSync(DEBIAN_BUNDLES).filter((f) => f.endsWith('.ini'));
  assert.ok(files.length >= 10, `PrusaSlicer bundles expected in ${DEBIAN_BUNDLES}`);
  let total = 0;
  for (const file of files) {
    const batch = importPrusaSlicerBundle(readFileSync(path.join(DEBIAN_BUNDLES, file), 'utf8'), file);
    assert.ok(batch.profiles.length > 0, file);
    assert.doesNotThrow(() => new ProfileCatalogue(batch.profiles.map((p) => p.profile)), file);
    assert.deepEqual(
      batch.report.skipped.filter((s) => /contains U\+|only whitespace/.test(s.reason)),
      [],
      `${file}: no real profile breaks the rule for names`,
    );
    total += batch.profiles.length;
  }
  assert.ok(total > 1000, `${total} profiles`);
});

test('PrusaResearch: the MK3S, a print and filaments resolve to the values in the INI', () => {
  const batch = importPrusaSlicerBundle(readFileSync(path.join(DEBIAN_BUNDLES, 'PrusaResearch.ini'), 'utf8'), 'PrusaResearch.ini');
  const catalogue = new ProfileCatalogue(batch.profiles.map((p) => p.profile));
  const mk3s = catalogue.get('prusa-research-original-prusa-i3-mk3s-mk3s-plus');
  assert.equal(mk3s.name, 'Original Prusa i3 MK3S & MK3S+');
  assert.equal(mk3s.printer_model, 'Original Prusa i3 MK3S & MK3S+');
  assert.deepEqual(mk3s.settings.printable_area, [
    [0, 0],
    [250, 0],
    [250, 210],
    [0, 210],
  ]);
  assert.deepEqual(mk3s.settings.nozzle_diameter, [0.4]);
  assert.equal(mk3s.settings.printable_height, 210);
  assert.equal(mk3s.settings.printer_model, 'MK3S');
  assert.deepEqual(mk3s.settings.retraction_length, [0.8]);
  assert.match(mk3s.settings.machine_start_gcode!, /^M862\.3 P "\[printer_model\]"/);

  const quality = catalogue.get('prusa-research-0.15mm-quality-mk3').settings;
  assert.equal(quality.layer_height, 0.15);
  assert.equal(quality.sparse_infill_density, 15);
  assert.equal(quality.sparse_infill_pattern, 'gyroid');
  assert.equal(quality.wall_loops, 2);
  assert.equal(quality.top_shell_layers, 8);

  const prusament = catalogue.get('prusa-research-prusament-pla').settings;
  assert.deepEqual(prusament.filament_type, ['PLA']);
  assert.deepEqual(prusament.filament_density, [1.24]);
  assert.deepEqual(prusament.nozzle_temperature_initial_layer, [215]);
  assert.deepEqual(prusament.nozzle_temperature, [215]);
  assert.deepEqual(prusament.hot_plate_temp, [60]);
  const petg = catalogue.get('prusa-research-prusament-petg').settings;
  assert.deepEqual(petg.nozzle_temperature_initial_layer, [240]);
  assert.deepEqual(petg.nozzle_temperature, [250]);
  assert.deepEqual(petg.hot_plate_temp, [90]);
  assert.deepEqual(petg.hot_plate_temp_initial_layer, [85]);

  const config = catalogue.resolveConfig({
    printerId: mk3s.id,
    filamentIds: ['prusa-research-prusament-pla'],
    processId: 'prusa-research-0.15mm-quality-mk3',
  });
  assert.equal(config.layer_height, 0.15);
  assert.deepEqual(config.nozzle_diameter, [0.4]);
});
