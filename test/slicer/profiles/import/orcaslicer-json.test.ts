import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { ProfileCatalogue } from '../../../../appliance/slicer/profiles/catalogue.js';
import { importOrcaSlicerFolder } from '../../../../appliance/slicer/profiles/import/orcaslicer-json.js';
import type { Profile, ProfileBatch } from '../../../../appliance/slicer/profiles/types.js';
import { writeOrcaVendor } from '../../../fixtures/profiles/orca-vendor.js';

let batch: ProfileBatch;
before(async () => {
  const root = path.join(mkdtempSync(path.join(os.tmpdir(), 'printyard-orca-')), 'import', 'orcaslicer');
  writeOrcaVendor(root);
  batch = await importOrcaSlicerFolder(root);
});

function profile(id: string): Profile {
  const found = batch.profiles.find((p) => p.profile.id === id);
  assert.ok(found, `no profile ${id}`);
  return found.profile;
}

test('indexed, unlisted and index-less files all become profiles; machine models do not', () => {
  assert.deepEqual(batch.profiles.map((p) => p.profile.id).sort(), [
    'acme-0.20mm-standard-acme-bolt',
    'acme-acme-bolt-0.4-nozzle',
    'acme-acme-pla-acme-bolt',
    'acme-bambu-lab-x1-carbon-0.4-nozzle',
    'acme-fdm-filament-common',
    'acme-fdm-machine-common',
    'acme-fdm-process-common',
    'acme-loop-a',
    'acme-loop-b',
    'acme-my-pla',
    'orcafilamentlibrary-generic-petg-system',
  ]);
  assert.ok(batch.profiles.every((p) => p.profile.source === 'orcaslicer-import'));
  assert.equal(profile('acme-my-pla').vendor, 'Acme', 'the vendor name comes from the index');
});

test('inherits by name becomes the parent id; instantiation "false" marks abstract bases', () => {
  const bolt = profile('acme-acme-bolt-0.4-nozzle');
  assert.equal(bolt.inherits, 'acme-fdm-machine-common');
  assert.equal(bolt.instantiable, true);
  assert.equal(profile('acme-fdm-machine-common').instantiable, false);
  assert.equal(profile('acme-my-pla').inherits, 'acme-acme-pla-acme-bolt');
  assert.equal(profile('acme-loop-a').inherits, 'acme-loop-b', 'cycles are left for the catalogue to refuse');
});

test('string values are parsed into our types', () => {
  const bolt = profile('acme-acme-bolt-0.4-nozzle');
  assert.equal(bolt.kind, 'printer');
  assert.equal(bolt.printer_model, 'Acme Bolt');
  assert.deepEqual(bolt.settings.printable_area, [
    [0, 0],
    [250, 0],
    [250, 250],
    [0, 250],
  ]);
  assert.equal(bolt.settings.gcode_flavor, 'klipper');
  assert.equal(bolt.settings.printer_model_id, 'AB-01', 'model id taken from the machine model');
  assert.equal(bolt.settings.thumbnails, '96x96/PNG, 300x300/PNG');
  assert.match(bolt.settings.machine_start_gcode!, /^PRINT_START BED=\[bed_temperature_initial_layer_single\]/);
  const common = profile('acme-fdm-machine-common').settings;
  assert.equal(common.machine_max_acceleration_x, 10000, 'normal of (normal, silent)');
  assert.equal(common.printable_height, 250);
  assert.deepEqual(common.retraction_length, [0.8]);
  const pla = profile('acme-acme-pla-acme-bolt');
  assert.equal(pla.kind, 'filament');
  assert.deepEqual(pla.settings.nozzle_temperature_initial_layer, [225]);
  assert.deepEqual(pla.settings.filament_z_hop, [0.3]);
  assert.deepEqual(pla.settings.filament_id, ['AF01'], 'the Bambu filament id a package names the AMS tray by');
  assert.deepEqual(pla.compatible_printers, ['acme-acme-bolt-0.4-nozzle']);
  assert.deepEqual(profile('acme-my-pla').settings.filament_type, ['PLA'], '"PLA+" is an accepted spelling of PLA');
});

test('"nil" means not set, so the parent value stays', () => {
  assert.equal(profile('acme-acme-pla-acme-bolt').settings.filament_retraction_length, undefined);
  assert.equal(profile('acme-fdm-filament-common').settings.filament_retraction_length, undefined);
});

