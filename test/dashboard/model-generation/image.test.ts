/**
 * The image generator: lithophanes and reliefs from PNG and JPEG, flat, standing, curved and as a closed
 * ring, are closed, manifold solids of the size asked for; the thickness follows the brightness
 * (a grey ramp gives a monotonic profile); the grid stays bounded; unusable pictures are refused
 * with a reason; and the solids slice into G-code the shared checker accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SolidMesh } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';
import {
  type ImageParams,
  imageGenerator,
  imageHeightGrid,
  MAX_GRID_POINTS,
} from '../../../appliance/dashboard/model-generation/generators/image.js';
import { rampJpeg, rampPng } from '../../fixtures/gradient-image.js';
import { acceptedByGcodeCheck, cleanup, config, slice, writeStl } from '../../fixtures/slicing.js';
import { assertSolid } from '../../fixtures/solid-facts.js';

const close = (actual: number, expected: number, within: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= within, `${what} ${actual} is not within ${within} of ${expected}`);

async function image(body: Record<string, unknown>, file: Uint8Array = rampPng(120, 60)) {
  const params = withDefaults(imageGenerator.schema, body);
  assert.equal(imageGenerator.check?.(params) ?? null, null);
  assert.equal(imageGenerator.upload?.check(file, params), null);
  return imageGenerator.generate(await manifoldKernel(), params, () => {}, file);
}

/** The top of the piece along x: the highest z of the vertices at each x (a flat piece's thickness profile). */
function profile(mesh: SolidMesh): number[] {
  const top = new Map<number, number>();
  for (let v = 0; v < mesh.vertices.length; v += 3) {
    const x = Math.round(mesh.vertices[v] * 100);
    top.set(x, Math.max(top.get(x) ?? 0, mesh.vertices[v + 2]));
  }
  return [...top.entries()].sort((a, b) => a[0] - b[0]).map(([, z]) => z);
}

const params = (body: Record<string, unknown>) => withDefaults(imageGenerator.schema, body) as unknown as ImageParams;

describe('pictures become closed solids', () => {
  const cases: [string, Record<string, unknown>, Uint8Array?][] = [
    ['a framed flat lithophane (the defaults)', {}],
    ['an inverted relief without a frame', { mode: 'relief', invert: true, border_width: 0 }],
    ['a lithophane curved over 120°', { shape: 'curved', curve_angle: 120, width: 80 }],
    ['a standing lithophane', { shape: 'standing', width: 60 }],
    ['a closed ring', { shape: 'curved', curve_angle: 360, border_width: 3 }],
    ['a JPEG', { mode: 'relief', width: 60 }, rampJpeg(90, 60)],
  ];
  for (const [name, body, file] of cases) {
    test(name, async () => {
      assertSolid((await image(body, file)).mesh);
    });
  }

  test('a flat piece is as wide as asked, as high as the picture’s aspect plus the frame, as thick as max_thickness', async () => {
    const model = await image({ width: 100, border_width: 2, max_thickness: 3.2 });
    const facts = assertSolid(model.mesh);
    close(facts.size[0], 100, 1e-4, 'width');
    close(facts.size[1], 96 / 2 + 4, 1e-4, 'height: 96 mm of a 2:1 picture and two 2 mm frame sides');
    close(facts.size[2], 3.2, 1e-5, 'the frame is at max_thickness');
    assert.deepEqual(model.notes?.picture, { format: 'png', width_px: 120, height_px: 60 });
  });

  test('a standing piece is as wide as asked, as thick as max_thickness, and stands as high as the picture with its frame', async () => {
    const facts = assertSolid((await image({ shape: 'standing', width: 100, border_width: 2, max_thickness: 3 })).mesh);
    close(facts.size[0], 100, 1e-4, 'width');
    close(facts.size[1], 3, 1e-5, 'thickness');
    close(facts.size[2], 96 / 2 + 4, 1e-4, 'height');
  });

  test('a closed ring is round: its width is its circumference along the back, and it stands as high as the picture', async () => {
    const facts = assertSolid((await image({ shape: 'curved', curve_angle: 360, border_width: 3, width: 100, max_thickness: 3 })).mesh);
    const outer = 2 * (100 / (2 * Math.PI) + 3);
    close(facts.size[0], outer, 0.05, 'diameter across x');
    close(facts.size[1], outer, 0.05, 'diameter across y');
    close(facts.size[2], 50 + 6, 1e-4, 'a 2:1 picture 100 mm round, and the frame above and below');
  });
});

