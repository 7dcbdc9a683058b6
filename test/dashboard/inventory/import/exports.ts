/**
 * Spoolman exports as Spoolman writes them (spoolman/export.py): records flattened to dotted keys,
 * columns sorted, Python's csv writer (CRLF, quotes doubled, None as an empty cell, True/False),
 * json.dump with datetimes printed by str() (`2024-03-01 09:15:00`), extra values JSON-encoded,
 * a `'` before text a spreadsheet would run as a formula.
 */

const SPOOL_COLUMNS = [
  'archived',
  'comment',
  'extra.nozzle',
  'filament.article_number',
  'filament.color_hex',
  'filament.comment',
  'filament.density',
  'filament.diameter',
  'filament.external_id',
  'filament.extra.finish',
  'filament.id',
  'filament.material',
  'filament.multi_color_direction',
  'filament.multi_color_hexes',
  'filament.name',
  'filament.price',
  'filament.registered',
  'filament.settings_bed_temp',
  'filament.settings_extruder_temp',
  'filament.spool_weight',
  'filament.vendor',
  'filament.vendor.comment',
  'filament.vendor.empty_spool_weight',
  'filament.vendor.external_id',
  'filament.vendor.extra.country',
  'filament.vendor.id',
  'filament.vendor.name',
  'filament.vendor.registered',
  'filament.vendor_id',
  'filament.weight',
  'filament_id',
  'first_used',
  'id',
  'initial_weight',
  'last_used',
  'location',
  'lot_nr',
  'price',
  'registered',
  'spool_weight',
  'tags',
  'used_weight',
];

/** Python's csv.writer quoting (QUOTE_MINIMAL): quotes around cells with a comma, quote or line break. */
function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csvOf(columns: string[], rows: Record<string, string>[]): string {
  const lines = [columns.join(','), ...rows.map((row) => columns.map((c) => csvCell(row[c] ?? '')).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

const polyTerra = {
  'filament.article_number': 'PM70820',
  'filament.color_hex': 'C0392B',
  'filament.comment': '',
  'filament.density': '1.24',
  'filament.diameter': '1.75',
  'filament.external_id': 'polymaker_polyterra_red',
  'filament.extra.finish': '"matte"',
  'filament.id': '1',
  'filament.material': 'PLA',
  'filament.name': 'PolyTerra™ PLA, Matte',
  'filament.price': '24.99',
  'filament.registered': '2024-02-28 18:00:00',
  'filament.settings_bed_temp': '60',
  'filament.settings_extruder_temp': '215',
  'filament.spool_weight': '140.0',
  'filament.vendor.comment': 'Ships from "Suzhou",\nusually in a week',
  'filament.vendor.empty_spool_weight': '140.0',
  'filament.vendor.extra.country': '"CN"',
  'filament.vendor.id': '1',
  'filament.vendor.name': 'Polymaker',
  'filament.vendor.registered': '2024-02-28 17:59:00',
  'filament.vendor_id': '1',
  'filament.weight': '1000.0',
  filament_id: '1',
};

/** Three good spools (two of one filament, one multi-colour without a vendor) and one with a bad density. */
export const SPOOLS_CSV = csvOf(SPOOL_COLUMNS, [
  {
    ...polyTerra,
    archived: 'False',
    comment: 'He said "dry it first", then printed',
    'extra.nozzle': '"0.4"',
    first_used: '2024-03-02 10:00:00.123456',
    id: '1',
    initial_weight: '1000.0',
    last_used: '2024-03-05 21:30:00',
    location: 'Shelf A',
    lot_nr: 'L2403',
    price: '21.5',
    registered: '2024-03-01 09:15:00',
    used_weight: '250.5',
  },
  {
    ...polyTerra,
    archived: 'True',
    // Spoolman ≥ 0.23 guards text a spreadsheet would run as a formula.
    comment: "'-5 °C storage, keep dry",
    id: '2',
    initial_weight: '1000.0',
    registered: '2024-03-01 09:16:00',
    used_weight: '1000.0',
    tags: '04A2B3C4D5E6F7,04FFEE',
  },
  {
    archived: 'False',
    'filament.density': '1.27',
    'filament.diameter': '1.75',
    'filament.id': '2',
    'filament.material': 'PETG',
    'filament.multi_color_direction': 'longitudinal',
    'filament.multi_color_hexes': 'FF0000,00FF00',
    'filament.name': 'Rainbow',
    'filament.registered': '2024-04-01 08:00:00',
    'filament.weight': '750.0',
    filament_id: '2',
    id: '3',
    registered: '2024-04-02 12:00:00',
    used_weight: '0.0',
  },
  {
    archived: 'False',
    'filament.density': 'abc',
    'filament.diameter': '1.75',
    'filament.id': '3',
    'filament.material': 'ABS',
    filament_id: '3',
    id: '4',
    registered: '2024-04-03 12:00:00',
    used_weight: '0.0',
  },
]);

/** A JSON export of another Spoolman: the vendor's name in other case, one spool listed twice. */
export const SPOOLS_JSON = JSON.stringify([
  {
    archived: false,
    comment: null,
    'filament.color_hex': '1E90FF',
    'filament.density': 1.27,
    'filament.diameter': 1.75,
    'filament.id': 7,
    'filament.material': 'PETG',
    'filament.name': 'PolyLite PETG',
    'filament.registered': '2023-11-11 11:11:11',
    'filament.vendor.id': 3,
    'filament.vendor.name': 'POLYMAKER',
    'filament.vendor.registered': '2023-11-11 11:00:00',
    'filament.vendor_id': 3,
    'filament.weight': 1000.0,
    filament_id: 7,
    first_used: null,
    id: 1,
    initial_weight: 1000.0,
    last_used: null,
    location: 'Drybox 2',
    price: null,
    registered: '2023-11-12 08:00:00',
    spool_weight: 160.0,
    used_weight: 10.25,
  },
]);

export const FILAMENTS_CSV = csvOf(
  ['article_number', 'color_hex', 'density', 'diameter', 'id', 'material', 'name', 'registered', 'vendor.id', 'vendor.name', 'vendor_id', 'weight'],
  [
    { color_hex: 'C0392B', density: '1.24', diameter: '1.75', id: '1', material: 'PLA', name: 'PolyTerra™ PLA, Matte', 'vendor.name': 'Polymaker' },
    { color_hex: '000000', density: '1.04', diameter: '2.85', id: '2', material: 'ABS', name: 'Černá', 'vendor.name': 'Fillamentum' },
  ],
);

export const VENDORS_JSON = JSON.stringify([
  { comment: null, empty_spool_weight: 140.0, external_id: null, id: 1, name: 'Polymaker', registered: '2024-02-28 17:59:00' },
  {
    comment: 'Czech, "Extrafill"',
    empty_spool_weight: 230.0,
    external_id: null,
    'extra.country': '"CZ"',
    id: 2,
    name: 'Fillamentum',
    registered: '2024-01-01 00:00:00',
  },
  { comment: 'Ελληνικά', empty_spool_weight: null, external_id: null, id: 3, name: 'Ελληνικό Νήμα', registered: '2024-01-02 00:00:00' },
]);
