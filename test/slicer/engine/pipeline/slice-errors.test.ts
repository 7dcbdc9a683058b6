import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import { sliceModel } from '../../../../appliance/slicer/engine/pipeline/slice.js';
import { box, cube, toBinaryStl, to3mf } from '../../../fixtures/meshes.js';
import { config, tempDir } from '../../../fixtures/slicing.js';

async function fails(model: Uint8Array, code: string, message: RegExp) {
  const dir = tempDir();
  await assert.rejects(
    sliceModel({ model, fileName: 'bad', config: await config(), outputPath: `${dir}/out.gcode` }),
    (err: { code?: string; message?: string }) => {
      assert.equal(err.code, code);
      assert.match(err.message ?? '', message);
      return true;
    },
  );
}

test('a truncated binary STL is a bad model that says what is missing', async () => {
  const stl = toBinaryStl(cube(10));
  await fails(stl.slice(0, stl.length - 30), 'ERR_BAD_MODEL', /truncated|triangles/i);
});

test('NaN vertices are a bad model naming the triangle', async () => {
  const stl = toBinaryStl(cube(10));
  new DataView(stl.buffer).setFloat32(84 + 12, Number.NaN, true);
  await fails(stl, 'ERR_BAD_MODEL', /triangle/i);
});

test('an empty mesh is a bad model', async () => {
  const empty = new Uint8Array(84);
  await fails(empty, 'ERR_BAD_MODEL', /empty|no triangles/i);
});

test('a zip that is not a 3MF is a bad model', async () => {
  await fails(zipSync({ 'readme.txt': strToU8('hello') }), 'ERR_BAD_MODEL', /3MF/);
});

test('a 3MF with a bad triangle index is a bad model', async () => {
  const file = to3mf({
    objects: [{ id: 1, name: 'x', mesh: { vertices: cube(5).vertices, indices: Uint32Array.from([0, 1, 99]) } }],
    items: [{ objectId: 1 }],
  });
  await fails(file, 'ERR_BAD_MODEL', /vertex|index/i);
});

test('a file that is neither STL nor 3MF is unsupported', async () => {
  await fails(strToU8('this is not a model at all, just some text that is long enough to be a file'), 'ERR_UNSUPPORTED_MODEL', /STL|3MF/);
});

test('a model larger than the printable area is refused with its size', async () => {
  await fails(toBinaryStl(box(260, 40, 30)), 'ERR_MODEL_OUTSIDE_BED', /260\.0 x 40\.0 x 30\.0/);
});

test('an unknown setting or a bad value is refused before slicing', async () => {
  await assert.rejects(config({ no_such_key: 1 }), { code: 'ERR_UNKNOWN_SETTING' });
  await assert.rejects(config({ layer_height: 'thick' }), { code: 'ERR_INVALID_SETTING', message: /layer_height/ });
});
