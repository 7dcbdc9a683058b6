import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig, type PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';
import { bambuBedType, bedTemperatures } from '../../../../appliance/slicer/engine/gcode/bed-temperature.js';

const config: PrintConfig = {
  ...defaultConfig(),
  cool_plate_temp: [35, 40],
  cool_plate_temp_initial_layer: [36, 41],
  eng_plate_temp: [45, 80],
  eng_plate_temp_initial_layer: [46, 81],
  hot_plate_temp: [55, 70],
  hot_plate_temp_initial_layer: [56, 71],
  textured_plate_temp: [60, 75],
  textured_plate_temp_initial_layer: [61, 76],
};

test('each plate type picks its own pair of keys', () => {
  const cases: Array<[PrintConfig['curr_bed_type'], number[], number[], string]> = [
    ['Cool Plate', [35, 40], [36, 41], 'cool_plate'],
    ['Engineering Plate', [45, 80], [46, 81], 'eng_plate'],
    ['High Temp Plate', [55, 70], [56, 71], 'hot_plate'],
    ['Textured PEI Plate', [60, 75], [61, 76], 'textured_plate'],
  ];
  for (const [plate, bed, firstLayer, bambu] of cases) {
    const c = { ...config, curr_bed_type: plate };
    assert.deepEqual(bedTemperatures(c), { bed, firstLayer }, plate);
    assert.equal(bambuBedType(c), bambu);
  }
});

test('the result is a copy: changing it leaves the configuration alone', () => {
  const temps = bedTemperatures(config);
  temps.bed[0] = 999;
  assert.equal(config.textured_plate_temp[0], 60);
});

test('an unknown plate type (a config that bypassed the schema) is a configuration error', () => {
  const unchecked = { ...config, curr_bed_type: 'Glass' } as unknown as PrintConfig;
  assert.throws(() => bedTemperatures(unchecked), { code: 'ERR_INVALID_SETTING', message: /curr_bed_type/ });
});
