/**
 * Short spool ids: printed on the label and typed at the printer, so they avoid the characters
 * people confuse (0/O, 1/I/L) and are upper case. Four characters from 31 give 923,521 ids; the
 * length grows to five once a quarter of the four-character space has been handed out, so a
 * random draw rarely collides. An id is never handed out twice, even after its spool is deleted.
 */
import { randomInt } from 'node:crypto';

export const SHORT_ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TRIES_PER_LENGTH = 64;

export function newShortId(issued: ReadonlySet<string>): string {
  const base = SHORT_ID_ALPHABET.length;
  for (let length = 4; ; length++) {
    if (issued.size > base ** length / 4) continue;
    for (let attempt = 0; attempt < TRIES_PER_LENGTH; attempt++) {
      let id = '';
      for (let i = 0; i < length; i++) id += SHORT_ID_ALPHABET[randomInt(base)];
      if (!issued.has(id)) return id;
    }
  }
}

/** How people type a short id: any case, with or without spaces or dashes. */
export function normalizeShortId(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}
