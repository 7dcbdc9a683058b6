import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BAMBU_MAX_LABELS, ObjectLabels, bambuSkipMasks } from '../../../../appliance/slicer/engine/gcode/object-labels.js';
import { flavourOf } from '../../../../appliance/slicer/engine/gcode/flavour.js';
import { defaultConfig } from '../../../../appliance/slicer/profiles/schema.js';

test("an M624 mask has the bit of the object's place among the sorted ids, 8 bytes little-endian in base64", () => {
  const masks = bambuSkipMasks([7, 3, 12]);
  // Bambu Studio's single-object files carry AQAAAAAAAAA=: bit 0 of the first byte.
  assert.equal(masks.get(3), 'AQAAAAAAAAA=');
  assert.equal(masks.get(7), 'AgAAAAAAAAA=');
  assert.equal(masks.get(12), 'BAAAAAAAAAA=');
  const many = bambuSkipMasks([...Array(70).keys()].map((k) => k + 1));
  assert.equal(many.get(9), 'AAEAAAAAAAA=', 'place 8 is bit 0 of the second byte');
  assert.equal(many.get(64), 'AAAAAAAAAIA=', 'place 63 is the top bit');
  assert.equal(many.size, BAMBU_MAX_LABELS, 'objects past the 64th get no mask');
});

test('each flavour labels an object its own way; Bambu objects past the 64th are announced but not skippable', () => {
  const obj = { id: 2, label: 'part_id_2', name: 'part\nTwo' };
  const labels = (flavour: 'marlin2' | 'klipper' | 'bambu', objects = [obj]) => new ObjectLabels(defaultConfig(), flavourOf(flavour), objects);
  assert.deepEqual(labels('marlin2').start(obj), ['; printing object part Two', 'M486 S2']);
  assert.deepEqual(labels('marlin2').end(obj), ['M486 S-1']);
  assert.deepEqual(labels('klipper').start(obj), ['EXCLUDE_OBJECT_START NAME=part_id_2']);
  assert.deepEqual(labels('bambu').start(obj), ['; start printing object, unique label id: 2', 'M624 AQAAAAAAAAA=']);
  assert.deepEqual(labels('bambu').end(obj), ['; stop printing object, unique label id: 2', 'M625']);
  const crowd = [...Array(65).keys()].map((k) => ({ id: k + 1, label: `o${k + 1}`, name: `o${k + 1}` }));
  assert.deepEqual(labels('bambu', crowd).start(crowd[64]), ['; start printing object, unique label id: 65']);
  assert.deepEqual(labels('bambu', crowd).end(crowd[64]), ['; stop printing object, unique label id: 65']);
  const off = new ObjectLabels({ ...defaultConfig(), gcode_label_objects: false }, flavourOf('bambu'), [obj]);
  assert.deepEqual([...off.start(obj), ...off.end(obj)], []);
});
