/**
 * A streaming G-code tokenizer. G-code arrives in chunks of any size, as text or as bytes (a line
 * may be split across chunks); each line becomes one call on a sink: a command with its numeric
 * words, a comment-only line, or a Klipper-style extended command. It works on bytes: reading a
 * byte array is about twice as fast as reading characters of a string, text is encoded into a
 * reused buffer for almost nothing, and a file can be fed as read. The hot path allocates nothing
 * per line: words land in a reused typed array and numbers are read digit by digit.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';

/** Word letters as indexes into `GcodeWords.values` ('A' = 0 … 'Z' = 25). */
export const Letter = {
  B: 1,
  E: 4,
  F: 5,
  I: 8,
  J: 9,
  L: 11,
  P: 15,
  R: 17,
  S: 18,
  T: 19,
  X: 23,
  Y: 24,
  Z: 25,
} as const;

/** Command letters as the sink receives them (char codes). */
export const CommandLetter = { G: 71, M: 77, T: 84 } as const;

/* The reader parses the command number into the slot after 'Z'. */
const CODE_SLOT = 26;

/** The numeric words of one command. A letter given without a number (`G28 X`) is present with NaN. */
export class GcodeWords {
  readonly values = new Float64Array(CODE_SLOT + 1);
  present = 0;

  has(letter: number): boolean {
    return (this.present & (1 << letter)) !== 0;
  }

  /** The value of a letter given with a number, else undefined. */
  number(letter: number): number | undefined {
    if ((this.present & (1 << letter)) === 0) return undefined;
    const v = this.values[letter];
    return Number.isNaN(v) ? undefined : v;
  }
}

export interface GcodeSink {
  /** A command such as `G1` (letter as a char code, upper case; code 1) with its words. */
  command(letter: number, code: number, words: GcodeWords): void;
  /** A line holding only a comment: `bytes` from `start` (just after ';') to `end`. */
  comment(bytes: Uint8Array, start: number, end: number): void;
  /** A Klipper-style extended command (`SET_VELOCITY_LIMIT ACCEL=3000`), comment removed. */
  extended(line: string): void;
}

/* Beyond this a "line" is not G-code (a binary upload, a file without newlines). */
const MAX_LINE_LENGTH = 1 << 20;

const CH_TAB = 9;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_0 = 48;
const CH_9 = 57;
const CH_SEMI = 59;
const CH_A = 65;
const CH_Z = 90;
const CH_UNDERSCORE = 95;
const CH_N = 78;
const CH_LOWER_A = 97;
const CH_LOWER_Z = 122;

function upperLetter(c: number): number {
  if (c <= CH_Z && c >= CH_A) return c;
  if (c >= CH_LOWER_A && c <= CH_LOWER_Z) return c - 32;
  return -1;
}

const NEWLINE = 10;
const EMPTY: Uint8Array = new Uint8Array(0);
const decoder = new TextDecoder();

export class GcodeReader {
  /** The start of a line whose end has not arrived yet. */
  private carry: Uint8Array = EMPTY;
  private scratch: Uint8Array = EMPTY;
  private readonly encoder = new TextEncoder();
  private readonly words = new GcodeWords();
  /** Lines read so far. */
  lines = 0;

  constructor(private readonly sink: GcodeSink) {}

  feed(chunk: string | Uint8Array): void {
    if (typeof chunk !== 'string') {
      this.bytes(chunk);
      return;
    }
    // UTF-8 never turns a non-ASCII character into an ASCII byte, so no false newline or digit.
    if (this.scratch.length < chunk.length * 3) this.scratch = new Uint8Array(chunk.length * 3);
    const { written } = this.encoder.encodeInto(chunk, this.scratch);
    this.bytes(this.scratch.subarray(0, written));
  }

  /** Reads the last line when the input does not end with a newline. */
  end(): void {
    if (this.carry.length === 0) return;
    const line = join(this.carry, EMPTY, true);
    this.carry = EMPTY;
    this.line(line, 0, line.length - 1);
  }

  private bytes(data: Uint8Array): void {
    let start = 0;
    if (this.carry.length > 0) {
      const nl = data.indexOf(NEWLINE);
      if (nl < 0) {
        if (this.carry.length + data.length > MAX_LINE_LENGTH) throw tooLong();
        this.carry = join(this.carry, data, false);
        return;
      }
      const line = join(this.carry, data.subarray(0, nl), true);
      this.carry = EMPTY;
      this.line(line, 0, line.length - 1);
      start = nl + 1;
    }
    for (;;) {
      const nl = data.indexOf(NEWLINE, start);
      if (nl < 0) break;
      this.line(data, start, nl);
      start = nl + 1;
    }
    if (start < data.length) {
      if (data.length - start > MAX_LINE_LENGTH) throw tooLong();
      this.carry = data.slice(start);
    }
  }

