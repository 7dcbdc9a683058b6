import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { bridgeBaseDepth, bridgeOverInfill } from '../../../../appliance/slicer/engine/regions/internal-bridges.js';
import { regionParams } from '../../../../appliance/slicer/engine/regions/params.js';
import { cube } from '../../../fixtures/meshes.js';
import { cleanup, config, extrusions, slice } from '../../../fixtures/slicing.js';

function rect(x0: number, y0: number, x1: number, y1: number): ExPolygon {
  return { contour: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1), holes: [] };
}

const WIDTH = 0.4;

/** The sparse areas of the layers under a bridge, nearest first. */
const base =
  (...layers: ExPolygon[][]) =>
  () =>
    layers;

test('internal solid over sparse infill on every layer of the base is bridged', () => {
  const solid = [rect(0, 0, 20, 20)];
  const split = bridgeOverInfill(solid, base([rect(0, 0, 20, 20)], [rect(-5, -5, 25, 25)]), WIDTH);
  assert.ok(Math.abs(totalArea(split.bridge) - 400) < 1e-6, `bridge ${totalArea(split.bridge)}`);
  assert.equal(split.solid.length, 0);
});

test('only the part over sparse infill is bridged; the rest stays solid infill', () => {
  const solid = [rect(0, 0, 20, 20)];
  const split = bridgeOverInfill(solid, base([rect(0, 0, 10, 20)], [rect(0, 0, 20, 20)]), WIDTH);
  assert.ok(Math.abs(totalArea(split.bridge) - 200) < 1e-6, `bridge ${totalArea(split.bridge)}`);
  assert.ok(Math.abs(totalArea(split.solid) - 200) < 1e-6, `solid ${totalArea(split.solid)}`);
});

test('a layer of the base without sparse infill there, or too narrow a strip, is not bridged', () => {
  const solid = [rect(0, 0, 20, 20)];
  const solidBelow = bridgeOverInfill(solid, base([rect(0, 0, 20, 20)], []), WIDTH);
  assert.equal(solidBelow.bridge.length, 0);
  assert.equal(solidBelow.solid, solid);
  // 2 mm is less than twice three bridge widths: PrusaSlicer does not bridge it either.
  const strip = bridgeOverInfill(solid, base([rect(0, 0, 2, 20)], [rect(0, 0, 20, 20)]), WIDTH);
  assert.equal(strip.bridge.length, 0);
});

test('the base is only looked at when there is internal solid infill', () => {
  let asked = 0;
  const split = bridgeOverInfill(
    [],
    () => {
      asked++;
      return [[rect(0, 0, 20, 20)]];
    },
    WIDTH,
  );
  assert.equal(asked, 0);
  assert.equal(split.bridge.length, 0);
});

test('a thick bridge rests on the layers within a nozzle width under it; a thin one on the layer below', async () => {
  const p = regionParams(await config());
  const even = (n: number, h: number) => ({ printZs: Array.from({ length: n }, (_, k) => (k + 1) * h), heights: Array(n).fill(h) });
  const at02 = even(20, 0.2);
  assert.equal(bridgeBaseDepth(10, at02.printZs, at02.heights, p), 2);
  assert.equal(bridgeBaseDepth(1, at02.printZs, at02.heights, p), 1, 'only the first layer is under layer 1');
  assert.equal(bridgeBaseDepth(0, at02.printZs, at02.heights, p), 0);
  const at01 = even(20, 0.1);
  assert.equal(bridgeBaseDepth(10, at01.printZs, at01.heights, p), 4);
  assert.equal(bridgeBaseDepth(10, at02.printZs, at02.heights, { ...p, thickBridges: false }), 1);
  assert.equal(bridgeBaseDepth(10, at02.printZs, at02.heights, { ...p, density: 1 }), 0, 'nothing is sparse at 100 %');
});

test('a cube bridges the first layer of its top shell over the sparse infill, with bridge flow', async () => {
  const c = await config({ sparse_infill_density: 15 });
  const s = await slice(cube(20), c);
  try {
    const moves = extrusions(s.gcode);
    const bridged = new Set(moves.filter((m) => m.type === 'Bridge infill').map((m) => m.z));
    // Layers at 0.2 mm: the top shell's four layers are 19.4 to 20; the lowest rests on sparse infill.
    assert.deepEqual([...bridged], [19.4]);
    const solidAbove = moves.filter((m) => m.z === 19.6 && m.type === 'Solid infill');
    assert.ok(solidAbove.length > 0, 'the shell layers above it are plain solid infill');
    const ePerMm = (m: (typeof moves)[number], k: number) => m.de / Math.hypot(m.x - moves[k - 1].x, m.y - moves[k - 1].y);
    const k = moves.findIndex((m, i) => i > 0 && m.type === 'Bridge infill' && moves[i - 1].type === 'Bridge infill');
    const filamentArea = Math.PI * (c.filament_diameter[0] / 2) ** 2;
    const expected = (Math.PI * 0.4 * 0.4) / 4 / filamentArea;
    assert.ok(Math.abs(ePerMm(moves[k], k) - expected) < 0.02 * expected, `E per mm ${ePerMm(moves[k], k)}, round thread ${expected}`);
  } finally {
    cleanup(s);
  }
  const full = await slice(cube(20), await config({ sparse_infill_density: 100 }));
  try {
    assert.ok(!full.gcode.includes(';TYPE:Bridge infill'), 'nothing is sparse at 100 % infill');
  } finally {
    cleanup(full);
  }
});
