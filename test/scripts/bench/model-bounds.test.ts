import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { box, toAsciiStl, toBinaryStl } from '../../fixtures/meshes.js';
import { loadScript } from '../../fixtures/load-script.js';

interface BoundsModule {
  stlBounds(bytes: Uint8Array): { min: number[]; max: number[] };
}

const { stlBounds } = await loadScript<BoundsModule>('scripts/bench/model-bounds.mjs');

describe('stlBounds', () => {
  it('reads the box of a binary STL, also one whose header starts with "solid"', () => {
    assert.deepEqual(stlBounds(toBinaryStl(box(10, 20, 30, [-5, 1, 2]), 'solid but binary')), { min: [-5, 1, 2], max: [5, 21, 32] });
  });

  it('reads the box of an ASCII STL', () => {
    assert.deepEqual(stlBounds(toAsciiStl(box(4, 5, 6, [1, 2, 3]))), { min: [1, 2, 3], max: [5, 7, 9] });
  });

  it('refuses a file without vertices', () => {
    assert.throws(() => stlBounds(new TextEncoder().encode('solid empty\nendsolid empty\n')), /no vertices/);
  });
});
