/** A client's file name, made safe to use inside our folders and to show. */
import { UNSAFE_CHARACTERS } from '../../common/unsafe-characters.js';

const MAX_NAME_LENGTH = 120;

/** No path, no control, bidirectional or invisible characters, no characters Windows refuses; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const base = name
    .replace(/^.*[\\/]/, '')
    .replace(UNSAFE_CHARACTERS, '_')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    .slice(0, MAX_NAME_LENGTH);
  return base === '' || /^\.+$/.test(base) ? fallback : base;
}
