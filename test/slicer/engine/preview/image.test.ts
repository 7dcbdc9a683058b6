import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { checkImageSize, encodePng, parseHexColor } from '../../../../appliance/slicer/engine/preview/image.js';

test('RGBA pixels survive PNG encoding, alpha included', () => {
  const rgba = new Uint8ClampedArray([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40]);
  const png = PNG.sync.read(Buffer.from(encodePng(2, 2, rgba)));
  assert.deepEqual([png.width, png.height], [2, 2]);
  assert.deepEqual([...png.data], [...rgba]);
});

test('rows come out in order, whatever the width (a standard decoder reads every pixel back)', () => {
  const [width, height] = [37, 23];
  const rgba = new Uint8ClampedArray(width * height * 4).map((_, i) => (i * 7919 + (i >> 5) * 31) % 256);
  const png = PNG.sync.read(Buffer.from(encodePng(width, height, rgba)));
  assert.deepEqual([png.width, png.height], [width, height]);
  assert.deepEqual([...png.data], [...rgba]);
});

test('image sides must be integers from 1 to 2048', () => {
  assert.doesNotThrow(() => checkImageSize(1, 2048));
  for (const [w, h] of [
    [0, 1],
    [1, 2049],
    [1.5, 1],
    [Number.NaN, 1],
  ]) {
    assert.throws(() => checkImageSize(w, h), { code: 'ERR_BAD_REQUEST', status: 400 });
  }
});

test('colours are #RRGGBB', () => {
  assert.deepEqual(parseHexColor('#FF8000'), [255, 128, 0]);
  assert.deepEqual(parseHexColor('00aaff'), [0, 170, 255]);
  assert.throws(() => parseHexColor('#F80'), { code: 'ERR_BAD_REQUEST' });
});
