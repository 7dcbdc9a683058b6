import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import {
  filamentsForPlate,
  parseProjectSettings,
  parseSliceInfo,
  ProjectFilamentReader,
} from '../../../../../appliance/dashboard/printers/families/bambu-lan/project-filaments.js';
import { sliceInfo } from './project-file.js';

test('slice_info.config: the filaments each plate uses, by plate', () => {
  const xml = `${sliceInfo(
    [
      { id: 1, type: 'pla', color: '#00ae42' },
      { id: 3, type: 'PETG-CF', color: '#000000' },
    ],
    2,
  )}<plate><metadata key="index" value="3"/></plate>`;
  const plates = parseSliceInfo(xml);
  assert.deepEqual(plates.get(2), [
    { id: 1, type: 'PLA', color: '#00AE42' },
    { id: 3, type: 'PETG-CF', color: '#000000' },
  ]);
  assert.deepEqual(plates.get(3), []);
});

test('project_settings.config: every configured filament, the fallback', () => {
  assert.deepEqual(parseProjectSettings(JSON.stringify({ filament_type: ['PLA', 'ABS'], filament_colour: ['#FFFFFF'] })), [
    { id: 1, type: 'PLA', color: '#FFFFFF' },
    { id: 2, type: 'ABS', color: null },
  ]);
  assert.deepEqual(parseProjectSettings('not json'), []);
  const configured = { plates: new Map([[1, []]]), configured: [{ id: 1, type: 'PLA', color: null }] };
  assert.deepEqual(filamentsForPlate(configured, 1), [{ id: 1, type: 'PLA', color: null }], 'a plate without slice info falls back');
  assert.equal(filamentsForPlate(null, 1), null);
});

test('read from a stream in small chunks, other parts skipped; a file that is no ZIP gives null', () => {
  const zip = zipSync({
    'Metadata/plate_1.gcode': strToU8('G1 X1\n'.repeat(50_000)),
    'Metadata/slice_info.config': strToU8(sliceInfo([{ id: 2, type: 'PETG', color: '#F72323' }])),
    '3D/3dmodel.model': strToU8('<model/>'),
  });
  const reader = new ProjectFilamentReader();
  for (let at = 0; at < zip.length; at += 1000) reader.push(zip.subarray(at, at + 1000));
  const result = reader.result();
  assert.deepEqual(result?.plates.get(1), [{ id: 2, type: 'PETG', color: '#F72323' }]);
  assert.deepEqual(result?.configured, []);

  const junk = new ProjectFilamentReader();
  junk.push(Buffer.from('G28\nG1 X10\n'));
  assert.equal(junk.result(), null);
});
