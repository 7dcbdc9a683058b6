import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AsciiOut, fmt } from '../../../../appliance/slicer/engine/gcode/ascii-out.js';

test('fmt writes the fewest digits that keep the value', () => {
  assert.equal(fmt(12.3, 3), '12.3');
  assert.equal(fmt(5, 3), '5');
  assert.equal(fmt(-0.25, 3), '-0.25');
  assert.equal(fmt(-0.0004, 3), '0');
  assert.equal(fmt(123.45678, 3), '123.457');
  assert.equal(fmt(0.00001, 5), '0.00001');
  assert.equal(fmt(1.0005, 3), '1.001');
  assert.equal(fmt(1.005, 3), '1.005');
  assert.equal(fmt(1.05, 3), '1.05');
  assert.equal(fmt(-220.1, 3), '-220.1');
  assert.equal(fmt(10, 0), '10');
});

/** What the digits must read: toFixed, then trailing zeros (and a bare point) dropped, no "-0". */
function reference(v: number, decimals: number): string {
  const scaled = Math.round(v * 10 ** decimals);
  if (scaled === 0) return '0';
  const text = (Math.abs(scaled) / 10 ** decimals).toFixed(decimals).replace(/\.?0+$/, '');
  return scaled < 0 ? `-${text}` : text;
}

test('numbers written as bytes read as their rounded values, for coordinates and extrusions alike', () => {
  const out = new AsciiOut();
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const expected: string[] = [];
  for (let k = 0; k < 20000; k++) {
    const decimals = k % 2 === 0 ? 3 : 5;
    const v = (random() - 0.5) * (k % 3 === 0 ? 2 : 700);
    out.fixed(v, decimals);
    out.char(0x20);
    expected.push(reference(v, decimals));
  }
  assert.deepEqual(out.takeText().trimEnd().split(' '), expected);
});

test('integers, text and growth past the first buffer', () => {
  const out = new AsciiOut();
  out.int(0);
  out.char(0x20);
  out.int(-42);
  out.char(0x20);
  out.int(7199.6);
  out.char(0x20);
  out.int(9007199254740991);
  out.text(' ; Zahnräder ✓');
  assert.equal(out.takeText(), '0 -42 7200 9007199254740991 ; Zahnräder ✓');
  const long = 'G1 X1.5 Y2.25 E0.03125 F1800\n'.repeat(5000);
  out.text(long);
  out.pair(0x4d, 0x31);
  const bytes = out.take();
  assert.equal(bytes.toString(), `${long}M1`);
  assert.equal(out.take().length, 0, 'a take starts the next piece empty');
});

test('pieces taken are kept intact while more is written and taken, small and larger than a slab', () => {
  const out = new AsciiOut();
  const expected: string[] = [];
  const taken: Buffer[] = [];
  for (let k = 0; k < 3000; k++) {
    const text = k % 997 === 0 ? `;big ${k}\n`.repeat(40000) : `G1 X${k} Y${k % 7}\n`.repeat(1 + (k % 50));
    out.text(text);
    expected.push(text);
    taken.push(out.take());
  }
  for (const [k, bytes] of taken.entries()) assert.equal(bytes.toString(), expected[k], `piece ${k}`);
});

test('a word of a move: a space and its letter before the number, also where the number is zero or not finite', () => {
  const out = new AsciiOut();
  out.text('G1');
  out.fixed(12.3456, 3, 0x58);
  out.fixed(-0.0001, 3, 0x59);
  out.fixed(0.5, 5, 0x45);
  out.fixed(Number.NaN, 3, 0x5a);
  assert.equal(out.takeText(), 'G1 X12.346 Y0 E0.5 ZNaN');
});

test('numbers past 2^31 in their last unit (E beyond 21 m) read the same as smaller ones', () => {
  const out = new AsciiOut();
  const values = [21474.83647, 21474.83648, 21474.8365, -21474.83648, 26000.1, 99999.99999, 123456.5, 0.00001, 1e9 + 0.5];
  let seed = 3;
  for (let k = 0; k < 5000; k++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    values.push((seed / 2147483648 - 0.5) * 2e5);
  }
  for (const v of values) {
    out.fixed(v, 5);
    out.char(0x20);
  }
  assert.deepEqual(
    out.takeText().trimEnd().split(' '),
    values.map((v) => reference(v, 5)),
  );
});
