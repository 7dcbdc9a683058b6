import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { ToolpathRaster } from '../../../../appliance/slicer/engine/preview/toolpath-raster.js';
import { ROLE_COLORS } from '../../../../appliance/slicer/engine/preview/palette.js';
import type { ExtrusionRole } from '../../../../appliance/slicer/engine/toolpath/types.js';
import { blockPrint, island, layer, rectLoop, zigZag } from '../../../fixtures/toolpaths.js';

function pixel(png: PNG, x: number, y: number): [number, number, number, number] {
  const o = (y * png.width + x) * 4;
  return [png.data[o], png.data[o + 1], png.data[o + 2], png.data[o + 3]];
}

function assertColor(actual: number[], role: ExtrusionRole, shade: number, where: string): void {
  const expected = ROLE_COLORS[role].map((c) => c * shade);
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= 1, `${where}: ${actual} is not ${role} (${expected})`);
  assert.equal(actual[3], 255, `${where} is not opaque`);
}

/** Pixel (x, y) of a 100 x 100 image showing bounds 0..100 mm with no margin: 1 px per mm, y up. */
function rasterOf(layers: ReturnType<typeof layer>[], maxZ = 1): PNG {
  const raster = new ToolpathRaster({ width: 100, height: 100, bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxZ, marginPx: 0 });
  for (const [k, l] of layers.entries()) raster.addLayer(l, k === layers.length - 1);
  return PNG.sync.read(Buffer.from(raster.toPng()));
}

test('a printed block: transparent corners, walls, top surface and skirt in their colours', () => {
  const raster = new ToolpathRaster({ width: 300, height: 300, bounds: { minX: 96, minY: 96, maxX: 124, maxY: 124 }, maxZ: 4 });
  const block = blockPrint([100, 100], 20, 20);
  for (const [k, l] of block.entries()) raster.addLayer(l, k === block.length - 1);
  const png = PNG.sync.read(Buffer.from(raster.toPng()));
  assert.deepEqual([png.width, png.height], [300, 300]);
  for (const [x, y] of [
    [0, 0],
    [299, 0],
    [0, 299],
    [299, 299],
  ])
    assert.equal(pixel(png, x, y)[3], 0, `corner ${x},${y}`);
  // The fit: 28 mm span into 300 - 2 * 12 px, centred; mm -> px = (mm - 96) * scale + 12.
  const scale = (300 - 24) / 28;
  const at = (x: number, y: number): [number, number] => [Math.floor((x - 96) * scale + 12), Math.floor(300 - ((y - 96) * scale + 12))];
  assertColor(pixel(png, ...at(110, 110)), 'top-surface', 1, 'centre');
  assertColor(pixel(png, ...at(110, 100.22)), 'outer-wall', 1, 'outer wall');
  assertColor(pixel(png, ...at(110, 100.65)), 'inner-wall', 1, 'inner wall');
  // The skirt is on layer 0 only: the darkest shade.
  assertColor(pixel(png, ...at(110, 97)), 'skirt', 0.55 + 0.45 * (0.2 / 4), 'skirt');
  assert.equal(pixel(png, ...at(110, 98.5))[3], 0, 'gap between skirt and part');
});

test('higher layers paint over lower ones', () => {
  const area = { minX: 20, minY: 20, maxX: 80, maxY: 80 };
  const png = rasterOf(
    [
      layer(0, 0.2, 0.2, { islands: [island(area, [], [zigZag('top-surface', area, 0.5, true, 0.6)])] }),
      layer(1, 0.4, 0.2, { islands: [island(area, [], [zigZag('bridge', { minX: 40, minY: 40, maxX: 60, maxY: 60 }, 0.5, true, 0.6)])] }),
    ],
    0.4,
  );
  assertColor(pixel(png, 50, 50), 'bridge', 1, 'upper layer');
  assertColor(pixel(png, 30, 30), 'top-surface', 0.55 + 0.45 * 0.5, 'lower layer beside it');
});

test('layers without exposed surfaces are left out, and internal infill shows only on the last layer', () => {
  const area = { minX: 20, minY: 20, maxX: 80, maxY: 80 };
  const png = rasterOf(
    [
      layer(0, 0.2, 0.2, { islands: [island(area, [], [zigZag('sparse-infill', { minX: 20, minY: 20, maxX: 30, maxY: 30 }, 0.5, true, 0.6)])] }),
      layer(1, 0.4, 0.2, { islands: [island(area, [], [zigZag('solid-infill', { minX: 60, minY: 60, maxX: 80, maxY: 80 }, 0.5, true, 0.6)])] }),
    ],
    0.4,
  );
  assert.equal(pixel(png, 25, 75)[3], 0, 'the covered layer is not painted');
  assertColor(pixel(png, 70, 30), 'solid-infill', 1, 'the last layer is');
});

test('lines are drawn at their real width, with anti-aliased edges', () => {
  const line = (width: number, y: number): ReturnType<typeof rectLoop> => ({
    ...zigZag('support', { minX: 10, minY: y, maxX: 90, maxY: y }, 1, true, width),
  });
  const png = rasterOf([layer(0, 1, 1, { support: [line(6, 50), line(2, 20.5)] })]);
  const row = (mmY: number): number => 100 - Math.ceil(mmY);
  // Width 6 around y = 50: rows for y 47..53 are covered, beyond is empty.
  for (const y of [47.5, 49.5, 50.5, 52.5]) assert.equal(pixel(png, 50, row(y))[3], 255, `y ${y}`);
  for (const y of [45.5, 54.5]) assert.equal(pixel(png, 50, row(y))[3], 0, `y ${y}`);
  // Width 2 around y = 20.5: edges at 19.5 and 21.5 fall mid-pixel, so those pixels are half covered.
  assert.equal(pixel(png, 50, row(20.5))[3], 255);
  const edge = pixel(png, 50, row(21.5))[3];
  assert.ok(edge > 90 && edge < 165, `edge alpha ${edge}`);
});

test('the picture is fitted to the bounds, keeping the aspect ratio, centred', () => {
  const raster = new ToolpathRaster({ width: 100, height: 100, bounds: { minX: 0, minY: 0, maxX: 200, maxY: 100 }, maxZ: 1, marginPx: 0 });
  raster.addLayer(
    layer(0, 1, 1, {
      islands: [island({ minX: 0, minY: 0, maxX: 200, maxY: 100 }, [rectLoop('outer-wall', { minX: 1, minY: 1, maxX: 199, maxY: 99 }, 2)], [])],
    }),
    true,
  );
  const png = PNG.sync.read(Buffer.from(raster.toPng()));
  assert.equal(pixel(png, 0, 50)[3], 255, 'left edge reached');
  assert.equal(pixel(png, 99, 50)[3], 255, 'right edge reached');
  assert.equal(pixel(png, 50, 25)[3] + pixel(png, 50, 74)[3], 510, 'top and bottom wall at a quarter from each side');
  assert.equal(pixel(png, 50, 10)[3] + pixel(png, 50, 90)[3], 0, 'empty bands above and below');
});

test('image sizes outside 1..2048 are bad requests', () => {
  const bounds = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
  for (const [width, height] of [
    [0, 10],
    [10, 2049],
    [1.5, 10],
    [Number.NaN, 10],
  ]) {
    assert.throws(() => new ToolpathRaster({ width, height, bounds, maxZ: 1 }), { code: 'ERR_BAD_REQUEST', status: 400 });
  }
  assert.doesNotThrow(() => new ToolpathRaster({ width: 1, height: 2048, bounds, maxZ: 1 }));
});
