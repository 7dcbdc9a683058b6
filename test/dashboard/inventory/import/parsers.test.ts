import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCsv } from '../../../../appliance/dashboard/inventory/import/csv.js';
import { parseJson } from '../../../../appliance/dashboard/inventory/import/json.js';
import { exportKind, mapRow } from '../../../../appliance/dashboard/inventory/import/mapping.js';
import { SPOOLS_CSV } from './exports.js';

const cells = (text: string) => parseCsv(text).rows.map((r) => Object.fromEntries(r.cells));

test('CSV: quoted commas, doubled quotes, line breaks in a cell, CRLF or LF, empty cells as null', () => {
  assert.deepEqual(cells('a,b,c\r\n"x, y","say ""hi""",\r\n"two\r\nlines",,ü\n'), [
    { a: 'x, y', b: 'say "hi"', c: null },
    { a: 'two\r\nlines', b: null, c: 'ü' },
  ]);
  assert.deepEqual(cells('a,b\n1,2'), [{ a: '1', b: '2' }], 'no line break after the last row');
  assert.deepEqual(cells('a\n\n1\n\n'), [{ a: '1' }], 'blank lines are not rows');
  assert.deepEqual(cells("a,b\n'=1+2,'plain\n"), [{ a: '=1+2', b: "'plain" }], 'only the formula guard loses its quote');
});

test('CSV: a row number per data row, line numbers in problems', () => {
  const table = parseCsv('a,b\n"1\n2",3\n4\n');
  assert.deepEqual(
    table.rows.map((r) => [r.row, r.problem]),
    [
      [1, null],
      [2, 'line 4 has 1 cells; the header has 2'],
    ],
  );
  assert.throws(() => parseCsv('a\n"x"y\n'), /line 2: text after a closing quote/);
});

test('JSON: nested objects flatten to dotted keys, as Spoolman names them', () => {
  const table = parseJson('[{"id": 3, "filament": {"vendor": {"name": "Prusa"}, "extra": {}}, "comment": "", "archived": true}]');
  assert.deepEqual(Object.fromEntries(table.rows[0].cells), { id: 3, 'filament.vendor.name': 'Prusa', comment: null, archived: true });
  assert.equal(parseJson('[{"a": [1]}]').rows[0].problem, 'a is a list; an export has none');
});

test('the kind of export, and the values of a spool row', () => {
  const table = parseCsv(SPOOLS_CSV);
  assert.equal(exportKind(table.keys), 'spools');
  assert.equal(exportKind(new Set(['id', 'name', 'density', 'vendor.name'])), 'filaments');
  assert.equal(exportKind(new Set(['id', 'name', 'empty_spool_weight'])), 'vendors');
  assert.equal(exportKind(new Set(['colour'])), null);
  const mapped = mapRow('spools', table.rows[0]);
  assert.ok('kind' in mapped && mapped.kind === 'spools');
  assert.equal(mapped.fields.registered, '2024-03-01T09:15:00.000Z');
  assert.equal(mapped.fields.first_used, '2024-03-02T10:00:00.123Z');
  assert.equal(mapped.fields.archived, false);
  assert.equal(mapped.fields.filament.settings_bed_temp, 60);
  assert.equal(mapped.fields.filament.vendor?.empty_spool_weight, 140);
  const archived = mapRow('spools', table.rows[1]);
  assert.ok('kind' in archived && archived.kind === 'spools' && archived.fields.archived === true);
});

test('a value that does not fit fails the row naming the field', () => {
  const row = (extra: Record<string, string | number | boolean | null>) => ({
    row: 7,
    cells: new Map(Object.entries({ id: 9, 'filament.density': 1.24, 'filament.diameter': 1.75, ...extra })),
    problem: null,
  });
  const reasons: [Record<string, string | number | boolean | null>, string][] = [
    [{ archived: 'maybe' }, 'row 7: archived is not True or False ("maybe")'],
    [{ used_weight: -1 }, 'row 7: used_weight must be at least 0 (-1)'],
    [{ 'filament.color_hex': 'red' }, 'row 7: filament.color_hex is not a hex colour ("red")'],
    [{ 'filament.multi_color_hexes': 'FF0000,blue' }, 'row 7: filament.multi_color_hexes has "blue", which is not a hex colour'],
    [{ registered: '01/02/2024' }, 'row 7: registered is not a date and time ("01/02/2024")'],
    [{ 'filament.settings_bed_temp': 60.5 }, 'row 7: filament.settings_bed_temp is not a whole number (60.5)'],
    [{ 'filament.vendor.id': 2 }, 'row 7: filament.vendor.name is required'],
    [{ 'filament.name': 'x'.repeat(65) }, 'row 7: filament.name is longer than 64 characters'],
    [{ 'extra.Bad-Key': '1' }, 'row 7: extra.Bad-Key is not an extra field name Spoolman allows (a-z, 0-9, _)'],
  ];
  for (const [cells, reason] of reasons) {
    const failure = mapRow('spools', row(cells));
    assert.ok(!('kind' in failure), reason);
    assert.equal(failure.reason, reason);
    assert.equal(failure.spoolman_id, 9);
  }
  const plain = mapRow('spools', row({ 'extra.note': 'typed in a spreadsheet' }));
  assert.ok('kind' in plain && plain.kind === 'spools');
  assert.deepEqual(plain.fields.extra, { note: '"typed in a spreadsheet"' }, 'a value that is not JSON is kept as a JSON string');
});
