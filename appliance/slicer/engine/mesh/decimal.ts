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
    let p = pos;
    let negative = false;
    if (bytes[p] === 45) {
      negative = true;
      p++;
    } else if (bytes[p] === 43) p++;
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
      let expNegative = false;
      if (bytes[p] === 45) {
        expNegative = true;
        p++;
      } else if (bytes[p] === 43) p++;
      let e = 0;
      const digitsStart = p;
      while (p < limit && isDigit(bytes[p])) {
        if (e < 10000) e = e * 10 + (bytes[p] - 48);
        p++;
      }
      if (p === digitsStart) return NaN;
      exponent += expNegative ? -e : e;
    }
    this.end = p;
    let value = mantissa;
    if (exponent > 0) value = exponent <= 22 ? value * POW10[exponent] : value * 10 ** exponent;
    else if (exponent < 0) value = exponent >= -22 ? value / POW10[-exponent] : value / 10 ** -exponent;
    return negative ? -value : value;
  }
}
