import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { AppError } from '../../../../appliance/common/errors.js';
import { loadModel } from '../../../../appliance/slicer/engine/mesh/load.js';
import { cube, cubeWithHole, to3mf, toAsciiStl, toBinaryStl } from '../../../fixtures/meshes.js';
import { zipBomb3mf } from '../../../fixtures/zip.js';

const badModel = (message: RegExp) => ({ name: 'AppError', code: 'ERR_BAD_MODEL', status: 422, message });

describe('loadModel format detection', () => {
  it('loads binary STL (even with a "solid" header), ASCII STL and 3MF by content, not by name', () => {
    const binary = loadModel(toBinaryStl(cube(10), 'solid fooled you'), 'model.3mf');
    assert.equal(binary.format, 'stl-binary');
    assert.equal(binary.positioned, false);
    assert.deepEqual(
      binary.objects.map((o) => [o.name, o.filament, o.mesh.indices.length]),
      [['model', 1, 36]],
    );

    const ascii = loadModel(toAsciiStl(cubeWithHole()), 'C:\\parts\\bracket v2.stl');
    assert.equal(ascii.format, 'stl-ascii');
    assert.equal(ascii.objects[0].name, 'bracket v2');

    const threeMf = loadModel(to3mf({ objects: [{ id: 1, name: 'lid', mesh: cube(5) }], items: [{ objectId: 1 }] }), 'upload.stl');
    assert.equal(threeMf.format, '3mf');
    assert.equal(threeMf.objects[0].name, 'lid');
  });

  it('refuses content that is no model format with ERR_UNSUPPORTED_MODEL (415)', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
    for (const bytes of [png, strToU8('{"not": "a model"}'), strToU8('solid but then binary\u0001\u0002')]) {
      assert.throws(() => loadModel(bytes, 'upload.bin'), { code: 'ERR_UNSUPPORTED_MODEL', status: 415 });
    }
  });
});

