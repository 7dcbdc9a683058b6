import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { modelFormatOf, sniffModelFile } from '../../../appliance/slicer/run/model-file.js';
import { cube, toAsciiStl, toBinaryStl } from '../../fixtures/meshes.js';

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

test('STL (binary and ASCII) and 3MF are told by their content', () => {
  const binary = toBinaryStl(cube(10));
  assert.equal(modelFormatOf(binary, binary.length, 'anything.bin'), 'stl');
  const ascii = toAsciiStl(cube(10));
  assert.equal(modelFormatOf(ascii.subarray(0, 1024), ascii.length, 'x'), 'stl');
  const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
  assert.equal(modelFormatOf(zip, 5000, 'model.3mf'), '3mf');
});

test('other files are 415, empty ones 422', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
  assert.equal(
    codeOf(() => modelFormatOf(png, png.length, 'photo.png')),
    'ERR_UNSUPPORTED_MODEL',
  );
  const text = new TextEncoder().encode('hello, this is not a mesh');
  assert.equal(
    codeOf(() => modelFormatOf(text, text.length, 'notes.txt')),
    'ERR_UNSUPPORTED_MODEL',
  );
  assert.equal(
    codeOf(() => modelFormatOf(new Uint8Array(0), 0, 'empty.stl')),
    'ERR_BAD_MODEL',
  );
});

test('a file on disk is sniffed from its first kilobyte', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-sniff-'));
  try {
    const file = path.join(dir, 'upload');
    const binary = toBinaryStl(cube(10));
    writeFileSync(file, binary);
    assert.equal(await sniffModelFile(file, binary.length, 'cube.stl'), 'stl');
    writeFileSync(file, `GIF89a${'x'.repeat(3000)}`);
    await assert.rejects(sniffModelFile(file, 3006, 'cat.gif'), (err: Error & { status?: number }) => err.status === 415);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