describe('the thickness follows the brightness', () => {
  const ramp = rampPng(200, 20);

  test('a lithophane of a black-to-white ramp thins steadily from max to min thickness', async () => {
    const z = profile((await image({ border_width: 0, width: 100, resolution: 1, min_thickness: 0.8, max_thickness: 3.2 }, ramp)).mesh);
    assert.ok(z.length > 90, `one column per mm: ${z.length}`);
    for (let k = 1; k < z.length; k++) assert.ok(z[k] <= z[k - 1] + 1e-6, `column ${k} (${z[k]}) is thicker than column ${k - 1} (${z[k - 1]})`);
    close(z[0], 3.2, 0.05, 'black is thickest');
    close(z.at(-1) as number, 0.8, 0.05, 'white is thinnest');
  });

  test('a relief rises with the brightness, and invert turns it round', async () => {
    const relief = profile(
      (await image({ mode: 'relief', border_width: 0, width: 100, resolution: 1, min_thickness: 1, max_thickness: 4 }, ramp)).mesh,
    );
    for (let k = 1; k < relief.length; k++) assert.ok(relief[k] >= relief[k - 1] - 1e-6, `column ${k} is lower than column ${k - 1}`);
    close(relief[0], 1, 0.05);
    close(relief.at(-1) as number, 4, 0.05);
    const inverted = profile((await image({ mode: 'relief', invert: true, border_width: 0, width: 100, resolution: 1 }, ramp)).mesh);
    assert.ok(inverted[0] > (inverted.at(-1) as number) + 2);
  });
});

describe('the grid is bounded', () => {
  const synthetic = (width: number, height: number) => ({
    format: 'png' as const,
    width,
    height,
    values: new Float32Array(width * height).fill(0.5),
  });

  test(`a large picture at a fine resolution keeps to ${MAX_GRID_POINTS} grid points`, () => {
    const grid = imageHeightGrid(synthetic(4000, 3000), params({ width: 300, resolution: 10 }));
    assert.ok(grid.columns * grid.rows <= MAX_GRID_POINTS, `${grid.columns} × ${grid.rows}`);
    assert.ok(grid.columns * grid.rows > MAX_GRID_POINTS * 0.9, 'but not far under it');
  });

  test('a small picture gets no more grid points than it has pixels', () => {
    const grid = imageHeightGrid(synthetic(50, 25), params({ width: 100, resolution: 10, border_width: 0 }));
    assert.equal(grid.columns, 51);
    assert.ok(grid.rows <= 26);
  });
});

describe('pictures that cannot be used are refused with a reason', () => {
  const refusal = (file: Uint8Array, body: Record<string, unknown> = {}) =>
    imageGenerator.upload?.check(file, withDefaults(imageGenerator.schema, body)) ?? '';

  test('not a picture, a truncated JPEG, too many pixels, too narrow, parameters that do not fit', () => {
    assert.match(refusal(Buffer.from('GIF89a not today')), /not a PNG or JPEG/);
    assert.match(refusal(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00])), /JPEG is truncated/);
    const huge = Buffer.from(rampPng(4, 4));
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    assert.match(refusal(huge), /more than 25 megapixels/);
    assert.match(refusal(rampPng(2, 400)), /would be \d+ mm high/);
    assert.match(imageGenerator.check?.(withDefaults(imageGenerator.schema, { min_thickness: 3, max_thickness: 2 })) ?? '', /min_thickness/);
  });

  test('a PNG whose data is broken fails its job with the decoder’s reason', async () => {
    const broken = Buffer.from(rampPng(40, 20));
    broken.fill(0x55, 40, broken.length - 20);
    const p = withDefaults(imageGenerator.schema, {});
    await assert.rejects(
      imageGenerator.generate(await manifoldKernel(), p, () => {}, broken),
      /PNG could not be decoded/,
    );
  });
});

describe('image solids slice into G-code the checker accepts', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['flat lithophane', { width: 40, resolution: 2 }],
    ['curved relief', { mode: 'relief', shape: 'curved', curve_angle: 150, width: 40, resolution: 2 }],
  ];
  for (const [name, body] of cases) {
    test(name, async (t) => {
      const model = await image(body, rampPng(80, 40));
      const sliced = await slice(model.mesh, await config());
      try {
        assert.ok(sliced.result.layers > 0 && sliced.gcode.includes('G1'), 'G-code with moves');
        await acceptedByGcodeCheck(t, writeStl(sliced.dir, 'image.stl', model.mesh), sliced.result.outputPath);
      } finally {
        cleanup(sliced);
      }
    });
  }
});