describe('loadModel malformed input', () => {
  it('truncated binary STL: announced triangles and missing bytes', () => {
    const bytes = toBinaryStl(cube(10)).subarray(0, 400);
    assert.throws(() => loadModel(bytes, 'cube.stl'), badModel(/truncated binary STL: the header announces 12 triangles .* 284 bytes missing/));
  });

  it('NaN or infinite vertex: names the triangle', () => {
    const bytes = toBinaryStl(cube(10));
    new DataView(bytes.buffer).setFloat32(84 + 50 * 3 + 20, NaN, true);
    assert.throws(() => loadModel(bytes, 'cube.stl'), badModel(/triangle 3 \(0-based\) has a non-finite vertex/));
    const ascii = new TextDecoder().decode(toAsciiStl(cube(10))).replace(/vertex 10 10 10/, 'vertex 10 inf 10');
    assert.throws(
      () => loadModel(strToU8(ascii), 'cube.stl'),
      badModel(/triangle \d+ \(0-based\) has a vertex coordinate that is not a finite number \("inf"\)/),
    );
  });

  it('empty mesh or empty file', () => {
    assert.throws(
      () => loadModel(toBinaryStl({ vertices: new Float32Array(0), indices: new Uint32Array(0) }), 'e.stl'),
      badModel(/binary STL has no triangles/),
    );
    assert.throws(() => loadModel(strToU8('solid empty\nendsolid empty\n'), 'e.stl'), badModel(/ASCII STL has no triangles/));
    assert.throws(() => loadModel(new Uint8Array(0), 'e.stl'), badModel(/the model file is empty/));
  });

  it('a zip that is not a 3MF, and a corrupt zip', () => {
    const notThreeMf = zipSync({ 'readme.txt': strToU8('hello'), 'photo.png': new Uint8Array(10) });
    assert.throws(() => loadModel(notThreeMf, 'thing.3mf'), badModel(/not a 3MF: it has no 3D\/3dmodel.model/));
    const corrupt = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...new Array(60).fill(0xee)]);
    assert.throws(() => loadModel(corrupt, 'thing.3mf'), badModel(/zip archive that cannot be unpacked/));
    const relsToNowhere = to3mf({
      objects: [{ id: 1, mesh: cube(1) }],
      items: [{ objectId: 1 }],
      files: {
        '_rels/.rels':
          '<Relationships><Relationship Target="/3D/missing.model" Id="r" ' +
          'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>',
      },
    });
    assert.throws(() => loadModel(relsToNowhere, 'x.3mf'), badModel(/names the model part \/3D\/missing.model, which is missing/));
  });

  it('a 3MF triangle with a missing vertex: names object and triangle', () => {
    const mesh = cube(10);
    const broken = { vertices: mesh.vertices.subarray(0, 7 * 3), indices: mesh.indices };
    const bytes = to3mf({ objects: [{ id: 3, name: 'base', mesh: broken }], items: [{ objectId: 3 }] });
    assert.throws(
      () => loadModel(bytes, 'x.3mf'),
      badModel(/object 3 \("base"\): triangle \d+ \(0-based\) refers to vertex 7, but the object has 7 vertices/),
    );
  });

  it('a missing component object', () => {
    const bytes = to3mf({ objects: [{ id: 1, components: [{ objectId: 42 }] }], items: [{ objectId: 1 }] });
    assert.throws(() => loadModel(bytes, 'x.3mf'), badModel(/component referring to object 42, which does not exist/));
  });

  it('bad XML in the model part', () => {
    const model = '<?xml version="1.0"?>\n<model unit="millimeter">\n<resources>\n<object id="1"><mesh></object>\n</resources>\n</model>';
    const bytes = to3mf({ objects: [], items: [], files: { '3D/3dmodel.model': model } });
    assert.throws(() => loadModel(bytes, 'x.3mf'), badModel(/bad XML in 3D\/3dmodel.model, line 4: <\/object> found where <\/mesh> was expected/));
  });

  it('throws only AppErrors for damaged files (deterministic mutation sweep)', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    const model = to3mf({
      objects: [
        { id: 1, mesh: cube(5) },
        { id: 2, components: [{ objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3] }] },
      ],
      items: [{ objectId: 2, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 50, 50, 0] }],
    });
    const sources = [toAsciiStl(cubeWithHole()), toBinaryStl(cubeWithHole()), model];
    const outcomes = new Set<string>();
    for (let i = 0; i < 900; i++) {
      let bytes = Uint8Array.from(sources[i % 3]);
      if (random() < 0.3) bytes = bytes.subarray(0, Math.floor(random() * bytes.length));
      else for (let k = 0; k < 3; k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      try {
        loadModel(bytes, 'damaged.stl');
        outcomes.add('loaded');
      } catch (err) {
        assert.ok(err instanceof AppError, `mutation ${i} threw ${String(err)}`);
        outcomes.add(err.code);
      }
    }
    assert.ok(outcomes.has('loaded') && outcomes.has('ERR_BAD_MODEL'));
  });
});

describe('loadModel inflation limits', () => {
  it('refuses a 3MF by what its parts would inflate to with ERR_PAYLOAD_TOO_LARGE (413), naming the limit', () => {
    const bomb = zipBomb3mf({ inflatedMiB: 64 });
    assert.throws(() => loadModel(bomb, 'bomb.3mf'), {
      code: 'ERR_PAYLOAD_TOO_LARGE',
      status: 413,
      message: /^the 0\.0\d+ MB 3MF package inflates to 64 MB, \d{3,4} times its size; the limit is 100 times \(a zip bomb\?\)$/,
    });
    assert.throws(() => loadModel(bomb, 'bomb.3mf', { maxBytes: 32 * 1024 * 1024, maxRatio: 1100 }), {
      code: 'ERR_PAYLOAD_TOO_LARGE',
      status: 413,
      message: 'the 3MF package inflates to 64 MB, more than the limit of 32 MB',
    });
    const model = loadModel(bomb, 'bomb.3mf', { maxBytes: 65 * 1024 * 1024, maxRatio: 1100 });
    assert.deepEqual(
      model.objects.map((o) => o.mesh.indices.length),
      [36],
      'within its limits the same package loads',
    );
  });

  it('refuses a part that inflates past its declared size as a broken model (422)', () => {
    assert.throws(
      () => loadModel(zipBomb3mf({ inflatedMiB: 4, declaredSize: 5000 }), 'liar.3mf'),
      badModel(/entry "3D\/3dmodel\.model" inflates to more than the 5000 bytes its directory declares/),
    );
  });
});
