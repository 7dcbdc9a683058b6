import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { parseProfileRecord, readProfileFiles } from '../../../appliance/slicer/profiles/profile-file.js';
import { BAD_NAMES, FORGING_NAME } from '../../fixtures/bad-names.js';

test('a record is parsed with defaults for the optional fields', () => {
  const profile = parseProfileRecord({ id: 'my-pla', kind: 'filament', name: 'My PLA', settings: { nozzle_temperature: ['215'] } }, 'user');
  assert.deepEqual(profile, {
    id: 'my-pla',
    kind: 'filament',
    name: 'My PLA',
    vendor: '',
    instantiable: true,
    is_default: false,
    source: 'user',
    settings: { nozzle_temperature: [215] },
  });
});

test('G-code given as lines becomes one script ending in a newline', () => {
  const profile = parseProfileRecord(
    {
      id: 'p',
      kind: 'printer',
      name: 'P',
      settings: { machine_start_gcode: ['G28', 'G29'] },
    },
    'bundled',
  );
  assert.equal(profile.settings.machine_start_gcode, 'G28\nG29\n');
});

test('the source comes from the loader, not from the file', () => {
  const profile = parseProfileRecord({ id: 'p', kind: 'process', name: 'P', source: 'bundled' }, 'user');
  assert.equal(profile.source, 'user');
});

test('bad records are refused with a message naming the profile', () => {
  const cases: Array<[unknown, RegExp]> = [
    [[], /must be a JSON object/],
    [{ id: 'Bad Id', kind: 'printer', name: 'x' }, /"Bad Id" is not a slug/],
    [{ id: 'x', kind: 'sla', name: 'x' }, /profile "x": "kind" must be one of printer, filament, process/],
    [{ id: 'x', kind: 'printer' }, /profile "x": "name" is required/],
    [{ id: 'x', kind: 'printer', name: 'x', colour: 'red' }, /profile "x": unknown field "colour"/],
    [{ id: 'x', kind: 'printer', name: 'x', is_default: 'yes' }, /"is_default" must be true or false/],
    [{ id: 'x', kind: 'filament', name: 'x', compatible_printers: 'a' }, /"compatible_printers" must be a list/],
    [
      { id: 'x', kind: 'filament', name: 'x', settings: { layer_height: 0.2 } },
      /setting "layer_height" belongs to process profiles, not filament profiles/,
    ],
    [{ id: 'x', kind: 'process', name: 'x', settings: { layer_height: 'thin' } }, /profile "x": invalid value for setting "layer_height"/],
    [{ id: 'x', kind: 'process', name: 'x', settings: { layer_hieght: 0.2 } }, /profile "x": unknown setting "layer_hieght"/],
  ];
  for (const [record, pattern] of cases) {
    assert.throws(
      () => parseProfileRecord(record, 'user'),
      (err: unknown) => err instanceof AppError && pattern.test(err.message),
      String(pattern),
    );
  }
});

test('a name, vendor or printer model that hides or fakes text is refused, naming the field and the code point', () => {
  for (const [bad, codePoint] of BAD_NAMES) {
    for (const field of ['name', 'vendor', 'printer_model'] as const) {
      const record = { id: 'x', kind: 'printer', name: 'X', [field]: bad };
      assert.throws(
        () => parseProfileRecord(record, 'user'),
        (err: unknown) => err instanceof AppError && err.message === `profile "x": ${field} contains ${codePoint}`,
      );
    }
  }
  assert.throws(
    () => parseProfileRecord({ id: 'x', kind: 'printer', name: 'X', vendor: '\u3000' }, 'user'),
    /profile "x": vendor must not be only whitespace/,
  );
  assert.equal(parseProfileRecord({ id: 'x', kind: 'printer', name: 'Café 🖨️', vendor: '' }, 'user').name, 'Café 🖨️');
});

test('a file with such a profile keeps its good ones; the bad one is skipped with the reason', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-profile-names-'));
  writeFileSync(
    path.join(dir, 'mixed.json'),
    JSON.stringify([
      { id: 'good', kind: 'filament', name: 'Good PLA' },
      { id: 'forged', kind: 'filament', name: FORGING_NAME },
    ]),
  );
  const batch = await readProfileFiles(dir, 'user');
  assert.deepEqual(
    batch.profiles.map((p) => p.profile.id),
    ['good'],
  );
  assert.deepEqual(
    batch.report.skipped.map((s) => [s.name, s.reason]),
    [['forged', 'profile "forged": name contains U+000A (line feed)']],
  );
});

test('readProfileFiles walks sub-folders, takes arrays and single objects, and reports bad files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-profile-file-'));
  mkdirSync(path.join(dir, 'nested'), { recursive: true });
  writeFileSync(path.join(dir, 'one.json'), JSON.stringify({ id: 'a', kind: 'process', name: 'A' }));
  writeFileSync(
    path.join(dir, 'nested', 'many.json'),
    JSON.stringify([
      { id: 'b', kind: 'process', name: 'B' },
      { id: 'c', kind: 'process', name: 'C', settings: { wall_loops: -1 } },
    ]),
  );
  writeFileSync(path.join(dir, 'broken.json'), '{ nope');
  writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
  const batch = await readProfileFiles(dir, 'user');
  assert.deepEqual(batch.profiles.map((p) => p.profile.id).sort(), ['a', 'b']);
  assert.equal(batch.report.skipped.length, 2);
  const bad = batch.report.skipped.find((s) => s.name === 'c');
  assert.match(bad!.reason, /wall_loops/);
  assert.match(batch.report.skipped.find((s) => s.file.endsWith('broken.json'))!.reason, /not valid JSON/);
});

test('a missing folder is simply empty', async () => {
  const batch = await readProfileFiles(path.join(os.tmpdir(), 'printyard-does-not-exist-xyz'), 'user');
  assert.equal(batch.profiles.length, 0);
  assert.equal(batch.report.skipped.length, 0);
});
