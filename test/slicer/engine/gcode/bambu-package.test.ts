import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { defaultConfig, type PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';
import { writeGcode3mf, type Gcode3mfInput } from '../../../../appliance/slicer/engine/gcode/bambu-package.js';
import { findAll, parseWellFormedXml } from '../../../fixtures/xml-wellformed.js';
import { solidPng } from '../../../fixtures/solid-png.js';

const dir = mkdtempSync(join(tmpdir(), 'printyard-bambu-package-'));

const config: PrintConfig = {
  ...defaultConfig(),
  printer_model: 'Bambu Lab P1S',
  printer_model_id: 'C12',
  gcode_flavor: 'bambu',
  filament_type: ['PLA', 'PETG'],
  filament_colour: ['#FF8000', '#00AAFF'],
  curr_bed_type: 'Textured PEI Plate',
  machine_start_gcode: 'M140 S[bed_temperature_initial_layer_single]\nG28 ; "home" & <level>\n',
};

/** A few MiB of G-code, so the package is written from several read chunks. */
function writeGcode(path: string): Buffer {
  const lines = ['; HEADER_BLOCK_START', '; total layer number: 500', '; HEADER_BLOCK_END', '; EXECUTABLE_BLOCK_START'];
  for (let i = 0; i < 120000; i++) lines.push(`G1 X${(i % 250).toFixed(3)} Y${((i * 7) % 250).toFixed(3)} E0.0${i % 97}`);
  lines.push('; EXECUTABLE_BLOCK_END', '');
  const data = Buffer.from(lines.join('\n'));
  writeFileSync(path, data);
  return data;
}

function input(name: string, patch: Partial<Gcode3mfInput> = {}): Gcode3mfInput {
  return {
    gcodePath: join(dir, 'plate.gcode'),
    outputPath: join(dir, `${name}.gcode.3mf`),
    config,
    version: '0.1.0',
    plate: {
      prediction_s: 3424.4,
      weight_g: 10.254,
      filaments: [
        { id: 2, type: 'PETG', color: '#00AAFF', tray_info_idx: 'GFG99', used_m: 0.41, used_g: 1.16 },
        { id: 1, type: 'PLA', color: '#FF8000', tray_info_idx: 'GFA00', used_m: 3.0, used_g: 9.09 },
      ],
      bbox: [90.5, 80, 130.25, 120],
    },
    thumbnails: {
      png: solidPng(512, 512, [255, 128, 0, 255]),
      small_png: solidPng(128, 128, [255, 128, 0, 255]),
      top_png: solidPng(512, 512, [255, 128, 0, 255]),
      pick_png: solidPng(512, 512, [1, 0, 0, 255]),
    },
    objects: [
      { id: 1, name: 'gear & "wheel" <1>', bbox: [90.5, 80, 110, 100.1234], area: 321.56789 },
      { id: 2, name: 'bracket', bbox: [112, 81, 130.25, 120], area: 700 },
    ],
    presets: { printer: 'Bambu Lab P1S 0.4 nozzle', print: '0.20mm Standard', filaments: ['Bambu PLA Basic', 'Generic PETG'] },
    ...patch,
  };
}

const gcode = writeGcode(join(dir, 'plate.gcode'));

test('the package holds every part Bambu Studio writes, with the G-code and its uppercase MD5', async () => {
  const result = await writeGcode3mf(input('full'));
  const zipped = readFileSync(join(dir, 'full.gcode.3mf'));
  assert.equal(result.sizeBytes, zipped.length);
  assert.ok(zipped.length < gcode.length / 2, 'the G-code is compressed');
  const files = unzipSync(zipped);
  assert.deepEqual(Object.keys(files).sort(), [
    '3D/3dmodel.model',
    'Metadata/_rels/model_settings.config.rels',
    'Metadata/model_settings.config',
    'Metadata/pick_1.png',
    'Metadata/plate_1.gcode',
    'Metadata/plate_1.gcode.md5',
    'Metadata/plate_1.json',
    'Metadata/plate_1.png',
    'Metadata/plate_1_small.png',
    'Metadata/project_settings.config',
    'Metadata/slice_info.config',
    'Metadata/top_1.png',
    '[Content_Types].xml',
    '_rels/.rels',
  ]);
  assert.ok(Buffer.from(files['Metadata/plate_1.gcode']).equals(gcode));
  const md5 = createHash('md5').update(gcode).digest('hex').toUpperCase();
  assert.equal(strFromU8(files['Metadata/plate_1.gcode.md5']), md5);
  assert.equal(result.gcodeMd5, md5);
  assert.equal(PNG.sync.read(Buffer.from(files['Metadata/plate_1.png'])).width, 512);
  assert.equal(PNG.sync.read(Buffer.from(files['Metadata/plate_1_small.png'])).width, 128);
});

test('an independent ZIP reader (Python zipfile) verifies every CRC', async () => {
  await writeGcode3mf(input('crc'));
  const r = spawnSync('/usr/bin/python3', ['-m', 'zipfile', '-t', join(dir, 'crc.gcode.3mf')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Done testing/);
});

test('every XML part is well-formed and every relationship target exists', async () => {
  await writeGcode3mf(input('xml'));
  const files = unzipSync(readFileSync(join(dir, 'xml.gcode.3mf')));
  for (const name of [
    '[Content_Types].xml',
    '_rels/.rels',
    '3D/3dmodel.model',
    'Metadata/model_settings.config',
    'Metadata/_rels/model_settings.config.rels',
    'Metadata/slice_info.config',
  ]) {
    assert.doesNotThrow(() => parseWellFormedXml(strFromU8(files[name])), name);
  }
  for (const rels of ['_rels/.rels', 'Metadata/_rels/model_settings.config.rels']) {
    for (const rel of findAll(parseWellFormedXml(strFromU8(files[rels])), 'Relationship')) {
      assert.ok(rel.attrs.Target.slice(1) in files, `${rels} points at missing ${rel.attrs.Target}`);
    }
  }
  const model = parseWellFormedXml(strFromU8(files['3D/3dmodel.model']));
  assert.deepEqual(findAll(model, 'object'), []);
  assert.deepEqual(
    findAll(model, 'build').map((b) => b.children.length),
    [0],
  );
  const plate = findAll(parseWellFormedXml(strFromU8(files['Metadata/model_settings.config'])), 'metadata');
  assert.equal(plate.find((m) => m.attrs.key === 'gcode_file')?.attrs.value, 'Metadata/plate_1.gcode');
});

test('slice_info.config carries the printer model id, prediction, weight, objects and filaments', async () => {
  await writeGcode3mf(input('info'));
  const files = unzipSync(readFileSync(join(dir, 'info.gcode.3mf')));
  const info = parseWellFormedXml(strFromU8(files['Metadata/slice_info.config']));
  const header = findAll(info, 'header_item');
  assert.equal(header.find((h) => h.attrs.key === 'X-BBL-Client-Type')?.attrs.value, 'slicer');
  assert.notEqual(header.find((h) => h.attrs.key === 'X-BBL-Client-Version')?.attrs.value ?? '', '');
  const keys = findAll(info, 'metadata').map((m) => m.attrs.key);
  assert.ok(keys.indexOf('extruder_type') < keys.indexOf('printer_model_id'));
  assert.ok(keys.indexOf('nozzle_volume_type') < keys.indexOf('printer_model_id'));
  const meta = Object.fromEntries(findAll(info, 'metadata').map((m) => [m.attrs.key, m.attrs.value]));
  assert.equal(meta.printer_model_id, 'C12');
  assert.equal(meta.prediction, '3424');
  assert.equal(meta.weight, '10.25');
  assert.equal(meta.nozzle_diameters, '0.4');
  assert.deepEqual(
    findAll(info, 'object').map((o) => [o.attrs.identify_id, o.attrs.name]),
    [
      ['1', 'gear & "wheel" <1>'],
      ['2', 'bracket'],
    ],
  );
  assert.deepEqual(
    findAll(info, 'filament').map((f) => f.attrs),
    [
      { id: '2', tray_info_idx: 'GFG99', type: 'PETG', color: '#00AAFF', used_m: '0.41', used_g: '1.16' },
      { id: '1', tray_info_idx: 'GFA00', type: 'PLA', color: '#FF8000', used_m: '3.00', used_g: '9.09' },
    ],
  );
});

test('project_settings.config is the configuration as OrcaSlicer JSON strings; plate_1.json describes the plate', async () => {
  await writeGcode3mf(input('settings'));
  const files = unzipSync(readFileSync(join(dir, 'settings.gcode.3mf')));
  const settings = JSON.parse(strFromU8(files['Metadata/project_settings.config'])) as Record<string, unknown>;
  const added = ['filament_ids', 'filament_settings_id', 'print_settings_id', 'printer_settings_id'];
  assert.deepEqual(Object.keys(settings), [...Object.keys(defaultConfig()), ...added].sort());
  assert.deepEqual(settings.filament_settings_id, ['Bambu PLA Basic', 'Generic PETG']);
  assert.equal(settings.print_settings_id, '0.20mm Standard');
  assert.equal(settings.printer_settings_id, 'Bambu Lab P1S 0.4 nozzle');
  for (const [key, value] of Object.entries(settings)) {
    assert.ok(typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string')), key);
  }
  assert.deepEqual(settings.nozzle_diameter, ['0.4']);
  assert.equal(settings.sparse_infill_density, '15%');
  assert.equal(settings.enable_support, '0');
  assert.deepEqual(settings.printable_area, ['0x0', '220x0', '220x220', '0x220']);
  assert.deepEqual(settings.filament_type, ['PLA', 'PETG']);
  assert.equal(settings.machine_start_gcode, config.machine_start_gcode);
  const plate = JSON.parse(strFromU8(files['Metadata/plate_1.json'])) as Record<string, unknown>;
  assert.deepEqual(plate.bbox_all, [90.5, 80, 130.25, 120]);
  assert.equal(plate.bed_type, 'textured_plate');
  assert.deepEqual(plate.filament_ids, [0, 1]);
  assert.deepEqual(plate.filament_colors, ['#FF8000', '#00AAFF']);
  assert.equal(plate.first_extruder, 0);
  assert.deepEqual(plate.bbox_objects, [
    { area: 321.568, bbox: [90.5, 80, 110, 100.123], id: 1, layer_height: 0.2, name: 'gear & "wheel" <1>' },
    { area: 700, bbox: [112, 81, 130.25, 120], id: 2, layer_height: 0.2, name: 'bracket' },
  ]);
  const model = Object.fromEntries(
    findAll(parseWellFormedXml(strFromU8(files['Metadata/model_settings.config'])), 'metadata').map((m) => [m.attrs.key, m.attrs.value]),
  );
  assert.equal(model.top_file, 'Metadata/top_1.png');
  assert.equal(model.pick_file, 'Metadata/pick_1.png');
});

test('an object without a usable identify_id (0 or repeated) is refused before anything is written', async () => {
  const objects = input('ids').objects;
  for (const ids of [
    [0, 1],
    [2, 2],
  ]) {
    const target = input('bad-ids', { objects: objects.map((o, k) => ({ ...o, id: ids[k] })) });
    await assert.rejects(writeGcode3mf(target), { code: 'ERR_INTERNAL', message: /identify_id/ });
    assert.equal(existsSync(target.outputPath), false);
  }
});

test('a missing printer_model_id is a configuration error and writes nothing', async () => {
  const target = input('no-model-id', { config: { ...config, printer_model_id: '' } });
  await assert.rejects(writeGcode3mf(target), { code: 'ERR_INVALID_SETTING', status: 400, message: /printer_model_id/ });
  assert.equal(existsSync(target.outputPath), false);
});

test('a G-code file that cannot be read fails cleanly without leaving a partial package', async () => {
  const target = input('missing', { gcodePath: join(dir, 'does-not-exist.gcode') });
  await assert.rejects(writeGcode3mf(target), { code: 'ERR_INTERNAL', status: 500 });
  assert.equal(existsSync(target.outputPath), false);
});

test('the package of a small G-code is small too', async () => {
  writeFileSync(join(dir, 'tiny.gcode'), 'G28\n');
  await writeGcode3mf(input('tiny', { gcodePath: join(dir, 'tiny.gcode') }));
  assert.ok(statSync(join(dir, 'tiny.gcode.3mf')).size < 20000);
});
