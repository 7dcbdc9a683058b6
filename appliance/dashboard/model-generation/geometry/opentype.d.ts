/**
 * The part of opentype.js 1.3.4 that font.ts uses. Written here because @types/opentype.js pulls
 * the DOM library into the whole program (`/// <reference lib="dom" />`), which changes Node's
 * Blob and fetch types for every other module.
 */
declare module 'opentype.js' {
  type PathCommand =
    | { type: 'M' | 'L'; x: number; y: number }
    | { type: 'Q'; x1: number; y1: number; x: number; y: number }
    | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
    | { type: 'Z' };

  interface Font {
    unitsPerEm: number;
    tables: Record<string, unknown>;
    charToGlyphIndex(char: string): number;
    getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] };
  }

  function parse(buffer: ArrayBuffer): Font;

  const opentype: { parse: typeof parse };
  export default opentype;
  export type { Font };
}