test('values we cannot honour are mapped or clamped, each with a warning', () => {
  const standard = profile('acme-0.20mm-standard-acme-bolt');
  assert.equal(standard.settings.sparse_infill_pattern, 'grid');
  assert.equal(standard.settings.sparse_infill_speed, 1000);
  assert.equal(standard.settings.sparse_infill_density, 20);
  assert.equal(standard.settings.wall_generator, 'arachne', 'variable-width walls are implemented: the value is kept');
  assert.deepEqual(standard.compatible_printers, ['acme-acme-bolt-0.4-nozzle'], 'unknown printer names are left out');
  const warnings = batch.report.warnings
    .filter((w) => w.profile === standard.id)
    .map((w) => w.message)
    .join('\n');
  assert.match(warnings, /crosshatch is not supported; using the nearest, grid/);
  assert.match(warnings, /"sparse_infill_speed": 2000 is outside 1..1000; using 1000/);
});

test('settings of another kind are dropped with a warning; unknown keys are dropped and counted', () => {
  const bolt = profile('acme-acme-bolt-0.4-nozzle');
  assert.equal((bolt.settings as Record<string, unknown>).nozzle_temperature, undefined);
  assert.ok(batch.report.warnings.some((w) => w.profile === bolt.id && /"nozzle_temperature" is a filament setting/.test(w.message)));
  assert.equal(batch.report.droppedKeys.extruder_clearance_radius, 1);
  assert.equal(batch.report.droppedKeys.seam_slope_type, 1);
  assert.equal(batch.report.droppedKeys.setting_id, undefined, 'identity keys are read, not dropped');
});

test('a Bambu Lab machine gets the bambu flavour and its model id', () => {
  const x1c = profile('acme-bambu-lab-x1-carbon-0.4-nozzle');
  assert.equal(x1c.settings.gcode_flavor, 'bambu');
  assert.equal(x1c.settings.printer_model_id, 'BL-P001');
});

test('broken files and unknown parents are reported, not thrown', () => {
  const reasons = batch.report.skipped.map((s) => `${s.name ?? path.basename(s.file)}: ${s.reason}`);
  assert.ok(
    reasons.some((r) => /^Ghost PLA: inherits unknown profile "Nonexistent Base"$/.test(r)),
    reasons.join('\n'),
  );
  assert.ok(
    reasons.some((r) => /^broken\.json: unreadable profile/.test(r)),
    reasons.join('\n'),
  );
});

test('a folder that does not exist imports nothing', async () => {
  const empty = await importOrcaSlicerFolder(path.join(os.tmpdir(), 'printyard-no-orca-here'));
  assert.equal(empty.profiles.length, 0);
  assert.equal(empty.report.skipped.length, 0);
});

test('a profile whose name or printer model hides text is skipped with the reason, and so are its children', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-orca-names-'));
  const root = path.join(dataDir, 'import', 'orcaslicer');
  const write = (rel: string, content: unknown) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), JSON.stringify(content));
  };
  write('Acme/filament/base.json', { type: 'filament', name: 'Acme PLA\u202e', nozzle_temperature: ['210'] });
  write('Acme/filament/child.json', { type: 'filament', name: 'Acme PLA Matte', inherits: 'Acme PLA\u202e' });
  write('Acme/filament/fine.json', { type: 'filament', name: 'Acme PETG', nozzle_temperature: ['240'] });
  write('Acme/machine/bolt.json', { type: 'machine', name: 'Acme Bolt', printer_model: 'Bolt\u2028' });
  const imported = await importOrcaSlicerFolder(root);
  assert.deepEqual(imported.report.skipped.map((s) => [s.name, s.reason]).sort(), [
    ['Acme Bolt', 'printer_model contains U+2028 (line separator)'],
    ['Acme PLA\u202e', 'name contains U+202E (right-to-left override)'],
  ]);

  const catalogue = await ProfileCatalogue.bundled();
  const report = await catalogue.loadDirectory(dataDir);
  assert.deepEqual(
    report.loaded.map((l) => l.id),
    ['acme-acme-petg'],
  );
  assert.ok(
    report.skipped.some((s) => s.name === 'Acme PLA Matte'),
    'the child of a skipped profile is skipped too',
  );
  assert.ok(catalogue.list().every((p) => !/[\u202e\u2028]/u.test(`${p.name}${p.printer_model ?? ''}`)));
});
