/**
 * The rule for names people give things (printers, profiles, API keys, notification channels,
 * spools): shown in lists, logs and on printer screens, and told apart by eye. A name must not
 * hold an unsafe character (unsafe-characters.ts: control characters, bidirectional controls,
 * zero-width characters, line and paragraph separators) and must not be only whitespace.
 * A name that passes is stored trimmed and in Unicode normalisation form C, so that two names
 * that look the same are the same (`é` typed as one code point or as `e` + U+0301).
 *
 * Usable two ways: `nameProblem` for code that reads names from files, and the JSON Schema format
 * `display-name` (`NAME_FORMAT`), which the dashboard's validator enforces with the same function.
 */
import { describeCodePoint, findUnsafeCharacter } from './unsafe-characters.js';

/** The JSON Schema `format` of a name: `{type: 'string', format: NAME_FORMAT, …}`. */
export const NAME_FORMAT = 'display-name';

/** The rule in words, for schema descriptions and error details. */
export const NAME_RULE =
  'no control, bidirectional, zero-width or line/paragraph separator characters; not only whitespace; stored trimmed and NFC-normalised';

/**
 * Why `text` cannot be a name, worded to follow the field's name (`name contains U+202E
 * (right-to-left override)`); null when it can. The empty string is left to length checks.
 */
export function nameProblem(text: string): string | null {
  const unsafe = findUnsafeCharacter(text);
  if (unsafe !== null) return `contains ${describeCodePoint(unsafe.codePoint)}`;
  if (text !== '' && text.trim() === '') return 'must not be only whitespace';
  return null;
}

/** The form a name is stored in: without surrounding whitespace, NFC. */
export function normalizeName(text: string): string {
  return text.trim().normalize('NFC');
}
