/**
 * G-code text written straight into bytes: numbers become ASCII digits in place and lines are
 * never built as strings. The formatter writes a whole layer here and hands the bytes on; as
 * strings, a 2.8 MB file allocated 30 MB of short-lived pieces and was encoded once more on its
 * way to the file (the rigid3d platform: a fifth of the command line's young-generation GCs).
 */

const SCALES = [1, 10, 100, 1000, 10000, 100000, 1000000];
const ZERO = 0x30;
const MINUS = 0x2d;
const DOT = 0x2e;
const SPACE = 0x20;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT32_MAX = 0x7fffffff;
/** Texts up to this length are copied by hand when they are ASCII. */
const SHORT_TEXT = 64;
/** Bytes of the slabs `take` copies into: a layer's G-code is a few kB, the file sink writes in 1 MB batches. */
const SLAB_BYTES = 1 << 18;
/** Sign, 16 digits and a point: the longest number `fixed` writes itself (after its word's space and letter). */
const MAX_NUMBER_BYTES = 18;

/** Bytes of a line's text, digits of a number, with the room they need made as they are written. */
export class AsciiOut {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private length = 0;
  /** Where `take` puts its copies, and how much of it they fill. */
  private slab = Buffer.alloc(0);
  private slabUsed = 0;
  /** Where `fixed` puts its number for `fixedAt`. */
  private readonly value = new Float64Array(1);

  /**
   * Any text (UTF-8: custom G-code and object names may hold any character). A short ASCII text
   * (a comment, a command) is copied by hand: `Buffer.write` checks its arguments on every call.
   */
  text(s: string): void {
    const n = s.length;
    this.room(n * 3);
    if (n <= SHORT_TEXT) {
      const bytes = this.bytes;
      const from = this.length;
      let k = 0;
      while (k < n) {
        const code = s.charCodeAt(k);
        if (code >= 0x80) break;
        bytes[from + k++] = code;
      }
      if (k === n) {
        this.length = from + n;
        return;
      }
    }
    this.length += this.bytes.write(s, this.length, 'utf8');
  }

  /** One ASCII character by its code. */
  char(code: number): void {
    this.room(1);
    this.bytes[this.length++] = code;
  }

  /** Two ASCII characters: a space and an axis letter, the usual start of a word. */
  pair(a: number, b: number): void {
    this.room(2);
    this.bytes[this.length++] = a;
    this.bytes[this.length++] = b;
  }

