import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameProblem, normalizeName } from '../../appliance/common/names.js';

test('a name with an unsafe character is refused, naming the code point', () => {
  assert.equal(nameProblem('evil\u202egpj.stl'), 'contains U+202E (right-to-left override)');
  assert.equal(nameProblem('left\u2066printer\u2069'), 'contains U+2066 (left-to-right isolate)');
  assert.equal(nameProblem('zero\u200bwidth'), 'contains U+200B (zero width space)');
  assert.equal(nameProblem('line\u2028separator'), 'contains U+2028 (line separator)');
  assert.equal(nameProblem('a\n2026-01-01T00:00:00.000Z INFO  fake line'), 'contains U+000A (line feed)');
  assert.equal(nameProblem('\x1b[2J'), 'contains U+001B (escape)');
  assert.equal(nameProblem('bom\ufeff'), 'contains U+FEFF (zero width no-break space)');
  assert.equal(nameProblem('del\x7f'), 'contains U+007F (delete)');
  assert.equal(nameProblem('c1\x85'), 'contains U+0085 (next line)');
  assert.equal(nameProblem('mark\u200f'), 'contains U+200F (right-to-left mark)');
});

test('a name that is only whitespace is refused; the empty string is left to length checks', () => {
  assert.equal(nameProblem('   '), 'must not be only whitespace');
  assert.equal(nameProblem('\u00a0\u3000'), 'must not be only whitespace');
  assert.equal(nameProblem(''), null);
  assert.equal(nameProblem(' P1S left '), null);
  assert.equal(nameProblem('Café 🖨️'), null);
});

test('names are stored trimmed and in NFC', () => {
  assert.equal(normalizeName('  Cafe\u0301  '), 'Caf\u00e9');
  assert.equal(normalizeName('P1S left'), 'P1S left');
  assert.equal(normalizeName('\u00a0Ender\u00a0'), 'Ender');
});
