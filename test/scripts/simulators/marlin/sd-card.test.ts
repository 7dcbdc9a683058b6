import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SdCard } from '../../../../scripts/simulators/marlin/sd-card.js';

test('long names get DOS 8.3 short names; 8.3 names are kept, upper-cased', () => {
  const card = new SdCard(false);
  assert.equal(card.put('cube.gcode', 'G28\n').shortName, 'CUBE~1.GCO');
  assert.equal(card.put('cube holder.gcode', 'G28\n').shortName, 'CUBEHO~1.GCO');
  assert.equal(card.put('cube.gcode.backup', 'G28\n').shortName, 'CUBEGC~1.BAC');
  assert.equal(card.put('cube2.gco', 'G28\n').shortName, 'CUBE2.GCO');
  assert.equal(card.put('cube.g', 'G28\n').shortName, 'CUBE.G');
  assert.equal(card.put('Cube.Gcode', 'G28\n').shortName, 'CUBE~2.GCO');
  assert.equal(card.put('cube.gcode', 'M105\n').content.toString(), 'M105\n', 'same long name: replaced');
  assert.equal(card.list().length, 6);
});

test('files are found by short name in any case; by long name only with long-name support', () => {
  const card = new SdCard(false);
  card.put('benchy.gcode', 'G28\n');
  assert.equal(card.find('benchy~1.gco')?.longName, 'benchy.gcode');
  assert.equal(card.find('/BENCHY~1.GCO')?.longName, 'benchy.gcode');
  assert.equal(card.find('benchy.gcode'), undefined);
  const lfn = new SdCard(true);
  lfn.put('benchy.gcode', 'G28\n');
  assert.equal(lfn.find('benchy.gcode')?.shortName, 'BENCHY~1.GCO');
});

test('M28 writes 8.3 names (long ones with long-name support) with CR LF line ends', () => {
  const card = new SdCard(false);
  assert.equal(card.beginWrite('my print.gcode'), null);
  const file = card.beginWrite('part.gco');
  assert.ok(file);
  assert.equal(card.writingFile, file);
  card.writeLine('G28');
  card.writeLine('G1 X10');
  assert.equal(file.content.length, 0, 'the size is known when the file is closed');
  card.endWrite();
  assert.equal(card.writingFile, null);
  assert.equal(card.find('PART.GCO')?.content.toString(), 'G28\r\nG1 X10\r\n');
  assert.ok(new SdCard(true).beginWrite('my print.gcode'));
});

test('a selected file is read command by command, skipping comments, with its byte position', () => {
  const card = new SdCard(false);
  const text = '; sliced\nG28\r\n\nG1 X10 ; move\nM400';
  card.select(card.put('job.gco', text));
  assert.equal(card.readCommand(), 'G28');
  assert.equal(card.job?.position, text.indexOf('\r\n') + 1);
  assert.equal(card.readCommand(), 'G1 X10 ');
  assert.equal(card.readCommand(), 'M400');
  assert.equal(card.job?.position, text.length);
  assert.equal(card.readCommand(), null);
});

test('the file being printed or written cannot be deleted', () => {
  const card = new SdCard(false);
  const file = card.put('job.gco', 'G28\n');
  card.put('old.gco', 'G28\n');
  card.select(file);
  assert.equal(card.remove('JOB.GCO'), false);
  assert.equal(card.remove('OLD.GCO'), true);
  assert.equal(card.remove('OLD.GCO'), false);
  card.deselect();
  assert.equal(card.remove('job.gco'), true);
});
