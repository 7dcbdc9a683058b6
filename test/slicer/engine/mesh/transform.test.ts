import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compose, concatMeshes, determinant, identity, parseAffine, transformMesh } from '../../../../appliance/slicer/engine/mesh/transform.js';
import { cube, meshVolume } from '../../../fixtures/meshes.js';

const translation = (dx: number, dy: number, dz: number): Float64Array => Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, dx, dy, dz);

const point = (m: Float64Array, x: number, y: number, z: number): number[] => {
  const out = transformMesh({ vertices: Float32Array.of(x, y, z), indices: new Uint32Array(0) }, m).vertices;
  return [...out];
};

describe('affine transforms', () => {
  it('parses 12 numbers and refuses anything else', () => {
    assert.deepEqual([...parseAffine(' 1 0 0\n0 1 0 0 0 1 1e1 -2 3.5 ')!], [1, 0, 0, 0, 1, 0, 0, 0, 1, 10, -2, 3.5]);
    assert.equal(parseAffine('1 0 0 0 1 0 0 0 1 0 0'), null);
    assert.equal(parseAffine('1 0 0 0 1 0 0 0 1 0 0 x'), null);
  });

  it('uses the row-vector convention with the translation last', () => {
    const m = Float64Array.of(0, 1, 0, -1, 0, 0, 0, 0, 1, 5, 6, 7);
    assert.deepEqual(point(m, 1, 2, 3), [-2 + 5, 1 + 6, 3 + 7]);
  });

  it('composes first-then-second', () => {
    const scale = Float64Array.of(2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0);
    assert.deepEqual(point(compose(translation(1, 0, 0), scale), 1, 1, 1), [4, 2, 2]);
    assert.deepEqual(point(compose(scale, translation(1, 0, 0)), 1, 1, 1), [3, 2, 2]);
    assert.deepEqual([...compose(identity(), scale)], [...scale]);
  });

  it('reverses winding under a mirror so the volume stays positive', () => {
    const mirror = Float64Array.of(1, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0);
    assert.equal(determinant(mirror), -1);
    assert.equal(meshVolume(transformMesh(cube(10), mirror)), 1000);
    assert.equal(meshVolume(transformMesh(cube(10), translation(3, 3, 3))), 1000);
  });

  it('concatenates meshes, shifting indices', () => {
    const both = concatMeshes([cube(1), cube(1, [5, 0, 0])]);
    assert.equal(both.vertices.length, 48);
    assert.equal(Math.max(...both.indices), 15);
    assert.equal(meshVolume(both), 2);
  });
});
