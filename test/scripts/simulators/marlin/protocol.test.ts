import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkLine,
  checksum,
  commandLines,
  LineSplitter,
  MAX_COMMAND_LENGTH,
  numberedLine,
  stripFraming,
} from '../../../../scripts/simulators/marlin/protocol.js';

describe('Marlin line framing', () => {
  test('the checksum is the XOR of the bytes before the star', () => {
    assert.equal(checksum('N0 M110 N0'), 125);
    assert.equal(numberedLine(0, 'M110 N0'), 'N0 M110 N0*125');
    assert.equal(checksum(''), 0);
    assert.equal(checksum('AA'), 0);
  });

  test('unnumbered lines are not checked', () => {
    assert.deepEqual(checkLine('M105', 7), { ok: true, lineNumber: null });
    assert.deepEqual(checkLine('G1 X1*99', 7), { ok: true, lineNumber: null });
  });

  test('a numbered line needs the next number and a matching checksum', () => {
    assert.deepEqual(checkLine(numberedLine(8, 'G1 X1'), 7), { ok: true, lineNumber: 8 });
    assert.deepEqual(checkLine(`  ${numberedLine(8, 'G1 X1')}`, 7), { ok: true, lineNumber: 8 });
    assert.deepEqual(checkLine(numberedLine(9, 'G1 X1'), 7), { ok: false, error: 'line-number' });
    assert.deepEqual(checkLine('N8 G1 X1', 7), { ok: false, error: 'no-checksum' });
    const body = 'N8 G1 X1';
    assert.deepEqual(checkLine(`${body}*${checksum(body) ^ 1}`, 7), { ok: false, error: 'checksum' });
  });

  test('M110 may carry any number; the number after M110 counts', () => {
    assert.deepEqual(checkLine(numberedLine(0, 'M110 N0'), 41), { ok: true, lineNumber: 0 });
    assert.deepEqual(checkLine(numberedLine(5, 'M110 N100'), 41), { ok: true, lineNumber: 100 });
  });

  test('stripFraming leaves the command as it is written to an SD file', () => {
    assert.equal(stripFraming(numberedLine(12, 'G1 X5 Y5')), 'G1 X5 Y5');
    assert.equal(stripFraming('M105'), 'M105');
    assert.equal(stripFraming('  N3 M117 Hi  *12'), 'M117 Hi');
  });
});

describe('LineSplitter', () => {
  test('CR and LF end lines, empty lines and comments disappear', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push('G28 ; home\r\n\nM105\rG1 X1'), ['G28 ', 'M105']);
    assert.deepEqual(splitter.push(' Y2\n; only a comment\n'), ['G1 X1 Y2']);
  });

  test('a backslash keeps the next character, backspace erases one', () => {
    assert.deepEqual(new LineSplitter().push('M117 a\\;b\nM10X\b5\n'), ['M117 a;b', 'M105']);
  });

  test('an overlong line is cut at the command buffer size', () => {
    const [line] = new LineSplitter().push(`M117 ${'x'.repeat(200)}\n`);
    assert.equal(line.length, MAX_COMMAND_LENGTH - 1);
  });

  test('clear forgets a partly received line', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push('G1 X'), []);
    splitter.clear();
    assert.deepEqual(splitter.push('M105\n'), ['M105']);
  });

  test('commandLines splits a whole file, the last line without a newline included', () => {
    assert.deepEqual(commandLines('; header\nG28\n\nG1 X1 ; move\nM400'), ['G28', 'G1 X1 ', 'M400']);
  });
});
