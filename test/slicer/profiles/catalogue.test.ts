import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { ProfileCatalogue } from '../../../appliance/slicer/profiles/catalogue.js';
import { writeOrcaVendor } from '../../fixtures/profiles/orca-vendor.js';

const ACME_INI = path.join(process.cwd(), 'test', 'fixtures', 'profiles', 'acme-bundle.ini');

let catalogue: ProfileCatalogue;
before(async () => {
  catalogue = await ProfileCatalogue.bundled();
});

function appError(code: string, pattern: RegExp) {
  return (err: unknown) => err instanceof AppError && err.code === code && pattern.test(err.message);
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-catalogue-'));
  writeJson(path.join(dir, 'profiles', 'filaments', 'mine.json'), [
    { id: 'my-pla', kind: 'filament', name: 'My PLA', vendor: 'Me', inherits: 'generic-pla', settings: { nozzle_temperature: [205] } },
    { id: 'generic-pla', kind: 'filament', name: 'Shadow PLA', vendor: 'Me' },
    { id: 'orphan', kind: 'filament', name: 'Orphan', vendor: 'Me', inherits: 'nobody' },
    { id: 'child-of-orphan', kind: 'filament', name: 'Child', vendor: 'Me', inherits: 'orphan' },
  ]);
  writeJson(path.join(dir, 'profiles', 'loop.json'), [
    { id: 'loop-a', kind: 'process', name: 'A', inherits: 'loop-b' },
    { id: 'loop-b', kind: 'process', name: 'B', inherits: 'loop-a' },
  ]);
  mkdirSync(path.join(dir, 'import', 'prusaslicer'), { recursive: true });
  copyFileSync(ACME_INI, path.join(dir, 'import', 'prusaslicer', 'Acme.ini'));
  writeOrcaVendor(path.join(dir, 'import', 'orcaslicer'));
  return dir;
}

test('list gives summaries of selectable profiles, filtered and ordered', () => {
  const printers = catalogue.list({ kind: 'printer' });
  assert.ok(printers.length >= 13);
  assert.ok(printers.every((s) => s.kind === 'printer'));
  const x1c = printers.find((s) => s.id === 'bambu-lab-x1-carbon-0.4')!;
  assert.deepEqual(x1c, {
    id: 'bambu-lab-x1-carbon-0.4',
    kind: 'printer',
    name: 'Bambu Lab X1 Carbon 0.4 nozzle',
    vendor: 'Bambu Lab',
    is_default: false,
    inherits: 'bambu-lab-x1-p1-common',
    source: 'bundled',
    printer_model: 'Bambu Lab X1 Carbon',
  });
  const all = catalogue.list();
  assert.deepEqual([...new Set(all.map((s) => s.kind))], ['printer', 'filament', 'process']);
  assert.deepEqual(catalogue.list({ kind: 'all' }), all);
  const bambu = catalogue.list({ vendor: 'bambu lab' });
  assert.deepEqual(new Set(bambu.map((s) => s.kind)), new Set(['printer', 'filament']));
  assert.ok(bambu.every((s) => s.vendor === 'Bambu Lab'));
  const names = catalogue.list({ kind: 'filament', vendor: 'Generic' }).map((s) => s.name);
  assert.deepEqual(
    names,
    [...names].sort((a, b) => a.localeCompare(b)),
  );
});

test('get resolves inherited settings and names a missing profile', () => {
  const x1c = catalogue.get('bambu-lab-x1-carbon-0.4');
  assert.equal(x1c.settings.gcode_flavor, 'bambu');
  assert.equal(x1c.settings.printer_model_id, 'BL-P001');
  assert.equal(x1c.settings.use_relative_e_distances, true);
  x1c.settings.gcode_flavor = 'marlin';
  assert.equal(catalogue.get('bambu-lab-x1-carbon-0.4').settings.gcode_flavor, 'bambu', 'get returns copies');
  assert.throws(
    () => catalogue.get('nope'),
    (err: unknown) =>
      err instanceof AppError && err.code === 'ERR_PROFILE_NOT_FOUND' && err.status === 404 && err.message === 'unknown profile "nope"',
  );
});

