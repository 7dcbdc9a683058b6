import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  HYSTERESIS_PCT,
  humidityLimit,
  materialLimit,
  UNKNOWN_MATERIAL_LIMIT_PCT,
} from '../../../../appliance/dashboard/inventory/locations/humidity.js';

test('material names are matched by family, whatever their suffixes and case', () => {
  const family = (name: string) => materialLimit(name)?.family ?? null;
  assert.deepEqual(
    [
      'PLA',
      'pla+',
      'PLA-CF',
      'Silk PLA',
      'PETG',
      'PETG-CF',
      'PCTG',
      'ABS',
      'ASA',
      'HIPS',
      'TPU 95A',
      'TPE',
      'PA6-CF',
      'PA12',
      'Nylon',
      'PAHT-CF',
    ].map(family),
    ['PLA', 'PLA', 'PLA', 'PLA', 'PETG', 'PETG', 'PETG', 'ABS', 'ASA', 'HIPS', 'TPU', 'TPU', 'PA', 'PA', 'PA', 'PA'],
  );
  assert.deepEqual(['PC', 'PC-ABS', 'PVA', 'BVOH', 'Wood', ''].map(family), ['PC', 'PC', 'PVA', 'PVA', null, null]);
});

test('the limit of a location is the strictest material there, an override wins, nothing stored means no limit', () => {
  assert.deepEqual(humidityLimit(null, ['PLA', 'PETG', 'PLA']), { limit_pct: 40, source: 'material', material: 'PETG' });
  assert.deepEqual(humidityLimit(null, ['PLA', 'PA-CF', 'PVA']), { limit_pct: 15, source: 'material', material: 'PVA' });
  assert.deepEqual(humidityLimit(null, ['PLA', 'Wood fill']), { limit_pct: UNKNOWN_MATERIAL_LIMIT_PCT, source: 'material', material: 'Wood fill' });
  assert.deepEqual(humidityLimit(55, ['PVA']), { limit_pct: 55, source: 'override', material: null });
  assert.equal(humidityLimit(null, []), null);
  assert.ok(HYSTERESIS_PCT > 0);
});
