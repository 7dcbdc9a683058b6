import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeIniString, readIni, splitIniList } from '../../../../appliance/slicer/profiles/import/ini-reader.js';

test('sections, keys, comments and CRLF line ends', () => {
  const sections = readIni('# header\r\n[vendor]\r\nname = Acme\r\n\r\n; note\r\n[print:0.20mm A = B]\r\nlayer_height=0.2\r\nx = a = b\r\n');
  assert.deepEqual(
    sections.map((s) => [s.type, s.name, s.line]),
    [
      ['vendor', '', 2],
      ['print', '0.20mm A = B', 6],
    ],
  );
  assert.equal(sections[0]!.values.get('name'), 'Acme');
  assert.equal(sections[1]!.values.get('layer_height'), '0.2');
  assert.equal(sections[1]!.values.get('x'), 'a = b', 'only the first = splits');
});

test('keys before any section are ignored, later duplicates win', () => {
  const [s] = readIni('orphan = 1\n[printer:P]\na = 1\na = 2\n');
  assert.equal(s!.values.get('a'), '2');
  assert.equal(s!.values.has('orphan'), false);
});

test('strings lose their quotes and decode C escapes', () => {
  assert.equal(decodeIniString('M862.3 P \\"[printer_model]\\" ; check\\nG28'), 'M862.3 P "[printer_model]" ; check\nG28');
  assert.equal(decodeIniString('"; Filament-specific end gcode"'), '; Filament-specific end gcode');
  assert.equal(decodeIniString('a\\\\nb'), 'a\\nb', 'an escaped backslash is not a newline');
  assert.equal(decodeIniString('C:\\path'), 'C:\\path', 'unknown escapes stay as written');
  assert.equal(decodeIniString('""'), '');
});

test('lists split on semicolons, quoted or not', () => {
  assert.deepEqual(splitIniList('*common*; *0.4nozzle*'), ['*common*', '*0.4nozzle*']);
  assert.deepEqual(splitIniList('"Original Prusa i3 MK3";"MK3S \\"plus\\"; more"'), ['Original Prusa i3 MK3', 'MK3S "plus"; more']);
  assert.deepEqual(splitIniList(''), []);
});
