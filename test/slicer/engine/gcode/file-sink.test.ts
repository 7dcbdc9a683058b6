import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { freeBytes } from '../../../../appliance/common/disk-space.js';
import { type AppError, ErrorCode } from '../../../../appliance/common/errors.js';
import { ERR_OUTPUT_TOO_LARGE, FileSink } from '../../../../appliance/slicer/engine/gcode/file-sink.js';
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

test('a write error (a full disk) is reported as 507 not lost', { skip: !existsSync('/dev/full') }, async () => {
  const sink = await FileSink.create('/dev/full');
  const piece = Buffer.alloc(256 * 1024, 0x41);
  await assert.rejects(
    async () => {
      for (let k = 0; k < 16; k++) {
        sink.write(piece);
        await sink.drained();
      }
      await sink.close();
    },
    (err: AppError) => err.code === ErrorCode.insufficientStorage && err.status === 507 && /ENOSPC/.test(err.message),
  );
  await sink.abort();
});

test('a file may reach its size limit but not pass it: 422 ERR_OUTPUT_TOO_LARGE, nothing more queued', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'out.gcode');
    const sink = await FileSink.create(path, { maxBytes: 3 * 1024 * 1024 });
    const piece = Buffer.alloc(512 * 1024, 0x41);
    for (let k = 0; k < 6; k++) {
      sink.write(piece);
      await sink.drained();
    }
    assert.throws(
      () => sink.write('G1\n'),
      (err: AppError) => {
        assert.equal(err.code, ERR_OUTPUT_TOO_LARGE);
        assert.equal(err.status, 422);
        assert.match(err.message, /^the G-code would be larger than 3 MB, the most this slicer writes/);
        return true;
      },
    );
    await assert.rejects(sink.drained(), { code: ERR_OUTPUT_TOO_LARGE });
    await assert.rejects(sink.close(), { code: ERR_OUTPUT_TOO_LARGE });
    await sink.abort();
    assert.ok(statSync(path).size <= 3 * 1024 * 1024);

    const exact = await FileSink.create(path, { maxBytes: 6 });
    exact.write('G28\nG1');
    await exact.close();
    assert.equal(readFileSync(path, 'utf8'), 'G28\nG1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a disk already below the free-space margin refuses the file before it is opened', async () => {
  const dir = tempDir();
  try {
    const path = join(dir, 'out.gcode');
    const margin = (await freeBytes(dir)) + 1024 ** 4;
    await assert.rejects(FileSink.create(path, { minFreeBytes: margin }), (err: AppError) => {
      assert.equal(err.code, ErrorCode.insufficientStorage);
      assert.match(err.message, /^not enough disk space for writing the G-code: \d+ MB free/);
      return true;
    });
    assert.equal(existsSync(path), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
