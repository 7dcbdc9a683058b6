import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GcodeReader,
  Letter,
  commentStartsWith,
  type GcodeSink,
  type GcodeWords,
} from '../../../../appliance/slicer/engine/estimate/gcode-reader.js';
import { isAppError } from '../../../../appliance/common/errors.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Records every sink call as text, so whole streams can be compared. */
class Recorder implements GcodeSink {
  readonly events: string[] = [];

  command(letter: number, code: number, words: GcodeWords): void {
    const parts = [String.fromCharCode(letter) + code];
    for (let i = 0; i < 26; i++) if (words.has(i)) parts.push(LETTERS[i] + words.values[i]);
    this.events.push(parts.join(' '));
  }

  comment(bytes: Uint8Array, start: number, end: number): void {
    this.events.push(`;${Buffer.from(bytes.subarray(start, end)).toString('utf8')}`);
  }

  extended(line: string): void {
    this.events.push(`ext:${line}`);
  }
}

function read(...chunks: (string | Uint8Array)[]): string[] {
  const recorder = new Recorder();
  const reader = new GcodeReader(recorder);
  for (const chunk of chunks) reader.feed(chunk);
  reader.end();
  return recorder.events;
}

test('reads commands, numbers, comments and extended commands', () => {
  assert.deepEqual(read('G1 X10.5 Y-3 E.25 F1800 ; move\n;LAYER_CHANGE\nM204 P1250 R1250 T1500\nSET_VELOCITY_LIMIT ACCEL=3000 ; fast\nT1\n'), [
    'G1 E0.25 F1800 X10.5 Y-3',
    ';LAYER_CHANGE',
    'M204 P1250 R1250 T1500',
    'ext:SET_VELOCITY_LIMIT ACCEL=3000',
    'T1',
  ]);
});

test('accepts packed words, lower case, line numbers, checksums, CRLF and parenthesised comments', () => {
  assert.deepEqual(read('g1x1y2e3\r\nN12 G1 X5*71\nG1 (go) X7 (there)\nG0 X+2\n'), ['G1 E3 X1 Y2', 'G1 X5', 'G1 X7', 'G0 X2']);
});

test('a letter without a number is present with NaN; exponents are not read', () => {
  assert.deepEqual(read('G28 X\nG1 X1E5\n'), ['G28 XNaN', 'G1 E5 X1']);
});

test('ignores blank lines and lines that are not commands', () => {
  assert.deepEqual(read('\n   \n\t\n%\nG\n'), []);
});

test('a line split at any point across chunks reads the same', () => {
  const text = 'G1 X10.125 Y20.5 E1.5\n; comment here\nM205 X8.00 Y8.00 Z0.40 E2.50\nSET_PRESSURE_ADVANCE ADVANCE=0.04\nG1 Z.2 F7800';
  const whole = read(text);
  assert.equal(whole.length, 5);
  for (let cut = 0; cut <= text.length; cut++) {
    assert.deepEqual(read(text.slice(0, cut), text.slice(cut)), whole, `split at ${cut}`);
  }
  const perChar = read(...text.split(''));
  assert.deepEqual(perChar, whole);
});

test('counts lines, including comments and blanks', () => {
  const reader = new GcodeReader(new Recorder());
  reader.feed('G1 X1\n\n;c\nG1 X2');
  reader.end();
  assert.equal(reader.lines, 4);
});

test('a "line" longer than a megabyte is rejected as not G-code', () => {
  const reader = new GcodeReader(new Recorder());
  const blob = 'x'.repeat(600_000);
  reader.feed(blob);
  assert.throws(
    () => reader.feed(blob),
    (err) => isAppError(err) && err.status === 400,
  );
});

test('words give their value only when a number was written', () => {
  let seen: GcodeWords | undefined;
  const reader = new GcodeReader({
    command: (_l, _c, w) => {
      seen = w;
    },
    comment: () => {},
    extended: () => {},
  });
  reader.feed('G28 X Y5\n');
  assert.ok(seen);
  assert.equal(seen.has(Letter.X), true);
  assert.equal(seen.number(Letter.X), undefined);
  assert.equal(seen.number(Letter.Y), 5);
  assert.equal(seen.has(Letter.Z), false);
});

test('bytes and text read the same, split anywhere; non-ASCII comments cannot fake a newline', () => {
  const text = 'G1 X1.5 ; café Ċ\n;LAYER_CHANGE ✓\nG1 Y2\n';
  const bytes = Buffer.from(text, 'utf8');
  const whole = read(text);
  assert.deepEqual(whole, ['G1 X1.5', ';LAYER_CHANGE ✓', 'G1 Y2']);
  for (let cut = 0; cut <= bytes.length; cut++) {
    assert.deepEqual(read(bytes.subarray(0, cut), bytes.subarray(cut)), whole, `split at byte ${cut}`);
  }
});

test('the reader keeps its own copy of an unfinished line', () => {
  const recorder = new Recorder();
  const reader = new GcodeReader(recorder);
  const buffer = Buffer.from('G1 X1\nG1 X2');
  reader.feed(buffer);
  buffer.write('M84 \n');
  reader.feed(Buffer.from('34\n'));
  assert.deepEqual(recorder.events, ['G1 X1', 'G1 X234']);
});

test('commentStartsWith skips the spaces after the semicolon', () => {
  const bytes = Buffer.from('; CHANGE_LAYER');
  assert.equal(commentStartsWith(bytes, 1, bytes.length, 'CHANGE_LAYER'), true);
  assert.equal(commentStartsWith(bytes, 1, bytes.length, 'LAYER'), false);
  assert.equal(commentStartsWith(bytes, 1, 5, 'CHANGE_LAYER'), false);
});
