/**
 * A picture → a lithophane (thick where the picture is dark, so it shows the picture with a light
 * behind it) or a relief (raised where it is bright, as a height map reads), flat or bent around
 * an arc of a cylinder, with an optional frame. The picture is the request body (PNG or JPEG) and
 * the options are the query; the solid is a height field built as one indexed mesh
 * (geometry/height-field.ts) and checked by manifold-3d, which refuses anything not 2-manifold.
 */
import { type HeightGrid, type HeightSurface, heightFieldMesh } from '../geometry/height-field.js';
import { disposing, solidMesh } from '../geometry/manifold.js';
import { type Brightness, BrightnessSampler, ImageError, readBrightness, readImageHeader } from '../geometry/raster.js';
import { type Generator, numberParam } from './generator.js';

export interface ImageParams {
  mode: 'lithophane' | 'relief';
  width: number;
  min_thickness: number;
  max_thickness: number;
  resolution: number;
  shape: 'flat' | 'standing' | 'curved';
  curve_angle: number;
  border_width: number;
  invert: boolean;
}

/** Grid points at most: about twice as many triangles, a binary STL of about 40 MB. */
export const MAX_GRID_POINTS = 400_000;
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
/** The longest piece (mm) a picture of an unusual shape may make. */
const MAX_LENGTH = 400;

interface Layout {
  ring: boolean;
  sideBorder: number;
  pictureWidth: number;
  pictureHeight: number;
  totalHeight: number;
}

function layout(p: ImageParams, pixelsWide: number, pixelsHigh: number): Layout {
  const ring = p.shape === 'curved' && p.curve_angle >= 360;
  // A full ring has no sides to frame: its picture goes all the way round.
  const sideBorder = ring ? 0 : p.border_width;
  const pictureWidth = p.width - 2 * sideBorder;
  const pictureHeight = (pictureWidth * pixelsHigh) / pixelsWide;
  return { ring, sideBorder, pictureWidth, pictureHeight, totalHeight: pictureHeight + 2 * p.border_width };
}

/**
 * The thickness grid: one point per 1/resolution mm, but no finer than the picture's pixels and no
 * more than MAX_GRID_POINTS in all; each point the mean brightness of the pixels its cell covers.
 */
export function imageHeightGrid(image: Brightness, p: ImageParams): HeightGrid & { ring: boolean } {
  const { ring, sideBorder, pictureWidth, pictureHeight, totalHeight } = layout(p, image.width, image.height);
  let spacing = Math.max(1 / p.resolution, pictureWidth / image.width);
  spacing = Math.max(spacing, Math.sqrt((p.width * totalHeight) / MAX_GRID_POINTS) * 1.02);
  const columns = Math.max(ring ? 3 : 2, Math.round(p.width / spacing) + (ring ? 0 : 1));
  const rows = Math.max(2, Math.round(totalHeight / spacing) + 1);
  const spacingX = p.width / (ring ? columns : columns - 1);
  const spacingY = totalHeight / (rows - 1);
  const sampler = new BrightnessSampler(image);
  const heights = new Float32Array(columns * rows);
  const range = p.max_thickness - p.min_thickness;
  const edge = 1e-6;
  for (let j = 0; j < rows; j++) {
    // Row 0 of the picture is its top, at the largest y.
    const v = 1 - (j * spacingY - p.border_width) / pictureHeight;
    for (let i = 0; i < columns; i++) {
      const u = (i * spacingX - sideBorder) / pictureWidth;
      if (u < -edge || u > 1 + edge || v < -edge || v > 1 + edge) {
        heights[j * columns + i] = p.max_thickness;
        continue;
      }
      const brightness = sampler.mean(Math.min(1, Math.max(0, u)), Math.min(1, Math.max(0, v)), spacingX / pictureWidth, spacingY / pictureHeight);
      const raised = p.mode === 'lithophane' ? 1 - brightness : brightness;
      heights[j * columns + i] = p.min_thickness + range * (p.invert ? 1 - raised : raised);
    }
  }
  return { columns, rows, heights, spacingX, spacingY, ring };
}

