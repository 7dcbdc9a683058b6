/**
 * Characters that control a terminal or hide or reorder text when it is shown: C0 and C1 control
 * characters and DEL, Unicode bidirectional marks, embeddings, overrides and isolates, zero-width
 * and other invisible format characters, the line and paragraph separators, and unpaired
 * surrogates (half a character, which no display shows faithfully). A name holding one can look
 * like another name, or like different text (`evil\u202Egpj.stl` shows as `eviljpg.stl`); a log
 * line holding one can forge lines or hide what follows. Names refuse them (names.ts); the logger
 * writes them as visible escapes (logger.ts).
 */

interface UnsafeRange {
  first: number;
  last: number;
  label: string;
}

const range = (first: number, last: number, label: string): UnsafeRange => ({ first, last, label });
const single = (codePoint: number, label: string): UnsafeRange => range(codePoint, codePoint, label);

/** Each code point once, in order; a specific label comes before the range that would cover it. */
const UNSAFE_RANGES: readonly UnsafeRange[] = [
  single(0x09, 'tab'),
  single(0x0a, 'line feed'),
  single(0x0d, 'carriage return'),
  single(0x1b, 'escape'),
  range(0x00, 0x1f, 'control character'),
  single(0x7f, 'delete'),
  single(0x85, 'next line'),
  single(0x9b, 'control sequence introducer'),
  range(0x80, 0x9f, 'control character'),
  single(0x061c, 'arabic letter mark'),
  single(0x200b, 'zero width space'),
  single(0x200c, 'zero width non-joiner'),
  single(0x200d, 'zero width joiner'),
  single(0x200e, 'left-to-right mark'),
  single(0x200f, 'right-to-left mark'),
  single(0x2028, 'line separator'),
  single(0x2029, 'paragraph separator'),
  single(0x202a, 'left-to-right embedding'),
  single(0x202b, 'right-to-left embedding'),
  single(0x202c, 'pop directional formatting'),
  single(0x202d, 'left-to-right override'),
  single(0x202e, 'right-to-left override'),
  single(0x2060, 'word joiner'),
  range(0x2061, 0x2064, 'invisible operator'),
  single(0x2066, 'left-to-right isolate'),
  single(0x2067, 'right-to-left isolate'),
  single(0x2068, 'first strong isolate'),
  single(0x2069, 'pop directional isolate'),
  range(0x2065, 0x206f, 'invisible format character'),
  single(0xfeff, 'zero width no-break space'),
  range(0xfff9, 0xfffb, 'interlinear annotation'),
  range(0xd800, 0xdfff, 'unpaired surrogate'),
];

const hex = (codePoint: number): string => codePoint.toString(16).toUpperCase().padStart(4, '0');

/** A range as it goes into the character class: `\u{…}`, or `\u{…}-\u{…}` for several code points. */
const classRange = ({ first, last }: UnsafeRange): string => (first === last ? `\\u{${hex(first)}}` : `\\u{${hex(first)}}-\\u{${hex(last)}}`);

/** The set as a character class for the `u` flag, under which a surrogate range matches only surrogates without their pair. */
const UNSAFE_CHARACTER_CLASS = `[${UNSAFE_RANGES.map(classRange).join('')}]`;

/** Matches every unsafe character of a text (global: reset `lastIndex` or use it with replace). */
export const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER_CLASS, 'gu');
const FIRST_UNSAFE = new RegExp(UNSAFE_CHARACTER_CLASS, 'u');

/** `U+202E (right-to-left override)`: how messages name a code point. */
export function describeCodePoint(codePoint: number): string {
  const known = UNSAFE_RANGES.find(({ first, last }) => codePoint >= first && codePoint <= last);
  return known === undefined ? `U+${hex(codePoint)}` : `U+${hex(codePoint)} (${known.label})`;
}

/** The first unsafe character of `text`, or null when there is none. */
export function findUnsafeCharacter(text: string): { index: number; codePoint: number } | null {
  const match = FIRST_UNSAFE.exec(text);
  return match === null ? null : { index: match.index, codePoint: match[0].codePointAt(0) as number };
}

export function hasUnsafeCharacter(text: string): boolean {
  return FIRST_UNSAFE.test(text);
}
