/**
 * Text as 2D outlines, from the bundled DejaVu Sans Bold (fonts/, Bitstream Vera licence, which
 * allows bundling it; its notice is in fonts/DejaVu-LICENSE.txt) read with opentype.js 1.3.4 (2.0.0
 * failed on DejaVu Sans). Glyph curves are flattened into polygons, y up, in millimetres; the
 * caller fills them with the non-zero rule, which gives counters (the holes of o, A, 8) and joins
 * overlapping glyphs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import opentype, { type Font } from 'opentype.js';
import { repoRoot } from '../../../common/paths.js';

const FONT_FILE = path.join('appliance', 'dashboard', 'model-generation', 'fonts', 'DejaVuSans-Bold.ttf');
/** Segments per quadratic or cubic curve: at 20 mm letters a chord strays under 0.05 mm from the curve. */
const CURVE_STEPS = 8;

export type Point = [number, number];
export type Contour = Point[];

let font: Font | null = null;

function loadFont(): Font {
  if (!font) {
    const bytes = readFileSync(path.join(repoRoot(), FONT_FILE));
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return font;
}

/** Characters the font has no glyph for (they would print as empty boxes). */
export function missingGlyphs(text: string): string[] {
  const loaded = loadFont();
  return [...new Set([...text])].filter((c) => c.trim() !== '' && loaded.charToGlyphIndex(c) === 0);
}

/**
 * The contours of one line of text whose capitals are `capHeight` mm tall, baseline at y = 0,
 * starting at x = 0.
 */
export function textContours(text: string, capHeight: number): Contour[] {
  const loaded = loadFont();
  const os2 = loaded.tables.os2 as { sCapHeight?: number } | undefined;
  const capShare = (os2?.sCapHeight ?? 0.73 * loaded.unitsPerEm) / loaded.unitsPerEm;
  const fontSize = capHeight / capShare;
  const contours: Contour[] = [];
  let current: Contour = [];
  let pen: Point = [0, 0];
  const close = () => {
    if (current.length >= 3) contours.push(current);
    current = [];
  };
  for (const command of loaded.getPath(text, 0, 0, fontSize).commands) {
    if (command.type === 'M') {
      close();
      pen = [command.x, -command.y];
      current.push(pen);
    } else if (command.type === 'L') {
      pen = [command.x, -command.y];
      current.push(pen);
    } else if (command.type === 'Q') {
      const [x0, y0] = pen;
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS;
        const a = (1 - t) ** 2;
        const b = 2 * (1 - t) * t;
        const c = t * t;
        current.push([a * x0 + b * command.x1 + c * command.x, a * y0 - b * command.y1 - c * command.y]);
      }
      pen = [command.x, -command.y];
    } else if (command.type === 'C') {
      const [x0, y0] = pen;
      for (let s = 1; s <= CURVE_STEPS; s++) {
        const t = s / CURVE_STEPS;
        const a = (1 - t) ** 3;
        const b = 3 * (1 - t) ** 2 * t;
        const c = 3 * (1 - t) * t * t;
        const d = t ** 3;
        current.push([a * x0 + b * command.x1 + c * command.x2 + d * command.x, a * y0 - b * command.y1 - c * command.y2 - d * command.y]);
      }
      pen = [command.x, -command.y];
    } else {
      close();
    }
  }
  close();
  return contours;
}
