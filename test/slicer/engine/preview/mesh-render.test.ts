import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { renderMeshPng, renderMeshPngs, renderPickPng } from '../../../../appliance/slicer/engine/preview/mesh-render.js';
import type { IndexedMesh } from '../../../../appliance/slicer/engine/mesh/types.js';
import { box, cube } from '../../../fixtures/meshes.js';
import { quadMesh } from '../../../fixtures/render-meshes.js';

function decode(png: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(png));
}

function pixel(png: PNG, x: number, y: number): [number, number, number, number] {
  const o = (y * png.width + x) * 4;
  return [png.data[o], png.data[o + 1], png.data[o + 2], png.data[o + 3]];
}

/** Columns and rows that hold any visible pixel. */
function opaqueBox(png: PNG): { minX: number; maxX: number; minY: number; maxY: number } {
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (pixel(png, x, y)[3] === 0) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return { minX, maxX, minY, maxY };
}

function flipped(mesh: IndexedMesh): IndexedMesh {
  const indices = Uint32Array.from(mesh.indices);
  for (let i = 0; i < indices.length; i += 3) [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
  return { vertices: mesh.vertices, indices };
}

test('top view of a cube: transparent background, the model colour shaded in the middle', () => {
  const png = decode(renderMeshPng([cube(20)], { width: 200, height: 150, view: 'top', color: '#2080C0' }));
  assert.deepEqual([png.width, png.height], [200, 150]);
  for (const [x, y] of [
    [0, 0],
    [199, 0],
    [0, 149],
    [199, 149],
  ])
    assert.equal(pixel(png, x, y)[3], 0);
  const [r, g, b, a] = pixel(png, 100, 75);
  assert.equal(a, 255);
  assert.ok(b > 0 && Math.abs(r / b - 0x20 / 0xc0) < 0.03 && Math.abs(g / b - 0x80 / 0xc0) < 0.03, `${r},${g},${b} is not a shade of #2080C0`);
  assert.ok(b < 0xc0 + 1 && b > 0xc0 * 0.5, 'lit, not black or overexposed');
});

test('the model is fitted and centred, wherever it sits', () => {
  const near = decode(renderMeshPng([box(30, 10, 5)], { width: 120, height: 120, view: 'top', marginPx: 10 }));
  const far = decode(renderMeshPng([box(30, 10, 5, [400, -250, 3])], { width: 120, height: 120, view: 'top', marginPx: 10 }));
  for (const png of [near, far]) {
    const extent = opaqueBox(png);
    assert.deepEqual([extent.minX, extent.maxX], [10, 109], 'wide side spans the image minus the margins');
    assert.ok(Math.abs(extent.minY - (119 - extent.maxY)) <= 1, 'centred vertically');
    assert.ok(extent.maxY - extent.minY > 30 && extent.maxY - extent.minY < 36, 'aspect ratio kept');
  }
});

test('the iso view shows three differently lit faces of a cube', () => {
  const png = decode(renderMeshPng([cube(20)], { width: 160, height: 160, view: 'iso' }));
  for (const [x, y] of [
    [0, 0],
    [159, 0],
    [0, 159],
    [159, 159],
  ])
    assert.equal(pixel(png, x, y)[3], 0);
  const shades = new Set<string>();
  for (let y = 0; y < 160; y += 2) {
    for (let x = 0; x < 160; x += 2) {
      const p = pixel(png, x, y);
      if (p[3] === 255)
        shades.add(
          p
            .slice(0, 3)
            .map((c) => Math.round(c / 8))
            .join(','),
        );
    }
  }
  assert.ok(shades.size >= 3, `only ${shades.size} shades`);
  assert.equal(pixel(png, 80, 80)[3], 255);
});

test('the z-buffer keeps the nearest surface whatever the drawing order', () => {
  const floor = quadMesh([0, 0, 0], [40, 0, 0], [40, 40, 0], [0, 40, 0]);
  const ramp = quadMesh([10, 10, 5], [30, 10, 5], [30, 30, 10], [10, 30, 10]);
  const options = { width: 80, height: 80, view: 'top' as const, marginPx: 0 };
  const a = decode(renderMeshPng([floor, ramp], options));
  const b = decode(renderMeshPng([ramp, floor], options));
  assert.deepEqual(pixel(a, 40, 40), pixel(b, 40, 40));
  assert.notDeepEqual(pixel(a, 40, 40), pixel(a, 5, 5), 'the ramp is lit differently from the floor');
  assert.deepEqual(pixel(a, 5, 5), pixel(b, 5, 5));
});

test('meshes with inverted faces render like correct ones', () => {
  const options = { width: 64, height: 64, view: 'iso' as const };
  assert.deepEqual(renderMeshPng([flipped(cube(10))], options), renderMeshPng([cube(10)], options));
});

test('a closed mesh drawn without the faces it turns away from the camera gives the same picture', () => {
  for (const view of ['iso', 'top'] as const) {
    const sizes = [
      { width: 48, height: 48 },
      { width: 300, height: 300 },
    ];
    const meshes = [cube(10), box(30, 12, 6)];
    const whole = renderMeshPngs(meshes, sizes, { view });
    const culled = renderMeshPngs(meshes, sizes, { view, closed: [true, true] });
    assert.deepEqual(culled, whole, view);
  }
});

test('a mesh not known to be closed keeps its far faces: they show through its holes', () => {
  const options = { width: 64, height: 64, view: 'iso' as const };
  const open = cube(10);
  // The top face's two triangles go: from above and the front the inside of the far walls shows.
  const indices = Uint32Array.from([...open.indices].filter((_, k) => !isTopTriangle(open, Math.floor(k / 3))));
  const holed = { vertices: open.vertices, indices };
  assert.notDeepEqual(renderMeshPng([holed], { ...options, closed: [true] }), renderMeshPng([holed], options));
});

/** Whether triangle `t` of the mesh lies in the plane of its highest points. */
function isTopTriangle(mesh: IndexedMesh, t: number): boolean {
  let top = -Infinity;
  for (let k = 2; k < mesh.vertices.length; k += 3) top = Math.max(top, mesh.vertices[k]);
  return [0, 1, 2].every((c) => mesh.vertices[mesh.indices[3 * t + c] * 3 + 2] === top);
}

test('nothing to draw gives a transparent image of the requested size', () => {
  const png = decode(renderMeshPng([{ vertices: new Float32Array(0), indices: new Uint32Array(0) }], { width: 32, height: 16, view: 'top' }));
  assert.deepEqual([png.width, png.height], [32, 16]);
  assert.ok(png.data.every((v, i) => i % 4 !== 3 || v === 0));
  assert.equal(decode(renderMeshPng([], { width: 8, height: 8, view: 'iso' })).width, 8);
});

test('sizes outside 1..2048 and bad colours are bad requests', () => {
  for (const [width, height] of [
    [0, 10],
    [10, 4096],
    [2.5, 10],
  ]) {
    assert.throws(() => renderMeshPng([cube()], { width, height, view: 'top' }), { code: 'ERR_BAD_REQUEST', status: 400 });
  }
  assert.throws(() => renderMeshPng([cube()], { width: 10, height: 10, view: 'top', color: 'orange' }), { code: 'ERR_BAD_REQUEST' });
});

test('pictures of the same shape share one drawing: the largest is as drawn alone, the smaller ones match theirs', () => {
  const meshes = [box(20, 10, 6)];
  const sizes = [
    { width: 48, height: 48 },
    { width: 300, height: 300 },
    { width: 96, height: 48 },
  ];
  const pngs = renderMeshPngs(meshes, sizes, { view: 'iso' }).map(decode);
  assert.deepEqual(
    pngs.map((p) => [p.width, p.height]),
    sizes.map((s) => [s.width, s.height]),
  );
  assert.deepEqual(pngs[1].data, decode(renderMeshPng(meshes, { width: 300, height: 300, view: 'iso' })).data);
  assert.deepEqual(pngs[2].data, decode(renderMeshPng(meshes, { width: 96, height: 48, view: 'iso' })).data, 'another shape is drawn for itself');
  // Averaged down from 600 x 600 samples instead of drawn on 96 x 96: the same picture within a pixel.
  const alone = decode(renderMeshPng(meshes, { width: 48, height: 48, view: 'iso' }));
  const shared = opaqueBox(pngs[0]);
  const own = opaqueBox(alone);
  for (const side of ['minX', 'maxX', 'minY', 'maxY'] as const)
    assert.ok(Math.abs(shared[side] - own[side]) <= 1, `${side}: ${shared[side]} vs ${own[side]}`);
  let differing = 0;
  for (let k = 3; k < alone.data.length; k += 4) if (Math.abs(alone.data[k] - pngs[0].data[k]) > 128) differing++;
  assert.ok(differing <= 48, `${differing} pixels differ in coverage`);
});

test('the pick picture fills each mesh flat in its id colour, without blended edges, framed on the given area', () => {
  const ids = [1, 0x010203];
  const png = decode(
    renderPickPng([cube(10, [10, 10, 0]), box(20, 10, 5, [60, 70, 0])], ids, {
      width: 100,
      height: 100,
      view: 'top',
      frame: { minX: 0, minY: 0, maxX: 100, maxY: 100 },
    }),
  );
  const seen = new Map<string, number>();
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 100; x++) {
      const key = pixel(png, x, y).join(',');
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  assert.deepEqual([...seen.keys()].sort(), ['0,0,0,0', '1,0,0,255', '3,2,1,255']);
  // 1 pixel per mm, y up: the cube covers x 10..20, rows 80..90; the box x 60..80, rows 20..30.
  assert.deepEqual(pixel(png, 15, 85), [1, 0, 0, 255]);
  assert.deepEqual(pixel(png, 70, 25), [3, 2, 1, 255]);
  assert.ok(Math.abs((seen.get('1,0,0,255') ?? 0) - 100) <= 20);
  assert.ok(Math.abs((seen.get('3,2,1,255') ?? 0) - 200) <= 30);
  assert.throws(() => renderPickPng([cube(10)], [0], { width: 10, height: 10, view: 'top' }), /pick id 0/);
});
