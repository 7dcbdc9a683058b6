import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isBinaryStlSize,
  looksLikeAsciiStl,
  looksLikeBinaryStl,
  parseAsciiStl,
  parseBinaryStl,
} from '../../../../appliance/slicer/engine/mesh/stl.js';
import { cube, cubeWithHole, meshVolume, toAsciiStl, toBinaryStl } from '../../../fixtures/meshes.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('binary STL', () => {
  it('is recognised by size even when the header starts with "solid"', () => {
    const bytes = toBinaryStl(cube(10), 'solid this header lies');
    assert.equal(isBinaryStlSize(bytes), true);
    assert.equal(isBinaryStlSize(bytes.subarray(0, bytes.length - 1)), false);
    assert.equal(looksLikeAsciiStl(bytes), false);
  });

  it('welds the corners shared between facets into an indexed mesh', () => {
    const { mesh, warnings } = parseBinaryStl(toBinaryStl(cube(10)));
    assert.equal(mesh.indices.length, 36);
    assert.equal(mesh.vertices.length, 8 * 3);
    assert.equal(meshVolume(mesh), 1000);
    assert.deepEqual(warnings, []);
  });

  it('keeps the hole of a cube with a hole', () => {
    const source = cubeWithHole(20, 8);
    const { mesh } = parseBinaryStl(toBinaryStl(source));
    assert.equal(mesh.indices.length, source.indices.length);
    assert.equal(mesh.vertices.length, source.vertices.length);
    assert.equal(meshVolume(mesh), 20 ** 3 - 8 * 8 * 20);
  });

  it('welds +0 and -0 into one point', () => {
    const bytes = toBinaryStl(cube(10));
    const view = new DataView(bytes.buffer);
    for (let t = 0; t < 12; t++) {
      for (let f = 3; f < 12; f++) {
        const o = 84 + 50 * t + 4 * f;
        if (view.getFloat32(o, true) === 0) view.setFloat32(o, -0, true);
      }
    }
    assert.equal(parseBinaryStl(bytes).mesh.vertices.length, 8 * 3);
  });

  it('reports a truncated file with the announced count and the missing bytes', () => {
    const bytes = toBinaryStl(cube(10)).subarray(0, 84 + 50 * 5 + 20);
    assert.throws(() => parseBinaryStl(bytes), {
      code: 'ERR_BAD_MODEL',
      status: 422,
      message: /announces 12 triangles \(684 bytes\) but the file has 354 bytes, 330 bytes missing/,
    });
  });

  it('ignores bytes after the announced facets, with a warning', () => {
    const full = toBinaryStl(cube(10));
    const padded = new Uint8Array(full.length + 7);
    padded.set(full);
    const { mesh, warnings } = parseBinaryStl(padded);
    assert.equal(mesh.indices.length, 36);
    assert.match(warnings[0], /ignored 7 bytes/);
  });

  it('names the triangle holding a NaN or infinite coordinate', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const bytes = toBinaryStl(cube(10));
      new DataView(bytes.buffer).setFloat32(84 + 50 * 7 + 12 + 4 * 4, bad, true);
      assert.throws(() => parseBinaryStl(bytes), { code: 'ERR_BAD_MODEL', message: /triangle 7 \(0-based\) has a non-finite vertex/ });
    }
  });

  it('is guessed for a mis-sized file named .stl or holding a plausible first facet', () => {
    const truncated = toBinaryStl(cube(10)).subarray(0, 200);
    assert.equal(looksLikeBinaryStl(truncated, 'part.STL'), true);
    assert.equal(looksLikeBinaryStl(truncated, 'upload.bin'), true);
    const noise = new Uint8Array(300).map((_, k) => (k * 97 + 13) & 0xff);
    assert.equal(looksLikeBinaryStl(noise, 'upload.bin'), false);
  });
});

describe('ASCII STL', () => {
  it('parses facets and welds identical points', () => {
    const { mesh } = parseAsciiStl(toAsciiStl(cubeWithHole(20, 8)));
    assert.equal(mesh.indices.length, cubeWithHole(20, 8).indices.length);
    assert.equal(meshVolume(mesh), 20 ** 3 - 8 * 8 * 20);
  });

  it('reads exponents, signs, upper-case keywords, CRLF and several solids', () => {
    const file = text(
      'SOLID a\r\n FACET NORMAL 0 0 -1\r\n  OUTER LOOP\r\n   VERTEX 0 0 0\r\n   VERTEX 1.0E+01 0 0\r\n' +
        '   VERTEX 0 +1e1 -0.0\r\n  ENDLOOP\r\n ENDFACET\r\nENDSOLID a\r\n' +
        'solid b\nfacet normal 0 0 1\nouter loop\nvertex -2.5e-1 .5 3.\nvertex 1e-3 2 3\nvertex 1 1 3\nendloop\nendfacet\nendsolid b\n',
    );
    assert.equal(looksLikeAsciiStl(file), true);
    const { mesh } = parseAsciiStl(file);
    assert.equal(mesh.indices.length, 6);
    assert.deepEqual([...mesh.vertices.subarray(3, 9)], [10, 0, 0, 0, 10, 0]);
    assert.deepEqual([...mesh.vertices.subarray(9, 12)], [-0.25, 0.5, 3]);
    assert.equal(mesh.vertices[12], Math.fround(0.001));
  });

  it('fans a facet with more than three vertices', () => {
    const file = text(
      'solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid q\n',
    );
    assert.deepEqual([...parseAsciiStl(file).mesh.indices], [0, 1, 2, 0, 2, 3]);
  });

  it('names the triangle and line of a coordinate that is not a finite number', () => {
    const good = new TextDecoder().decode(toAsciiStl(cube(10)));
    const lines = good.split('\n');
    lines[5 * 7 + 4] = '      vertex 1 nan 2';
    assert.throws(() => parseAsciiStl(text(lines.join('\n'))), {
      code: 'ERR_BAD_MODEL',
      message: /line 40: triangle 5 \(0-based\) has a vertex coordinate that is not a finite number \("nan"\)/,
    });
    assert.throws(() => parseAsciiStl(text(good.replace('vertex 0 0 0', 'vertex 0 1e999 0'))), { message: /not a finite number/ });
  });

  it('rejects truncated text and unknown words with the line', () => {
    const good = new TextDecoder().decode(toAsciiStl(cube(10)));
    assert.throws(() => parseAsciiStl(text(good.slice(0, good.length / 2))), { code: 'ERR_BAD_MODEL', message: /truncated|line/ });
    assert.throws(() => parseAsciiStl(text('solid x\nfacet normal 0 0 1\nouter lop\n')), { message: /line 3: expected "loop"/ });
    assert.throws(() => parseAsciiStl(text('solid x\nbanana\n')), { message: /line 2: unexpected "banana"/ });
    assert.throws(() => parseAsciiStl(text('solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n')), {
      message: /triangle 0 \(0-based\) has 2 vertices/,
    });
  });

  it('is not claimed for binary data or other text', () => {
    assert.equal(looksLikeAsciiStl(text('hello world')), false);
    assert.equal(looksLikeAsciiStl(new Uint8Array([0x73, 0x6f, 0x6c, 0x69, 0x64, 0x20, 0, 1, 2])), false);
  });
});
