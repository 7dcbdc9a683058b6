/**
 * Transforms of a whole model (every object together, so their relative places are kept), in a
 * fixed order: lay on the largest flat face, rotate, scale (by factors or to a size), mirror,
 * translate, drop to the bed. Sizes are measured after the rotations, so "to a size" means the
 * size on the bed's axes.
 */
import { type Affine, compose, identity, linearAffine, meshBounds, rotationAffine, transformMesh } from '../../slicer/index.js';
import { largestFlatFaceDown } from './lay-flat.js';
import type { MeshObject } from './read-model.js';

type Triple = [number, number, number];

export interface TransformOptions {
  layFlat?: boolean;
  /** Degrees about X, then Y, then Z. */
  rotate?: Triple;
  /** Factors per axis. */
  scale?: Triple;
  /** Target size per axis in mm; null keeps the axis (scaled like the others when only one is given). */
  size?: [number | null, number | null, number | null];
  mirror?: { x: boolean; y: boolean; z: boolean };
  translate?: Triple;
  dropToBed?: boolean;
}

const scaling = ([x, y, z]: Triple): Affine => linearAffine([x, 0, 0, 0, y, 0, 0, 0, z]);
const translation = ([x, y, z]: Triple): Affine => Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, x, y, z);

function apply(objects: MeshObject[], m: Affine): MeshObject[] {
  return objects.map((o) => ({ name: o.name, mesh: transformMesh(o.mesh, m) }));
}

function bounds(objects: readonly MeshObject[]): { min: Triple; max: Triple } {
  const boxes = objects.map((o) => meshBounds(o.mesh));
  return {
    min: [0, 1, 2].map((k) => Math.min(...boxes.map((b) => b.min[k]))) as Triple,
    max: [0, 1, 2].map((k) => Math.max(...boxes.map((b) => b.max[k]))) as Triple,
  };
}

/** Per-axis factors that bring the model's size to `size`; an axis left out follows a lone given one. */
function factorsForSize(objects: readonly MeshObject[], size: NonNullable<TransformOptions['size']>): Triple {
  const box = bounds(objects);
  const current = [0, 1, 2].map((k) => box.max[k] - box.min[k]);
  const given = [0, 1, 2].filter((k) => size[k] !== null);
  const factors = [0, 1, 2].map((k) => (size[k] !== null && current[k] > 0 ? (size[k] as number) / current[k] : 1)) as Triple;
  if (given.length === 1) return [factors[given[0]], factors[given[0]], factors[given[0]]];
  return factors;
}

export function transformModel(input: readonly MeshObject[], options: TransformOptions): MeshObject[] {
  let objects = [...input];
  let m = identity();
  const step = (next: Affine): void => {
    m = compose(m, next);
  };
  if (options.layFlat) step(largestFlatFaceDown(objects.map((o) => o.mesh)));
  if (options.rotate) {
    const [x, y, z] = options.rotate;
    if (x) step(rotationAffine(0, x));
    if (y) step(rotationAffine(1, y));
    if (z) step(rotationAffine(2, z));
  }
  if (options.size) {
    objects = apply(objects, m);
    m = scaling(factorsForSize(objects, options.size));
  }
  if (options.scale) step(scaling(options.scale));
  if (options.mirror) step(scaling([options.mirror.x ? -1 : 1, options.mirror.y ? -1 : 1, options.mirror.z ? -1 : 1]));
  if (options.translate) step(translation(options.translate));
  objects = apply(objects, m);
  if (options.dropToBed) objects = apply(objects, translation([0, 0, -bounds(objects).min[2]]));
  return objects;
}
