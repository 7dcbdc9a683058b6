import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readFileEnds } from '../../appliance/common/file-ends.js';

test('the ends of a file: joined at a line break only where bytes between them were skipped', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-file-ends-'));
  try {
    const file = path.join(dir, 'f.gcode');
    writeFileSync(file, ';a=1\nG1\n;b=2');
    assert.deepEqual(await readFileEnds(file, 5, 4), { head: ';a=1\n', text: ';a=1\n\n;b=2' }, 'the middle skipped');
    assert.deepEqual(await readFileEnds(file, 5, 20), { head: ';a=1\n', text: ';a=1\nG1\n;b=2' }, 'nothing skipped: the file as it is');
    assert.deepEqual(await readFileEnds(file, 64, 4), { head: ';a=1\nG1\n;b=2', text: ';a=1\nG1\n;b=2' }, 'the head holds it all');
    writeFileSync(file, '');
    assert.deepEqual(await readFileEnds(file, 5, 4), { head: '', text: '' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
