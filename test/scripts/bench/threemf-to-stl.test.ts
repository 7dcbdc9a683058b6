import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { box, cube, to3mf } from '../../fixtures/meshes.js';
import { loadScript } from '../../fixtures/load-script.js';
import { corpusModel, needsShared } from '../../fixtures/shared.js';

interface ConverterModule {
  threeMfTriangles(bytes: Uint8Array): Float32Array;
  binaryStl(triangles: Float32Array, header?: string): Uint8Array;
  threeMfToStl(bytes: Uint8Array): Uint8Array;
}

const converter = await loadScript<ConverterModule>('scripts/bench/threemf-to-stl.mjs');
const CORPUS_3MF = corpusModel('rigid3d_mucit2_platform.3mf');

function bounds(t: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < t.length; i++) {
    min[i % 3] = Math.min(min[i % 3], t[i]);
    max[i % 3] = Math.max(max[i % 3], t[i]);
  }
  return { min, max };
}

/** Signed enclosed volume: positive when the triangles face outwards. */
function volume(t: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < t.length; i += 9) {
    sum +=
      t[i] * (t[i + 4] * t[i + 8] - t[i + 5] * t[i + 7]) -
      t[i + 1] * (t[i + 3] * t[i + 8] - t[i + 5] * t[i + 6]) +
      t[i + 2] * (t[i + 3] * t[i + 7] - t[i + 4] * t[i + 6]);
  }
  return sum / 6;
}

const near = (actual: number[], expected: number[]): void => {
  for (const [i, v] of actual.entries()) assert.ok(Math.abs(v - expected[i]) < 1e-4, `${actual} vs ${expected}`);
};

describe('threeMfTriangles', () => {
  it('places each build item with its transform (row vectors: rotation rows, then translation)', () => {
    // A 10 × 20 × 30 box turned 90° about Z (x' = -y, y' = x), then moved by (100, 50, 5).
    const bytes = to3mf({
      objects: [{ id: 1, mesh: box(10, 20, 30) }],
      items: [{ objectId: 1, transform: [0, 1, 0, -1, 0, 0, 0, 0, 1, 100, 50, 5] }],
    });
    const t = converter.threeMfTriangles(bytes);
    assert.equal(t.length / 9, 12);
    const { min, max } = bounds(t);
    near(min, [80, 50, 5]);
    near(max, [100, 60, 35]);
    assert.ok(Math.abs(volume(t) - 6000) < 1e-3);
  });

  it('applies component transforms before the item transform, also across model parts', () => {
    const bytes = to3mf({
      objects: [
        {
          id: 3,
          components: [
            { objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 20, 0, 0] },
            { objectId: 7, path: '/3D/Objects/part.model' },
          ],
        },
        { id: 1, mesh: cube(10) },
      ],
      parts: { '3D/Objects/part.model': { objects: [{ id: 7, mesh: cube(5) }] } },
      items: [{ objectId: 3, transform: [2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 1, 1] }],
    });
    const t = converter.threeMfTriangles(bytes);
    assert.equal(t.length / 9, 24);
    const { min, max } = bounds(t);
    near(min, [1, 1, 1]);
    near(max, [61, 21, 21]);
    assert.ok(Math.abs(volume(t) - 8 * (1000 + 125)) < 1e-2);
  });

  it('keeps the solid outward-facing under a mirroring transform', () => {
    const bytes = to3mf({ objects: [{ id: 1, mesh: cube(10) }], items: [{ objectId: 1, transform: [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0] }] });
    assert.ok(Math.abs(volume(converter.threeMfTriangles(bytes)) - 1000) < 1e-3);
  });

  it('scales by the model unit and skips items that are not printable', () => {
    const bytes = to3mf({
      unit: 'centimeter',
      objects: [
        { id: 1, mesh: cube(1) },
        { id: 2, mesh: cube(1, [5, 5, 5]) },
      ],
      items: [{ objectId: 1 }, { objectId: 2, printable: false }],
    });
    const t = converter.threeMfTriangles(bytes);
    assert.equal(t.length / 9, 12);
    near(bounds(t).max, [10, 10, 10]);
  });

  it('follows the start part named by the package relationships', () => {
    const bytes = to3mf({ startPart: '3D/main.model', objects: [{ id: 1, mesh: cube(4) }], items: [{ objectId: 1 }] });
    assert.equal(converter.threeMfTriangles(bytes).length / 9, 12);
  });

  it('rejects a build that references a missing object or has nothing to print', () => {
    assert.throws(() => converter.threeMfTriangles(to3mf({ objects: [{ id: 1, mesh: cube(4) }], items: [{ objectId: 9 }] })), /object 9 not found/);
    assert.throws(() => converter.threeMfTriangles(to3mf({ objects: [{ id: 1, mesh: cube(4) }], items: [] })), /no printable triangles/);
  });

  it('gives the corpus 3MF as PrusaSlicer reads it: a standing 170 × 3 × 170 plate, Z up', {
    skip: needsShared(CORPUS_3MF),
  }, () => {
    const t = converter.threeMfTriangles(readFileSync(CORPUS_3MF));
    assert.equal(t.length / 9, 1248);
    const { min, max } = bounds(t);
    near(min, [-84, -2, -84]);
    near(max, [86, 1, 86]);
    // PrusaSlicer 2.5 --info reports 83627.41 + 61.20 mm³ for its two objects.
    assert.ok(Math.abs(volume(t) - 83688.6) < 1);
  });
});

describe('binaryStl', () => {
  it('writes the header, the count and each facet with its unit normal', () => {
    const tri = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const bytes = converter.binaryStl(tri, 'hdr');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(bytes.length, 84 + 50);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 3)), 'hdr');
    assert.equal(view.getUint32(80, true), 1);
    assert.deepEqual(
      [0, 4, 8].map((o) => view.getFloat32(84 + o, true)),
      [0, 0, 1],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => view.getFloat32(96 + k * 4, true)),
      [0, 0, 0, 1, 0, 0, 0, 1, 0],
    );
  });
});
