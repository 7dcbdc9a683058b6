import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GcodeCommand } from '../../../../scripts/simulators/marlin/gcode-command.js';

test('a numbered move: line number and checksum are skipped, parameters read', () => {
  const cmd = new GcodeCommand('N5 G1 X10.5 Y-2 E.3 F1200*77');
  assert.equal(cmd.key, 'G1');
  assert.equal(cmd.text, 'G1 X10.5 Y-2 E.3 F1200');
  assert.equal(cmd.value('X'), 10.5);
  assert.equal(cmd.value('Y'), -2);
  assert.equal(cmd.value('E'), 0.3);
  assert.equal(cmd.value('F'), 1200);
  assert.equal(cmd.value('Z'), undefined);
  assert.equal(cmd.stringArg, null);
});

test('spaces between letter and number are accepted; lower case is not (a default build)', () => {
  const cmd = new GcodeCommand('G1 X 5 Y6');
  assert.equal(cmd.key, 'G1');
  assert.equal(cmd.value('X'), 5);
  assert.equal(cmd.value('Y'), 6);
  assert.equal(new GcodeCommand('g1 x5').letter, '?');
  const label = new GcodeCommand('M486 S0 A"cube"');
  assert.equal(label.value('S'), 0);
  assert.equal(label.has('C'), false, 'lower-case letters of the name are not parameters');
});

test('parameters without a number are flags', () => {
  const cmd = new GcodeCommand('G28 X Y');
  assert.equal(cmd.has('X'), true);
  assert.equal(cmd.flag('Y'), true);
  assert.equal(cmd.value('X'), undefined);
  assert.equal(cmd.has('Z'), false);
  assert.equal(new GcodeCommand('M999 S0').flag('S'), false);
});

test('file names and messages are string arguments', () => {
  assert.equal(new GcodeCommand('M117 Hello World').stringArg, 'Hello World');
  assert.equal(new GcodeCommand('N3 M23 cube.gco 1234*9').stringArg, 'cube.gco 1234');
  assert.equal(new GcodeCommand('M28 CUBE.GCO').stringArg, 'CUBE.GCO');
});

test('tool changes share one key; anything else is unknown', () => {
  const tool = new GcodeCommand('T1');
  assert.equal(tool.key, 'T');
  assert.equal(tool.code, 1);
  const unknown = new GcodeCommand('X123');
  assert.equal(unknown.letter, '?');
  assert.equal(unknown.text, 'X123');
});
