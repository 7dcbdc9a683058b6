import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gyroidScale, gyroidWaveDistance, gyroidWaves } from '../../../../../appliance/slicer/engine/regions/infill/gyroid.js';
import { bboxOf } from '../../../../../appliance/slicer/engine/geometry/polygon.js';

const spacing = 0.4;
const density = 0.2;
const scale = gyroidScale(spacing, density);
const box = { minX: -3, minY: 5, maxX: 27, maxY: 31 };

/** Distance (mm) from a point to the gyroid section, to first order: |F| / |grad F| in surface units. */
function distance(x: number, y: number, z: number): number {
  const [u, v, w] = [x / scale, y / scale, z / scale];
  const f = Math.sin(u) * Math.cos(v) + Math.sin(v) * Math.cos(w) + Math.sin(w) * Math.cos(u);
  const fx = Math.cos(u) * Math.cos(v) - Math.sin(w) * Math.sin(u);
  const fy = -Math.sin(u) * Math.sin(v) + Math.cos(v) * Math.cos(w);
  return (Math.abs(f) / Math.max(Math.hypot(fx, fy), 1e-9)) * scale;
}

test('scaled as PrusaSlicer/OrcaSlicer scale it: one radian is spacing / (density × 2.44)', () => {
  assert.ok(Math.abs(scale - spacing / (density * 2.44)) < 1e-12);
  assert.ok(Math.abs(gyroidWaveDistance(spacing, density) - Math.PI * scale) < 1e-12);
});

test('the waves lie on the gyroid section within the tolerance at every height', () => {
  for (let z = 0; z < 2 * Math.PI * scale; z += 0.37) {
    const waves = gyroidWaves(box, z, spacing, density, 0.01);
    assert.ok(waves.length > 4);
    let worst = 0;
    for (const w of waves) {
      for (let k = 0; k < w.length; k += 2) {
        assert.ok(distance(w[k], w[k + 1], z) < 1e-6, `vertex off the surface at z ${z}`);
        if (k + 2 < w.length) {
          // Chord midpoints measure how far the polyline strays between vertices.
          worst = Math.max(worst, distance((w[k] + w[k + 2]) / 2, (w[k + 1] + w[k + 3]) / 2, z));
        }
      }
    }
    assert.ok(worst < 0.02, `chords stray ${worst} mm at z ${z}`);
  }
});

test('the waves cover the box and neighbouring waves are about a wave distance apart', () => {
  const waves = gyroidWaves(box, 0, spacing, density, 0.01);
  const b = bboxOf(waves);
  assert.ok(b.minX <= box.minX && b.maxX >= box.maxX && b.minY <= box.minY && b.maxY >= box.maxY);
  // At z = 0 the section is waves along x; at x = 0 they cross y at multiples of pi (in surface units).
  const crossings: number[] = [];
  for (const w of waves) {
    for (let k = 0; k + 2 < w.length; k += 2) {
      if ((w[k] - 0.5) * (w[k + 2] - 0.5) <= 0 && w[k] !== w[k + 2]) {
        crossings.push(w[k + 1] + ((0.5 - w[k]) / (w[k + 2] - w[k])) * (w[k + 3] - w[k + 1]));
      }
    }
  }
  crossings.sort((p, q) => p - q);
  const inside = crossings.filter((y) => y >= box.minY && y <= box.maxY);
  const gaps = inside.slice(1).map((y, i) => y - inside[i]);
  const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
  assert.ok(Math.abs(mean - gyroidWaveDistance(spacing, density)) < 0.05 * mean, `mean gap ${mean}`);
});

test('the waves turn from x to y and back as z climbs', () => {
  const direction = (z: number) => {
    const w = gyroidWaves(box, z, spacing, density, 0.01)[0];
    return Math.abs(w[w.length - 2] - w[0]) > Math.abs(w[w.length - 1] - w[1]) ? 'x' : 'y';
  };
  assert.equal(direction(0), 'x');
  assert.equal(direction((Math.PI / 2) * scale), 'y');
  assert.equal(direction(Math.PI * scale), 'x');
});
