/** The query parameters of the mesh routes: their schemas (validated by the router) and their reading. */
import type { JsonSchema } from '../http/route.js';
import { validationError } from '../http/validate.js';
import { MESH_FORMATS, type MeshFormat } from './read-model.js';
import type { TransformOptions } from './transform.js';

const NUMBER = '-?(\\d+\\.?\\d*|\\.\\d+)';
const triple = (description: string): JsonSchema => ({ type: 'string', pattern: `^${NUMBER},${NUMBER},${NUMBER}$`, maxLength: 100, description });

export const formatQuery = (description: string): Record<string, JsonSchema> => ({
  format: { type: 'string', enum: [...MESH_FORMATS], description },
});

export const nameQuery: Record<string, JsonSchema> = {
  name: {
    type: 'string',
    maxLength: 200,
    pattern: '^[^\\u0000-\\u001f\\u007f/\\\\]+$',
    description: 'File name of the upload: names its object; ending in .stl, bytes that are no known format are read as a binary STL.',
  },
};

export const transformQuery: Record<string, JsonSchema> = {
  lay_flat: { type: 'boolean', description: 'Turn the model so that its largest flat face (one it can rest on) lies on the bed; implies drop.' },
  rotate: triple('Degrees about X, then Y, then Z (counter-clockwise looking down each axis), e.g. `90,0,45`.'),
  scale: {
    type: 'string',
    pattern: `^${NUMBER}(,${NUMBER},${NUMBER})?$`,
    maxLength: 100,
    description: 'One factor for all axes (`2`) or one per axis (`1,1,0.5`); factors must be positive.',
  },
  size: {
    type: 'string',
    pattern: `^(${NUMBER})?,(${NUMBER})?,(${NUMBER})?$`,
    maxLength: 100,
    description:
      'Target size in mm per axis, after rotation; an axis left empty keeps its size, except when only one axis is given: ' +
      'then the model scales uniformly (`,,50` makes it 50 mm tall).',
  },
  mirror: { type: 'string', pattern: '^(x|y|z|xy|xz|yz|xyz)$', description: 'Axes to mirror along (`x` flips X coordinates).' },
  translate: triple('Offset in mm, `x,y,z`.'),
  drop: { type: 'boolean', description: 'Move the model so that its lowest point is at z = 0 (last).' },
};

const numbers = (text: string): number[] => text.split(',').map(Number);

export function meshFormat(query: Record<string, string>, fallback: MeshFormat): MeshFormat {
  return (query.format as MeshFormat | undefined) ?? fallback;
}

export function transformOptions(query: Record<string, string>): TransformOptions {
  const options: TransformOptions = {};
  if (query.lay_flat === 'true') options.layFlat = true;
  if (query.rotate) options.rotate = numbers(query.rotate) as [number, number, number];
  if (query.scale) {
    const factors = numbers(query.scale);
    if (factors.some((f) => !(f > 0))) throw validationError([{ path: 'query/scale', message: 'factors must be greater than 0' }]);
    options.scale = (factors.length === 1 ? [factors[0], factors[0], factors[0]] : factors) as [number, number, number];
  }
  if (query.size) {
    const size = query.size.split(',').map((t) => (t === '' ? null : Number(t))) as [number | null, number | null, number | null];
    if (size.every((s) => s === null)) throw validationError([{ path: 'query/size', message: 'needs a size for at least one axis' }]);
    if (size.some((s) => s !== null && !(s > 0))) throw validationError([{ path: 'query/size', message: 'sizes must be greater than 0' }]);
    options.size = size;
  }
  if (query.mirror) options.mirror = { x: query.mirror.includes('x'), y: query.mirror.includes('y'), z: query.mirror.includes('z') };
  if (query.translate) options.translate = numbers(query.translate) as [number, number, number];
  if (query.drop === 'true' || options.layFlat) options.dropToBed = true;
  if (Object.keys(options).length === 0) {
    throw validationError([{ path: 'query', message: 'names no transform (lay_flat, rotate, scale, size, mirror, translate, drop)' }]);
  }
  return options;
}