test('resolveConfig assembles printer, process, filaments and overrides', () => {
  const config = catalogue.resolveConfig({
    printerId: 'bambu-lab-p1s-0.4',
    filamentIds: ['bambu-pla-basic', 'generic-petg'],
    processId: '0.16mm-optimal',
    overrides: { sparse_infill_density: '25%', nozzle_temperature: [225, 245] },
  });
  assert.equal(config.layer_height, 0.16);
  assert.deepEqual(config.filament_type, ['PLA', 'PETG']);
  assert.deepEqual(config.filament_density, [1.26, 1.27]);
  assert.deepEqual(config.nozzle_temperature, [225, 245]);
  assert.deepEqual(config.retraction_length, [0.8, 0.8]);
  assert.equal(config.sparse_infill_density, 25);
  assert.equal(config.printer_model, 'Bambu Lab P1S');
});

test('resolveConfig refuses ids of the wrong kind, abstract bases and unknown ids', () => {
  const base = { printerId: 'generic-marlin-0.4', filamentIds: ['generic-pla'], processId: '0.20mm-standard' };
  assert.throws(
    () => catalogue.resolveConfig({ ...base, printerId: 'generic-pla' }),
    appError('ERR_PROFILE_NOT_FOUND', /"generic-pla" is a filament profile, not a printer profile/),
  );
  assert.throws(
    () => catalogue.resolveConfig({ ...base, filamentIds: ['0.20mm-standard'] }),
    appError('ERR_PROFILE_NOT_FOUND', /not a filament profile/),
  );
  assert.throws(
    () => catalogue.resolveConfig({ ...base, processId: 'fdm-process-common' }),
    appError('ERR_PROFILE_NOT_FOUND', /abstract base, not a selectable process profile/),
  );
  assert.throws(() => catalogue.resolveConfig({ ...base, processId: 'ghost' }), appError('ERR_PROFILE_NOT_FOUND', /unknown process profile "ghost"/));
});

test('resolveConfig checks the filament count against the printer', () => {
  const base = { printerId: 'generic-marlin-0.4', processId: '0.20mm-standard' };
  assert.throws(
    () => catalogue.resolveConfig({ ...base, filamentIds: ['generic-pla', 'generic-pla'] }),
    (err: unknown) => err instanceof AppError && err.code === 'ERR_BAD_REQUEST' && err.status === 400 && /takes 1 to 1/.test(err.message),
  );
  assert.throws(() => catalogue.resolveConfig({ ...base, filamentIds: [] }), appError('ERR_BAD_REQUEST', /at least one/));
  const sixteen = Array.from({ length: 16 }, () => 'generic-pla');
  assert.equal(catalogue.resolveConfig({ ...base, printerId: 'bambu-lab-a1-mini-0.4', filamentIds: sixteen }).filament_type.length, 16);
  assert.throws(
    () => catalogue.resolveConfig({ ...base, printerId: 'bambu-lab-a1-mini-0.4', filamentIds: [...sixteen, 'generic-pla'] }),
    appError('ERR_BAD_REQUEST', /takes 1 to 16 filaments, got 17/),
  );
});

test('resolveConfig validates overrides', () => {
  const base = { printerId: 'generic-marlin-0.4', filamentIds: ['generic-pla'], processId: '0.20mm-standard' };
  assert.throws(() => catalogue.resolveConfig({ ...base, overrides: { wall_loopz: 3 } }), appError('ERR_UNKNOWN_SETTING', /"wall_loopz"/));
  assert.throws(() => catalogue.resolveConfig({ ...base, overrides: { layer_height: 5 } }), appError('ERR_INVALID_SETTING', /"layer_height"/));
});

