/**
 * Decimal numbers read straight from bytes, for the text formats (ASCII STL, 3MF XML): no
 * substring or string-to-number conversion per value, which dominated load time.
 */

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

function isDigit(b: number): boolean {
  return b >= 48 && b <= 57;
}

export class DecimalReader {
  /** Offset just after the number of the last successful `read`. */
  end = 0;

  /**
   * Reads sign, digits, fraction and exponent at `pos`, not past `limit`. Returns NaN when no
   * number starts there. The first 17 significant digits are kept: more than float32 resolves.
   */
  read(bytes: Uint8Array, pos: number, limit: number): number {
    // Signs are factors rather than branches that negate: a branch first taken after the code was
    // optimised (the first negative exponent of a file) throws the optimised code away.
    let p = pos;
    const sign = bytes[p] === 45 ? -1 : 1;
    if (bytes[p] === 45 || bytes[p] === 43) p++;
    let mantissa = 0;
    let significant = 0;
    let exponent = 0;
    let anyDigit = false;
    while (p < limit && isDigit(bytes[p])) {
      anyDigit = true;
      if (significant < 17) {
        mantissa = mantissa * 10 + (bytes[p] - 48);
        if (mantissa !== 0) significant++;
      } else exponent++;
      p++;
    }
    if (p < limit && bytes[p] === 46) {
      p++;
      while (p < limit && isDigit(bytes[p])) {
        anyDigit = true;
        if (significant < 17) {
          mantissa = mantissa * 10 + (bytes[p] - 48);
          if (mantissa !== 0) significant++;
          exponent--;
        }
        p++;
      }
    }
    if (!anyDigit) return NaN;
    if (p < limit && (bytes[p] | 0x20) === 101) {
      p++;
      const expSign = bytes[p] === 45 ? -1 : 1;
      if (bytes[p] === 45 || bytes[p] === 43) p++;
      let e = 0;
      const digitsStart = p;
      while (p < limit && isDigit(bytes[p])) {
        if (e < 10000) e = e * 10 + (bytes[p] - 48);
        p++;
      }
      if (p === digitsStart) return NaN;
      exponent += expSign * e;
    }
    this.end = p;
    const magnitude = Math.abs(exponent);
    const scale = magnitude <= 22 ? POW10[magnitude] : 10 ** magnitude;
    return sign * (exponent < 0 ? mantissa / scale : mantissa * scale);
  }
}
