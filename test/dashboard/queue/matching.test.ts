/** Matching a job's requirements against a printer's snapshot, and how a missing filament reads. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COLOR_TOLERANCE,
  defaultFeeds,
  describeFilament,
  matchFilaments,
  unfitReason,
  type PrinterSnapshot,
} from '../../../appliance/dashboard/queue/matching.js';
import type { JobRequirements, PrintFormat } from '../../../appliance/dashboard/queue/job.js';

const any: JobRequirements = { printer_ids: [], printer_type: null, printer_model: null, nozzle_diameter: null, filaments: [] };

const bambu: PrinterSnapshot = {
  id: 'b1',
  name: 'B1',
  type: 'bambu-lan',
  model: 'P1S',
  nozzle_diameter: 0.4,
  format: 'gcode.3mf',
  printer_profile: 'bambu-lab-p1s-0.4',
  loaded: [
    { slot: { kind: 'ams', unit: 0, tray: 0 }, material: 'PLA', color_hex: '#FFFFFF', spool_id: 4 },
    { slot: { kind: 'ams', unit: 0, tray: 1 }, material: 'PLA', color_hex: '#E02020', spool_id: null },
    { slot: { kind: 'ams', unit: 1, tray: 2 }, material: 'PETG', color_hex: '#1A1A1A', spool_id: null },
    { slot: { kind: 'external' }, material: 'TPU', color_hex: '#00FF00', spool_id: null },
  ],
};

const marlin: PrinterSnapshot = {
  id: 'm1',
  name: 'M1',
  type: 'marlin-serial',
  model: null,
  nozzle_diameter: 0.6,
  format: 'gcode',
  printer_profile: null,
  loaded: [
    { slot: { kind: 'tool', tool: 0 }, material: 'PLA', color_hex: '#000000', spool_id: 1 },
    { slot: { kind: 'tool', tool: 1 }, material: 'PETG', color_hex: null, spool_id: 2 },
  ],
};

/** A print-ready job with these requirements, of this format. */
function fit(requirements: JobRequirements, format: PrintFormat) {
  return { requirements, file: { name: 'j', format, path: 'j', size_bytes: 1 }, slice: null };
}

test('fit: pinned printers, type, model, nozzle and format', () => {
  assert.equal(unfitReason(bambu, fit(any, 'gcode.3mf')), null);
  assert.equal(unfitReason(bambu, fit({ ...any, printer_ids: ['m1'] }, 'gcode.3mf')), 'not one of the printers the job names');
  assert.equal(unfitReason(bambu, fit({ ...any, printer_type: 'marlin-serial' }, 'gcode.3mf')), 'not a marlin-serial printer');
  assert.equal(unfitReason(bambu, fit({ ...any, printer_model: 'p1s' }, 'gcode.3mf')), null);
  assert.equal(unfitReason(bambu, fit({ ...any, printer_model: 'X1C' }, 'gcode.3mf')), 'not a X1C');
  assert.equal(unfitReason(marlin, fit({ ...any, nozzle_diameter: 0.4 }, 'gcode')), 'no 0.4 mm nozzle');
  assert.equal(unfitReason(marlin, fit(any, 'gcode.3mf')), 'does not print .gcode.3mf projects');
  const model = { ...fit(any, 'gcode'), file: { name: 'm.stl', format: null, path: 'm', size_bytes: 1 } };
  const spec = {
    printer_profile_id: null,
    filament_ids: ['generic-pla'],
    process_id: 'p',
    overrides: {},
    owner: { kind: 'user' as const, id: 'u', name: 'u' },
  };
  assert.equal(unfitReason(marlin, { ...model, slice: spec }), 'has no printer profile to slice with');
  assert.equal(unfitReason(bambu, { ...model, slice: spec }), null);
  assert.equal(unfitReason(marlin, { ...model, slice: { ...spec, printer_profile_id: 'generic-marlin-0.4' } }), null);
});

test('Bambu: the AMS mapping of this printer; colours within the tolerance; the external spool', () => {
  const match = matchFilaments(bambu, [
    { filament: 1, material: 'PETG', color_hex: '#000000' },
    { filament: 2, material: 'pla', color_hex: '#FF0000' },
    { filament: 3, material: 'TPU', color_hex: null },
  ]);
  assert.ok(!('missing' in match));
  assert.deepEqual(match.ams_mapping, [6, 1, -1]);
  assert.deepEqual(
    match.filaments.map((f) => [f.filament, f.slot, f.spool_id]),
    [
      [1, { kind: 'ams', unit: 1, tray: 2 }, null],
      [2, { kind: 'ams', unit: 0, tray: 1 }, null],
      [3, { kind: 'external' }, null],
    ],
  );
  // Grey is not black: #555555 is 177 from the loaded #1A1A1A, past the tolerance.
  assert.ok(COLOR_TOLERANCE < 177);
  assert.deepEqual(matchFilaments(bambu, [{ filament: 1, material: 'PETG', color_hex: '#555555' }]), {
    missing: [{ filament: 1, material: 'PETG', color_hex: '#555555' }],
  });
  assert.deepEqual(matchFilaments(bambu, [{ filament: 1, material: 'PLA-CF', color_hex: null }]), {
    missing: [{ filament: 1, material: 'PLA-CF', color_hex: null }],
  });
  assert.deepEqual(matchFilaments({ ...bambu, loaded: null }, [{ filament: 1, material: 'PLA', color_hex: null }]), {
    missing: [{ filament: 1, material: 'PLA', color_hex: null }],
  });
});

test('Marlin: filament n on tool n−1, the spool named', () => {
  const match = matchFilaments(marlin, [
    { filament: 1, material: 'PLA', color_hex: '#101010' },
    { filament: 2, material: 'PETG', color_hex: null },
  ]);
  assert.ok(!('missing' in match));
  assert.deepEqual(
    match.filaments.map((f) => [f.slot, f.spool_id]),
    [
      [{ kind: 'tool', tool: 0 }, 1],
      [{ kind: 'tool', tool: 1 }, 2],
    ],
  );
  // PETG is loaded, but on T1: filament 1 asks for T0.
  assert.ok('missing' in matchFilaments(marlin, [{ filament: 1, material: 'PETG', color_hex: null }]));
  assert.deepEqual(matchFilaments(marlin, []), { filaments: [], ams_mapping: null });
});

test('filaments read as an operator says them', () => {
  assert.equal(describeFilament({ material: 'PETG', color_hex: '#000000' }), 'PETG black (#000000)');
  assert.equal(describeFilament({ material: 'PLA', color_hex: '#1E3FBF' }), 'PLA blue (#1E3FBF)');
  assert.equal(describeFilament({ material: 'PLA', color_hex: '#7FFFD4' }), 'PLA #7FFFD4');
  assert.equal(describeFilament({ material: 'ASA', color_hex: null }), 'ASA');
});

test('a job that names no filament: the default feeds, where something is loaded', () => {
  assert.deepEqual(
    defaultFeeds(marlin, 3).map((f) => [f.filament, f.slot, f.spool_id]),
    [
      [1, { kind: 'tool', tool: 0 }, 1],
      [2, { kind: 'tool', tool: 1 }, 2],
    ],
  );
  assert.deepEqual(
    defaultFeeds(bambu, 2).map((f) => [f.filament, f.slot, f.material]),
    [
      [1, { kind: 'ams', unit: 0, tray: 0 }, 'PLA'],
      [2, { kind: 'ams', unit: 0, tray: 1 }, 'PLA'],
    ],
  );
  assert.deepEqual(defaultFeeds({ ...bambu, loaded: null }, 1), []);
});
