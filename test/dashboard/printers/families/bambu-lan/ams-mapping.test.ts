import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  colorDistance,
  computeAmsMapping,
  loadedTrays,
  type LoadedTray,
} from '../../../../../appliance/dashboard/printers/families/bambu-lan/ams-mapping.js';
import type { AmsUpdate } from '../../../../../appliance/dashboard/printers/status.js';

const trays: LoadedTray[] = [
  { id: 0, material: 'PLA', color: '#FFFFFFFF' },
  { id: 1, material: 'PLA', color: '#000000FF' },
  { id: 2, material: 'PETG', color: '#F72323FF' },
  { id: 3, material: 'PLA', color: '#0A2989FF' },
  { id: 4, material: 'PLA', color: '#D01010FF' },
];

test('material first, then the nearest colour; the mapping is indexed by filament slot', () => {
  const { mapping, unmatched } = computeAmsMapping(
    [
      { id: 1, type: 'PETG', color: '#FF0000' },
      { id: 3, type: 'PLA', color: '#202020' },
    ],
    trays,
    null,
  );
  assert.deepEqual(mapping, [2, -1, 1], 'filament 2 is not used on this plate');
  assert.deepEqual(unmatched, []);
});

test('different filaments take different trays while there are enough; then they share', () => {
  const reds = computeAmsMapping(
    [
      { id: 1, type: 'PLA', color: '#FF0000' },
      { id: 2, type: 'PLA', color: '#E00000' },
    ],
    trays,
    null,
  );
  assert.deepEqual(reds.mapping, [1, 4], 'the closest pair (dark red, tray 4) first; the other red takes the nearest tray left');
  const many = computeAmsMapping(
    [1, 2, 3].map((id) => ({ id, type: 'PETG', color: '#F72323' })),
    trays,
    null,
  );
  assert.deepEqual(many.mapping, [2, 2, 2]);
});

test('a material no tray has: external spool (-1), unmatched unless the external spool has it', () => {
  const abs = [{ id: 1, type: 'ABS', color: '#00FF00' }];
  assert.deepEqual(computeAmsMapping(abs, trays, null), { mapping: [-1], unmatched: [1] });
  const external = { slot: 0, present: true, material: 'ABS', color: '#00FF00FF', remaining_percent: null };
  assert.deepEqual(computeAmsMapping(abs, trays, external), { mapping: [-1], unmatched: [] });
});

test('only present trays with a material count; global ids are unit * 4 + slot', () => {
  const update: AmsUpdate = {
    printer_id: 'p',
    active_tray: null,
    external: null,
    updated_at: '',
    units: [
      {
        id: 1,
        humidity: null,
        temperature: null,
        trays: [
          { slot: 0, present: false, material: null, color: null, remaining_percent: null },
          { slot: 2, present: true, material: 'pla', color: '#FFFFFFFF', remaining_percent: 10 },
        ],
      },
    ],
  };
  assert.deepEqual(loadedTrays(update), [{ id: 6, material: 'PLA', color: '#FFFFFFFF' }]);
  assert.equal(colorDistance('#000000', '#000000FF'), 0);
  assert.ok(colorDistance('#FF0000', '#EE0000') < colorDistance('#FF0000', '#0000FF'));
});