  /** A whole number ≥ 0 below 2^53. */
  uint(n: number): void {
    if (n <= INT32_MAX) {
      // Feed rates and counts: 32-bit integer arithmetic, as in `digits32`.
      let m = n | 0;
      const digits = decimalDigits(m);
      this.room(digits);
      const bytes = this.bytes;
      let at = this.length + digits;
      do {
        const q = (m / 10) | 0;
        bytes[--at] = ZERO + (m - q * 10);
        m = q;
      } while (m > 0);
      this.length += digits;
      return;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    this.room(digits);
    const bytes = this.bytes;
    let at = this.length + digits;
    do {
      const digit = n % 10;
      bytes[--at] = ZERO + digit;
      n = (n - digit) / 10;
    } while (n > 0);
    this.length += digits;
  }

  /** An integer, as `String(Math.round(v))` writes it. */
  int(v: number): void {
    const n = Math.round(v);
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE)) {
      this.text(String(n));
      return;
    }
    if (n < 0) {
      this.char(MINUS);
      this.uint(-n);
    } else this.uint(n);
  }

  /**
   * A number with at most `decimals` decimals (≤ 6) and no trailing zeros: "12.3", "5", "-0.25";
   * after a space and `letter` when one is given (a word of a move, " X12.3").
   */
  fixed(v: number, decimals: number, letter = 0): void {
    this.value[0] = v;
    this.fixedAt(this.value, 0, decimals, letter);
  }

  /**
   * `fixed` of `values[index]`. The formatter writes three or four words per move this way: one
   * call per word, and the number read from an array rather than passed, which (this function
   * being too long to inline) would allocate it for the call.
   */
  fixedAt(values: Float64Array, index: number, decimals: number, letter: number): void {
    const v = values[index];
    this.room(MAX_NUMBER_BYTES + 2);
    const bytes = this.bytes;
    if (letter !== 0) {
      bytes[this.length++] = SPACE;
      bytes[this.length++] = letter;
    }
    let n = Math.round(v * SCALES[decimals]);
    // Math.round gives an integer, or NaN or an infinity, which fail both tests.
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE)) {
      this.text(String(v));
      return;
    }
    if (n === 0) {
      bytes[this.length++] = ZERO;
      return;
    }
    if (n < 0) {
      bytes[this.length++] = MINUS;
      n = -n;
    }
    // Numbers below 2^31 (every coordinate, E up to 21 m) in 32-bit integer arithmetic, which V8
    // turns into a few instructions; larger ones in floating point, where `%` is a library call.
    if (n <= INT32_MAX) this.digits32(n | 0, decimals);
    else this.digits53(n, decimals);
  }

  /**
   * The digits of `m` / 10^decimals, 0 < m < 2^31, trailing zeros of the fraction dropped: written
   * from the last digit back. The room is made.
   */
  private digits32(m: number, decimals: number): void {
    let kept = decimals;
    while (kept > 0 && m % 10 === 0) {
      m = (m / 10) | 0;
      kept--;
    }
    const digits = decimalDigits(m);
    const bytes = this.bytes;
    const end = this.length + (digits > kept ? digits - kept : 1) + (kept > 0 ? kept + 1 : 0);
    let at = end;
    for (let k = 0; k < kept; k++) {
      const q = (m / 10) | 0;
      bytes[--at] = ZERO + (m - q * 10);
      m = q;
    }
    if (kept > 0) bytes[--at] = DOT;
    do {
      const q = (m / 10) | 0;
      bytes[--at] = ZERO + (m - q * 10);
      m = q;
    } while (m > 0);
    this.length = end;
  }

  /** `digits32` for 2^31 ≤ n < 2^53. */
  private digits53(n: number, decimals: number): void {
    let kept = decimals;
    while (kept > 0 && n % 10 === 0) {
      n /= 10;
      kept--;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    const bytes = this.bytes;
    const end = this.length + (digits > kept ? digits - kept : 1) + (kept > 0 ? kept + 1 : 0);
    let at = end;
    for (let k = 0; k < kept; k++) {
      const digit = n % 10;
      bytes[--at] = ZERO + digit;
      n = (n - digit) / 10;
    }
    if (kept > 0) bytes[--at] = DOT;
    do {
      const digit = n % 10;
      bytes[--at] = ZERO + digit;
      n = (n - digit) / 10;
    } while (n > 0);
    this.length = end;
  }

  /** What was written since the last take, as a string, and a fresh start. */
  takeText(): string {
    const text = this.bytes.toString('utf8', 0, this.length);
    this.length = 0;
    return text;
  }

  /**
   * The bytes written since the last take, copied (the receiver may keep them), and a fresh start.
   * The copies are consecutive views into slabs of `SLAB_BYTES`, never written again: a buffer of
   * its own per take was an allocation per layer (850 for the rigid3d platform).
   */
  take(): Buffer {
    const n = this.length;
    if (this.slabUsed + n > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, n));
      this.slabUsed = 0;
    }
    const out = this.slab.subarray(this.slabUsed, this.slabUsed + n);
    this.bytes.copy(out, 0, 0, n);
    this.slabUsed += n;
    this.length = 0;
    return out;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}

/** How many digits 0 ≤ m < 2^31 has: compared, not counted in a loop whose power of ten would leave 32 bits. */
function decimalDigits(m: number): number {
  if (m < 100000) {
    if (m < 100) return m < 10 ? 1 : 2;
    if (m < 1000) return 3;
    return m < 10000 ? 4 : 5;
  }
  if (m < 10000000) return m < 1000000 ? 6 : 7;
  if (m < 100000000) return 8;
  return m < 1000000000 ? 9 : 10;
}

const scratch = new AsciiOut();

/** A number with at most `decimals` decimals and no trailing zeros ("12.3", "5", "-0.25"), as a string. */
export function fmt(v: number, decimals: number): string {
  scratch.fixed(v, decimals);
  return scratch.takeText();
}