function problem(params: Record<string, unknown>): string | null {
  const p = params as unknown as ImageParams;
  if (p.min_thickness >= p.max_thickness) return 'min_thickness must be less than max_thickness';
  const ring = p.shape === 'curved' && p.curve_angle >= 360;
  if (!ring && p.width - 2 * p.border_width < 5) return 'the border leaves less than 5 mm for the picture';
  return null;
}

export const imageGenerator: Generator = {
  id: 'image',
  title: 'Lithophane or relief from a picture',
  description:
    'A PNG or JPEG picture as a lithophane (thick where dark: hold it against a light) or a relief (raised where bright), ' +
    'flat or curved around part or all of a cylinder, with an optional frame. The picture is the request body; the options are query parameters.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: {
        type: 'string',
        enum: ['lithophane', 'relief'],
        description: 'lithophane: thin where the picture is light; relief: raised where it is bright (invert swaps either).',
        default: 'lithophane',
      },
      width: numberParam(
        'Width of the whole piece with its frame (mm); for a curved piece, measured along its back. The height follows the picture.',
        20,
        300,
        100,
      ),
      min_thickness: numberParam('Thickness where the picture is lightest (lithophane) or darkest (relief) (mm).', 0.3, 20, 0.8),
      max_thickness: numberParam('Thickness where it is darkest (lithophane) or brightest (relief), and of the frame (mm).', 0.6, 30, 3.2),
      resolution: numberParam(
        `Grid points per mm; fewer when the picture has fewer pixels, or to keep the grid under ${MAX_GRID_POINTS} points.`,
        0.5,
        10,
        5,
      ),
      shape: {
        type: 'string',
        enum: ['flat', 'standing', 'curved'],
        description: 'Lying flat on the bed, standing upright (finer detail in a lithophane), or standing curved around a cylinder.',
        default: 'flat',
      },
      curve_angle: numberParam('For a curved piece: the angle of the arc (degrees); 360 makes a closed ring (a lamp shade).', 10, 360, 120),
      border_width: numberParam('Width of a frame around the picture, at max_thickness (mm); 0 for none.', 0, 20, 2),
      invert: { type: 'boolean', description: 'Swap thick and thin.', default: false },
    },
  },
  check: problem,
  upload: {
    mediaType: 'image/*',
    maxBytes: MAX_IMAGE_BYTES,
    description: 'The picture, PNG or JPEG (recognised by its content), at most 16 MB and 25 megapixels.',
    check(file, params) {
      try {
        const header = readImageHeader(file);
        const { totalHeight } = layout(params as unknown as ImageParams, header.width, header.height);
        return totalHeight > MAX_LENGTH ? `the picture is so narrow that the piece would be ${Math.round(totalHeight)} mm high` : null;
      } catch (err) {
        if (err instanceof ImageError) return err.message;
        throw err;
      }
    },
  },
  generate(kernel, raw, progress, file) {
    const p = raw as unknown as ImageParams;
    if (!file) throw new Error('the image generator needs a picture');
    return disposing((keep) => {
      const image = readBrightness(file);
      progress(0.2);
      const grid = imageHeightGrid(image, p);
      const surface: HeightSurface =
        p.shape === 'curved'
          ? { kind: 'arc', radius: p.width / ((Math.min(p.curve_angle, 360) * Math.PI) / 180), fullTurn: grid.ring }
          : { kind: p.shape };
      const mesh = heightFieldMesh(grid, surface);
      progress(0.5);
      const solid = keep(new kernel.Manifold(new kernel.Mesh({ numProp: 3, vertProperties: mesh.vertices, triVerts: mesh.indices })));
      const notes: Record<string, unknown> = {
        picture: { format: image.format, width_px: image.width, height_px: image.height },
        grid: { columns: grid.columns, rows: grid.rows, spacing_mm: Math.round(Math.max(grid.spacingX, grid.spacingY) * 1000) / 1000 },
      };
      if (p.mode === 'lithophane')
        notes.print = 'Print with 100 % infill (or walls enough to fill it), so the light passes only through the picture.';
      return { mesh: solidMesh(solid), notes };
    });
  },
};
