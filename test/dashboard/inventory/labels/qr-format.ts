/**
 * Reads the error correction level of a QR code from a rendered PNG, without trusting the library
 * that drew it: it finds the top-left finder pattern, takes the module size from its width (seven
 * modules), samples the 15 format-information modules around it (ISO/IEC 18004 §7.9, in the order
 * ZXing reads them) and matches them against the 32 valid format codewords, which it computes
 * itself (BCH(15,5) with generator 0x537, masked with 0x5412). zbarimg decodes content but does
 * not report the level, hence this.
 */
import { PNG } from 'pngjs';

export type EcLevel = 'L' | 'M' | 'Q' | 'H';

/** The two error-correction bits of the format information, by value. */
const LEVEL_BY_BITS: Readonly<Record<number, EcLevel>> = { 0b01: 'L', 0b00: 'M', 0b11: 'Q', 0b10: 'H' };

function bchRemainder(data: number): number {
  let value = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (value & (1 << bit)) value ^= 0x537 << (bit - 10);
  return value;
}

/** Every valid 15-bit format codeword, masked, with its 5 data bits (2 level bits, 3 mask bits). */
export function formatCodewords(): Map<number, number> {
  const out = new Map<number, number>();
  for (let data = 0; data < 32; data++) out.set(((data << 10) | bchRemainder(data)) ^ 0x5412, data);
  return out;
}

export interface QrFormat {
  level: EcLevel;
  mask: number;
  /** Pixels per module, as measured on the finder pattern. */
  modulePx: number;
}

export function readQrFormat(png: Buffer): QrFormat {
  const image = PNG.sync.read(png);
  const dark = (x: number, y: number) => image.data[(Math.floor(y) * image.width + Math.floor(x)) * 4] < 128;
  let top = -1;
  let left = -1;
  for (let y = 0; y < image.height && top < 0; y++) {
    for (let x = 0; x < image.width && top < 0; x++) if (dark(x, y)) [top, left] = [y, x];
  }
  if (top < 0) throw new Error('no dark pixel: not a QR code');
  let run = 0;
  while (left + run < image.width && dark(left + run, top + 1)) run++;
  const modulePx = run / 7;
  const module = (col: number, row: number) => dark(left + (col + 0.5) * modulePx, top + (row + 0.5) * modulePx);
  // (column, row) of the 15 modules, most significant bit first.
  const cells: [number, number][] = [
    [0, 8],
    [1, 8],
    [2, 8],
    [3, 8],
    [4, 8],
    [5, 8],
    [7, 8],
    [8, 8],
    [8, 7],
    [8, 5],
    [8, 4],
    [8, 3],
    [8, 2],
    [8, 1],
    [8, 0],
  ];
  const read = cells.reduce((bits, [col, row]) => (bits << 1) | (module(col, row) ? 1 : 0), 0);
  const data = formatCodewords().get(read);
  if (data === undefined) throw new Error(`the format modules read 0b${read.toString(2).padStart(15, '0')}, not a valid format codeword`);
  return { level: LEVEL_BY_BITS[data >> 3], mask: data & 0b111, modulePx };
}
