/**
 * Text → a raised sign (letters on a rounded plate, with an optional border and hanging hole) or
 * 3D lettering (letters standing on a base that follows their outline, so the word prints as one
 * piece).
 */
import { type Contour, missingGlyphs, textContours } from '../geometry/font.js';
import { disposing, solidMesh } from '../geometry/manifold.js';
import { roundedRectangle } from '../geometry/shapes.js';
import { type Generator, numberParam } from './generator.js';

interface TextParams {
  text: string;
  style: 'sign' | 'lettering';
  letter_height: number;
  letter_depth: number;
  base_thickness: number;
  margin: number;
  border_width: number;
  hole_diameter: number;
}

function bounds(contours: readonly Contour[]): { minX: number; maxX: number; minY: number; maxY: number } {
  const xs = contours.flatMap((c) => c.map((p) => p[0]));
  const ys = contours.flatMap((c) => c.map((p) => p[1]));
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

export const textGenerator: Generator = {
  id: 'text',
  title: 'Text sign or 3D lettering',
  description: 'One line of text in DejaVu Sans Bold, raised on a plate (sign) or standing on a base that follows the letters (lettering).',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      text: { type: 'string', description: 'The text, one line.', minLength: 1, maxLength: 40, pattern: '\\S', default: 'Printyard' },
      style: {
        type: 'string',
        enum: ['sign', 'lettering'],
        description: 'A plate with the letters raised on it, or letters on their own outline.',
        default: 'sign',
      },
      letter_height: numberParam('Height of capital letters (mm).', 4, 200, 20),
      letter_depth: numberParam('How far the letters (and the border) stand above the base (mm).', 0.4, 50, 2),
      base_thickness: numberParam('Thickness of the plate or base (mm).', 0.6, 30, 3),
      margin: numberParam('Space from the letters to the edge of the plate or base (mm).', 1, 50, 5),
      border_width: numberParam('Width of the raised border around a sign (mm); 0 for none.', 0, 20, 2),
      hole_diameter: numberParam('Diameter of a hanging hole above the text of a sign (mm); 0 for none.', 0, 20, 0),
    },
  },
  check(params) {
    const missing = missingGlyphs(String(params.text));
    return missing.length === 0 ? null : `the font has no letter for ${missing.map((c) => JSON.stringify(c)).join(', ')}`;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as TextParams;
    const { CrossSection, Manifold } = kernel;
    return disposing((keep) => {
      const contours = textContours(p.text, p.letter_height);
      const box = bounds(contours);
      const letters = keep(new CrossSection(contours, 'NonZero'));
      progress(0.3);
      let base: InstanceType<typeof CrossSection>;
      let plate: InstanceType<typeof CrossSection> | null = null;
      if (p.style === 'lettering') {
        base = keep(letters.offset(p.margin, 'Round'));
      } else {
        const holeSpace = p.hole_diameter > 0 ? p.hole_diameter + p.margin : 0;
        const width = box.maxX - box.minX + 2 * p.margin + 2 * p.border_width;
        const depth = box.maxY - box.minY + 2 * p.margin + 2 * p.border_width + holeSpace;
        const centre: [number, number] = [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2 + holeSpace / 2];
        plate = keep(keep(roundedRectangle(kernel, width, depth, p.margin)).translate(centre));
        base = plate;
        if (p.hole_diameter > 0) {
          const hole = keep(keep(CrossSection.circle(p.hole_diameter / 2, 48)).translate([centre[0], box.maxY + p.margin + p.hole_diameter / 2]));
          base = keep(plate.subtract(hole));
        }
      }
      const parts = [keep(base.extrude(p.base_thickness)), keep(keep(letters.extrude(p.letter_depth)).translate([0, 0, p.base_thickness]))];
      if (plate && p.border_width > 0) {
        const ring = keep(plate.subtract(keep(plate.offset(-p.border_width, 'Miter'))));
        parts.push(keep(keep(ring.extrude(p.letter_depth)).translate([0, 0, p.base_thickness])));
      }
      progress(0.6);
      const solid = keep(Manifold.union(parts));
      return { mesh: solidMesh(solid) };
    });
  },
};
