import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outputFileName, outputFormatFor, safeFileName } from '../../../appliance/slicer/run/file-name.js';

test('client file names are made safe', () => {
  assert.equal(safeFileName('../../etc/passwd', 'model.stl'), 'passwd');
  assert.equal(safeFileName('C:\\models\\part.stl', 'model.stl'), 'part.stl');
  assert.equal(safeFileName('a"b|c?.stl', 'model.stl'), 'a_b_c_.stl');
  assert.equal(safeFileName('..', 'model.stl'), 'model.stl');
  assert.equal(safeFileName('', 'model.3mf'), 'model.3mf');
  assert.equal(safeFileName('x'.repeat(300), 'm').length, 120);
  assert.equal(safeFileName('evil\u202egpj.stl', 'model.stl'), 'evil_gpj.stl', 'a bidirectional override cannot disguise the name');
  assert.equal(safeFileName('a\u2028b\u200b.stl', 'model.stl'), 'a_b_.stl');
  assert.equal(safeFileName('Würfel – 10 mm.stl', 'model.stl'), 'Würfel – 10 mm.stl');
});

test('the output is named after the model, as G-code or, for a Bambu printer, a .gcode.3mf package', () => {
  assert.equal(outputFormatFor({ gcode_flavor: 'bambu' }), 'gcode.3mf');
  assert.equal(outputFormatFor({ gcode_flavor: 'marlin2' }), 'gcode');
  assert.equal(outputFileName('Benchy.stl', 'gcode'), 'Benchy.gcode');
  assert.equal(outputFileName('Plate.3MF', 'gcode.3mf'), 'Plate.gcode.3mf');
  assert.equal(outputFileName('../x/evil\u202egpj.stl', 'gcode'), 'evil_gpj.gcode');
  assert.equal(outputFileName('.stl', 'gcode'), 'model.gcode', 'nothing left of the name');
});