test('loadDirectory adds user profiles and imports, and reports what it skipped and why', async () => {
  const own = await ProfileCatalogue.bundled();
  const dir = dataDir();
  const report = await own.loadDirectory(dir);
  const loaded = new Set(report.loaded.map((l) => l.id));
  for (const id of [
    'my-pla',
    'acme-printers-acme-1000',
    'acme-printers-0.30mm-draft-acme',
    'acme-acme-bolt-0.4-nozzle',
    'acme-my-pla',
    'orcafilamentlibrary-generic-petg-system',
  ]) {
    assert.ok(loaded.has(id), id);
  }
  const reason = (name: string) => report.skipped.find((s) => s.name === name)?.reason ?? '';
  assert.match(reason('Shadow PLA'), /id "generic-pla" is already used by a bundled profile/);
  assert.match(reason('Orphan'), /inherits from unknown profile "nobody"/);
  assert.match(reason('Child'), /inherits from unknown profile "orphan"/);
  assert.match(reason('A'), /inheritance cycle/);
  assert.match(reason('Loop A'), /inheritance cycle/);
  assert.match(reason('Ghost PLA'), /inherits unknown profile "Nonexistent Base"/);
  assert.ok(report.droppedKeys.ironing! >= 1 && report.droppedKeys.seam_slope_type === 1);
  assert.equal(own.get('my-pla').settings.nozzle_temperature![0], 205);
  assert.equal(own.get('my-pla').settings.filament_density![0], 1.24, 'inherited from the bundled generic-pla');
  const summary = own.list({ vendor: 'Acme' }).find((s) => s.id === 'acme-my-pla')!;
  assert.equal(summary.source, 'orcaslicer-import');
  assert.ok(!own.list().some((s) => s.id === 'acme-fdm-machine-common'), 'Orca abstract bases stay hidden');
  const config = own.resolveConfig({
    printerId: 'acme-printers-acme-1000',
    filamentIds: ['acme-printers-acme-pla'],
    processId: 'acme-printers-0.30mm-draft-acme',
  });
  assert.equal(config.layer_height, 0.3);
  assert.deepEqual(config.printable_area, [
    [0, 0],
    [235, 0],
    [235, 225],
    [0, 225],
  ]);
  assert.equal(
    catalogue.list().some((s) => s.id === 'my-pla'),
    false,
    'other catalogues are untouched',
  );
});

test('loading the same directory again replaces its profiles instead of clashing with them', async () => {
  const own = await ProfileCatalogue.bundled();
  const dir = dataDir();
  await own.loadDirectory(dir);
  writeJson(path.join(dir, 'profiles', 'filaments', 'mine.json'), [
    { id: 'my-pla', kind: 'filament', name: 'My PLA', vendor: 'Me', inherits: 'generic-pla', settings: { nozzle_temperature: [199] } },
  ]);
  const again = await own.loadDirectory(dir);
  assert.ok(!again.skipped.some((s) => /already used/.test(s.reason)), JSON.stringify(again.skipped));
  assert.equal(own.get('my-pla').settings.nozzle_temperature![0], 199);
});

test('a missing data directory loads nothing and fails nothing', async () => {
  const own = await ProfileCatalogue.bundled();
  const report = await own.loadDirectory(path.join(os.tmpdir(), 'printyard-no-such-dir-xyz'));
  assert.deepEqual(report, { loaded: [], skipped: [], warnings: [], droppedKeys: {} });
});

test('a catalogue built from inconsistent profiles is refused', () => {
  const p = {
    id: 'x',
    kind: 'process' as const,
    name: 'X',
    vendor: '',
    instantiable: true,
    is_default: false,
    source: 'user' as const,
    settings: {},
  };
  assert.throws(() => new ProfileCatalogue([p, p]), /duplicate profile id "x"/);
  assert.throws(() => new ProfileCatalogue([{ ...p, inherits: 'y' }]), /inherits from unknown profile "y"/);
});
