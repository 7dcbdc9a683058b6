import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { assembleConfig } from '../../../appliance/slicer/profiles/assemble.js';
import { defaultConfig } from '../../../appliance/slicer/profiles/schema.js';

const pla = { filament_type: ['PLA' as const], nozzle_temperature: [210], filament_density: [1.24] };
const petg = { filament_type: ['PETG' as const], nozzle_temperature: [240] };

function isAppError(code: string, pattern: RegExp) {
  return (err: unknown) => err instanceof AppError && err.code === code && pattern.test(err.message);
}

test('defaults, then printer, then process, then filaments, then overrides', () => {
  const config = assembleConfig({
    printerId: 'p',
    printer: { printable_height: 300, retraction_length: [1.5] },
    process: { layer_height: 0.12, wall_loops: 3 },
    filaments: [pla],
    overrides: { wall_loops: '4', sparse_infill_density: '30%' },
  });
  assert.equal(config.printable_height, 300);
  assert.equal(config.layer_height, 0.12);
  assert.equal(config.wall_loops, 4);
  assert.equal(config.sparse_infill_density, 30);
  assert.deepEqual(config.retraction_length, [1.5]);
  assert.equal(config.top_shell_layers, defaultConfig().top_shell_layers);
});

test('filament keys become one element per slot; unset ones take the default', () => {
  const config = assembleConfig({
    printerId: 'ams',
    printer: { max_filaments: 4, single_extruder_multi_material: true },
    process: {},
    filaments: [pla, petg, pla],
  });
  assert.deepEqual(config.filament_type, ['PLA', 'PETG', 'PLA']);
  assert.deepEqual(config.nozzle_temperature, [210, 240, 210]);
  assert.deepEqual(config.filament_density, [1.24, defaultConfig().filament_density[0], 1.24]);
});

test('per-extruder printer keys repeat their last value up to the slot count', () => {
  const config = assembleConfig({
    printerId: 'ams',
    printer: { max_filaments: 4, nozzle_diameter: [0.4], retraction_length: [0.8], extruder_offset: [[0, 0]] },
    process: {},
    filaments: [pla, petg, pla, petg],
  });
  assert.deepEqual(config.nozzle_diameter, [0.4, 0.4, 0.4, 0.4]);
  assert.deepEqual(config.retraction_length, [0.8, 0.8, 0.8, 0.8]);
  assert.deepEqual(config.z_hop, [0, 0, 0, 0]);
  assert.equal(config.extruder_offset.length, 4);
  const partial = assembleConfig({
    printerId: 'mmu',
    printer: { max_filaments: 5, single_extruder_multi_material: true, retraction_length: [0.8, 1.2] },
    process: {},
    filaments: [pla, petg, pla],
  });
  assert.deepEqual(partial.retraction_length, [0.8, 1.2, 1.2], 'the last value repeats, not the first');
  const trimmed = assembleConfig({
    printerId: 'mmu',
    printer: { max_filaments: 5, single_extruder_multi_material: true, nozzle_diameter: [0.4, 0.4, 0.4] },
    process: {},
    filaments: [pla],
  });
  assert.deepEqual(trimmed.nozzle_diameter, [0.4], 'a shared nozzle listed per slot is trimmed to the slots used');
});

test('a single-nozzle printer takes 1 to max_filaments filaments', () => {
  const printer = { max_filaments: 2 };
  assert.throws(
    () => assembleConfig({ printerId: 'p', printer, process: {}, filaments: [] }),
    isAppError('ERR_BAD_REQUEST', /at least one filament/),
  );
  assert.throws(
    () => assembleConfig({ printerId: 'p', printer, process: {}, filaments: [pla, pla, pla] }),
    isAppError('ERR_BAD_REQUEST', /printer "p" takes 1 to 2 filaments, got 3/),
  );
  assert.equal(assembleConfig({ printerId: 'p', printer, process: {}, filaments: [pla, petg] }).filament_type.length, 2);
});

test('a multi-nozzle printer needs exactly one filament per nozzle', () => {
  const printer = { nozzle_diameter: [0.4, 0.6], max_filaments: 1 };
  assert.throws(
    () => assembleConfig({ printerId: 'idex', printer, process: {}, filaments: [pla] }),
    isAppError('ERR_BAD_REQUEST', /printer "idex" has 2 nozzles: give exactly 2 filament profiles, got 1/),
  );
  const config = assembleConfig({ printerId: 'idex', printer, process: {}, filaments: [pla, petg] });
  assert.deepEqual(config.nozzle_diameter, [0.4, 0.6]);
});

test('overrides are checked against the schema and name the key', () => {
  const parts = { printerId: 'p', printer: {}, process: {}, filaments: [pla] };
  assert.throws(
    () => assembleConfig({ ...parts, overrides: { no_such_key: 1 } }),
    (err: unknown) => err instanceof AppError && err.code === 'ERR_UNKNOWN_SETTING' && err.status === 400 && /no_such_key/.test(err.message),
  );
  assert.throws(
    () => assembleConfig({ ...parts, overrides: { wall_loops: 'many' } }),
    (err: unknown) => err instanceof AppError && err.code === 'ERR_INVALID_SETTING' && err.status === 400 && /wall_loops/.test(err.message),
  );
  assert.throws(
    () => assembleConfig({ ...parts, overrides: { nozzle_temperature: [200, 210] } }),
    isAppError('ERR_INVALID_SETTING', /"nozzle_temperature": 2 values given for 1 filament slot/),
  );
});

test('a per-filament override with one value applies to every slot', () => {
  const config = assembleConfig({
    printerId: 'p',
    printer: { max_filaments: 4 },
    process: {},
    filaments: [pla, petg],
    overrides: { nozzle_temperature: 200 },
  });
  assert.deepEqual(config.nozzle_temperature, [200, 200]);
});
