import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileSink } from '../../../../appliance/slicer/engine/gcode/file-sink.js';
import { tempDir } from '../../../fixtures/slicing.js';

test('pieces of text and bytes reach the file in order, across many batches', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'out.gcode');
    const sink = await FileSink.create(path);
    const expected: string[] = [];
    for (let k = 0; k < 60000; k++) {
      const line = `G1 X${k} Y${k % 97} E0.5\n`;
      if (k % 2 === 0) sink.write(line);
      else sink.write(Buffer.from(line));
      expected.push(line);
      if (k % 1000 === 0) await sink.drained();
    }
    sink.write('');
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), expected.join(''));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write error (a full disk) is reported, not lost', { skip: !existsSync('/dev/full') }, async () => {
  const sink = await FileSink.create('/dev/full');
  const piece = Buffer.alloc(256 * 1024, 0x41);
  await assert.rejects(async () => {
    for (let k = 0; k < 16; k++) {
      sink.write(piece);
      await sink.drained();
    }
    await sink.close();
  }, /ENOSPC/);
  await sink.abort();
});

test('abort closes the file without writing what waits', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'out.gcode');
    const sink = await FileSink.create(path);
    sink.write('G28\n');
    await sink.abort();
    await sink.abort();
    assert.equal(readFileSync(path, 'utf8'), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
