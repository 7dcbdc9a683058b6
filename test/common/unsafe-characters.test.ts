import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCodePoint, findUnsafeCharacter, hasUnsafeCharacter, UNSAFE_CHARACTERS } from '../../appliance/common/unsafe-characters.js';

/** Every code point the set must hold, by what it does. */
const UNSAFE = {
  c0: [...Array(0x20).keys()],
  del: [0x7f],
  c1: [...Array(0x20).keys()].map((i) => 0x80 + i),
  bidi: [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
  zeroWidth: [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff],
  separators: [0x2028, 0x2029],
  otherInvisible: [0x2061, 0x2064, 0x2065, 0x206a, 0x206f, 0xfff9, 0xfffb],
};

test('every control, bidirectional, zero-width and separator code point is found, and named', () => {
  for (const [group, codePoints] of Object.entries(UNSAFE)) {
    for (const codePoint of codePoints) {
      const text = `ab${String.fromCodePoint(codePoint)}c`;
      assert.deepEqual(findUnsafeCharacter(text), { index: 2, codePoint }, `${group} U+${codePoint.toString(16)}`);
      assert.equal(hasUnsafeCharacter(text), true);
    }
  }
  assert.equal(describeCodePoint(0x202e), 'U+202E (right-to-left override)');
  assert.equal(describeCodePoint(0x0a), 'U+000A (line feed)');
  assert.equal(describeCodePoint(0x1b), 'U+001B (escape)');
  assert.equal(describeCodePoint(0x01), 'U+0001 (control character)');
  assert.equal(describeCodePoint(0x9b), 'U+009B (control sequence introducer)');
  assert.equal(describeCodePoint(0x2066), 'U+2066 (left-to-right isolate)');
  assert.equal(describeCodePoint(0x200b), 'U+200B (zero width space)');
  assert.equal(describeCodePoint(0xfeff), 'U+FEFF (zero width no-break space)');
  assert.equal(describeCodePoint(0x2028), 'U+2028 (line separator)');
  assert.equal(describeCodePoint(0x41), 'U+0041');
});

test('ordinary text of any script, emoji and spaces pass; an unpaired surrogate does not', () => {
  for (const text of [
    'Prusa MK3S+',
    'Café Ø 3D',
    'Imprimante «gauche»',
    'Принтер 2',
    'طابعة',
    'プリンター',
    '打印机 #1',
    '🖨️ Bambu 🐢',
    'no\u00a0break',
    'a\u3000b',
    '',
  ]) {
    assert.equal(findUnsafeCharacter(text), null, text);
  }
  assert.deepEqual(findUnsafeCharacter('x\ud83dy'), { index: 1, codePoint: 0xd83d });
  assert.deepEqual(findUnsafeCharacter('\ude00'), { index: 0, codePoint: 0xde00 });
  assert.equal(describeCodePoint(0xd83d), 'U+D83D (unpaired surrogate)');
});

test('the global pattern finds every occurrence', () => {
  assert.deepEqual('a\u202eb\nc\u200bd'.match(UNSAFE_CHARACTERS), ['\u202e', '\n', '\u200b']);
});