  /**
   * One line: a comment, an extended command, or words. The first word is the command (a line
   * number before it is skipped). Numbers are read inline, digit by digit, into the words' typed
   * array: this loop runs for every word of the file, and a returned number would be boxed.
   * Exponents are not read: firmware does not expect them and `X1E5` must stay X then E. The byte
   * at a line's end is always there and is a newline or a carriage return, never part of a
   * number, so digits are scanned without bounds checks.
   */
  private line(text: Uint8Array, start: number, end: number): void {
    this.lines++;
    if (end > start && text[end - 1] === CH_CR) end--;
    let i = skipBlanks(text, start, end);
    if (i >= end) return;
    if (text[i] === CH_SEMI) {
      this.sink.comment(text, i + 1, end);
      return;
    }
    const second = i + 1 < end ? text[i + 1] : CH_SPACE;
    if (upperLetter(text[i]) >= 0 && (upperLetter(second) >= 0 || second === CH_UNDERSCORE)) {
      const semi = text.indexOf(CH_SEMI, i);
      this.sink.extended(decoder.decode(text.subarray(i, semi < 0 || semi > end ? end : semi)).trim());
      return;
    }

    const words = this.words;
    const values = words.values;
    let letter = -1;
    let present = 0;
    while (i < end) {
      let c = text[i];
      if (c === CH_SPACE || c === CH_TAB) {
        i++;
        continue;
      }
      if (c === CH_SEMI || c === CH_STAR) break;
      if (c === CH_LPAREN) {
        const close = text.indexOf(CH_RPAREN, i);
        i = close < 0 || close >= end ? end : close + 1;
        continue;
      }
      const l = upperLetter(c);
      if (l < 0) {
        i++;
        continue;
      }
      c = text[++i];
      let negative = false;
      if (c === CH_MINUS || c === CH_PLUS) {
        negative = c === CH_MINUS;
        c = text[++i];
      }
      let mantissa = 0;
      let digits = 0;
      while (c >= CH_0 && c <= CH_9) {
        mantissa = mantissa * 10 + (c - CH_0);
        digits++;
        c = text[++i];
      }
      let scale = 1;
      if (c === CH_DOT) {
        c = text[++i];
        while (c >= CH_0 && c <= CH_9) {
          mantissa = mantissa * 10 + (c - CH_0);
          scale *= 10;
          digits++;
          c = text[++i];
        }
      }
      let value: number;
      if (digits === 0) value = Number.NaN;
      else value = negative ? -mantissa / scale : mantissa / scale;
      if (letter >= 0) {
        const index = l - CH_A;
        values[index] = value;
        present |= 1 << index;
      } else if (digits === 0) {
        return;
      } else if (l !== CH_N) {
        letter = l;
        values[CODE_SLOT] = value;
      }
    }
    if (letter < 0) return;
    words.present = present;
    this.sink.command(letter, values[CODE_SLOT], words);
  }
}

/** `head` then `tail` in a new array; `terminate` adds a newline, so that a line's end byte exists. */
function join(head: Uint8Array, tail: Uint8Array, terminate: boolean): Uint8Array {
  const out = new Uint8Array(head.length + tail.length + (terminate ? 1 : 0));
  out.set(head);
  out.set(tail, head.length);
  if (terminate) out[out.length - 1] = NEWLINE;
  return out;
}

function skipBlanks(text: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = text[i];
    if (c !== CH_SPACE && c !== CH_TAB) break;
    i++;
  }
  return i;
}

function tooLong(): AppError {
  return new AppError(ErrorCode.badRequest, 400, `not G-code: a line is longer than ${MAX_LINE_LENGTH} bytes`);
}

/** Whether a comment (the bytes after ';') starts with ASCII `prefix`, spaces after the ';' ignored. */
export function commentStartsWith(bytes: Uint8Array, start: number, end: number, prefix: string): boolean {
  const i = skipBlanks(bytes, start, end);
  if (end - i < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[i + k] !== prefix.charCodeAt(k)) return false;
  return true;
}
