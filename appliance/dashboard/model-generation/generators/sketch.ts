/**
 * A sketch → a solid: an SVG path or document (holes by the fill rule) or an outline with hole
 * polylines, extruded to a height, optionally with its top edge chamfered or rounded. The edge is a stack of
 * thin slabs, each the cross-section inset by the profile at its height (45° for a chamfer, a
 * quarter circle for a rounded edge): 0.1 mm steps at most, finer than a printed layer, so the
 * slicer sees the slope; the bottom stays sharp for the bed.
 */
import { disposing, solidMesh } from '../geometry/manifold.js';
import { type Generator, numberParam } from './generator.js';
import { type SketchSource, SketchError, sketchOutline } from './sketch-outline.js';

interface SketchParams extends SketchSource {
  fill_rule: 'nonzero' | 'evenodd';
  height: number;
  edge: 'none' | 'chamfer' | 'round';
  edge_size: number;
}

/** A tag with a rounded end and a hanging hole (the hole runs the other way, so nonzero cuts it). */
const EXAMPLE_PATH = 'M0 0H50A15 15 0 0 1 50 30H0Z M52 15m-5 0a5 5 0 0 0 10 0a5 5 0 0 0-10 0Z';
const STEP_MM = 0.1;
const MAX_STEPS = 24;
const MAX_POINTS = 5000;

const pointSchema = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 };
const polylineSchema = { type: 'array', items: pointSchema, maxItems: MAX_POINTS };

function problem(params: Record<string, unknown>): string | null {
  const p = params as unknown as SketchParams;
  if (p.edge !== 'none' && p.edge_size >= p.height) return 'edge_size must be less than the height';
  if (p.source === 'points' && p.points.length + p.holes.reduce((n, h) => n + h.length, 0) > MAX_POINTS) {
    return `the outline and holes have more than ${MAX_POINTS} points`;
  }
  try {
    sketchOutline(p);
    return null;
  } catch (err) {
    if (err instanceof SketchError) return err.message;
    throw err;
  }
}

/** How far the profile is inset at height z into an edge of size r. */
function inset(edge: 'chamfer' | 'round', r: number, z: number): number {
  return edge === 'chamfer' ? z : r - Math.sqrt(Math.max(0, r * r - z * z));
}

export const sketchGenerator: Generator = {
  id: 'sketch',
  title: 'Extruded sketch (SVG path or outline)',
  description:
    'An SVG path `d` (M L H V C S Q T A Z, absolute and relative; y down as in SVG, so the drawing reads the same from above), ' +
    'a whole SVG document, or an outline ' +
    'with holes as lists of [x, y] points in mm (y up), extruded to a height, with an optional chamfered or rounded top edge.',
  maxBodyBytes: 128 * 1024,
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      source: {
        type: 'string',
        enum: ['path', 'svg', 'points'],
        description: 'Which input to use: `path`, `svg`, or `points` with `holes`.',
        default: 'path',
      },
      path: {
        type: 'string',
        maxLength: 100_000,
        description: 'SVG path data (the `d` attribute); units are mm unless fit_size scales it.',
        default: EXAMPLE_PATH,
      },
      svg: {
        type: 'string',
        maxLength: 100_000,
        description:
          'A whole SVG document: its <path>, <polygon>, <polyline>, <rect>, <circle> and <ellipse> elements with their transforms ' +
          '(and their groups\'), except those with fill="none"; user units are mm unless fit_size scales it.',
        default: '',
      },
      points: {
        ...polylineSchema,
        description: 'The outline: [x, y] points in mm, closed automatically; it must not cross itself.',
        default: [
          [0, 0],
          [40, 0],
          [40, 25],
          [0, 25],
        ],
      },
      holes: { type: 'array', items: polylineSchema, maxItems: 100, description: 'Holes inside the outline, as point lists like it.', default: [] },
      fill_rule: {
        type: 'string',
        enum: ['nonzero', 'evenodd'],
        description: "For a path or document: SVG's fill rule, which decides what is a hole in each shape.",
        default: 'nonzero',
      },
      height: numberParam('Extrusion height (mm).', 0.4, 200, 5),
      fit_size: numberParam('Scale the drawing so its larger side is this long (mm); 0 takes its units as mm.', 0, 300, 0),
      edge: { type: 'string', enum: ['none', 'chamfer', 'round'], description: 'The top edge: sharp, a 45° chamfer, or rounded.', default: 'none' },
      edge_size: numberParam('Width and height of the chamfer or radius of the rounding (mm).', 0.2, 20, 1),
      tolerance: numberParam('How far the chords of a flattened curve may stray from it (mm).', 0.005, 1, 0.05),
    },
  },
  check: problem,
  generate(kernel, raw, progress) {
    const p = raw as unknown as SketchParams;
    const { CrossSection, Manifold } = kernel;
    return disposing((keep) => {
      const outline = sketchOutline(p);
      const fillRule = p.source !== 'points' && p.fill_rule === 'evenodd' ? 'EvenOdd' : 'NonZero';
      const filled = outline.shapes.map((shape) => keep(new CrossSection(shape, fillRule)));
      let section = filled.length === 1 ? filled[0] : keep(CrossSection.union(filled));
      if (outline.holes.length > 0) section = keep(section.subtract(keep(new CrossSection(outline.holes, 'NonZero'))));
      if (section.area() < 1e-6) throw new Error('the filled shape has no area');
      progress(0.3);
      if (p.edge === 'none') return { mesh: solidMesh(keep(section.extrude(p.height))) };
      const edge = p.edge;
      const steps = Math.min(MAX_STEPS, Math.max(2, Math.ceil(p.edge_size / STEP_MM)));
      const step = p.edge_size / steps;
      const base = p.height - p.edge_size;
      const slabs = [keep(section.extrude(base))];
      for (let k = 0; k < steps; k++) {
        const layer = keep(section.offset(-inset(edge, p.edge_size, (k + 0.5) * step), edge === 'round' ? 'Round' : 'Miter'));
        if (layer.area() < 1e-6)
          throw new Error(`the ${edge === 'round' ? 'rounding' : 'chamfer'} (${p.edge_size} mm) is wider than the shape allows`);
        slabs.push(keep(keep(layer.extrude(step)).translate([0, 0, base + k * step])));
      }
      progress(0.6);
      return { mesh: solidMesh(keep(Manifold.union(slabs))) };
    });
  },
};
