import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import type { AppError } from '../../../../appliance/common/errors.js';
import { gcodeLines } from '../../../../appliance/dashboard/slicing/remote/gcode-source.js';
import { ERR_SLICER_SERVICE } from '../../../../appliance/dashboard/slicing/remote/errors.js';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function lines(bytes: Uint8Array, chunkSize = 7): Promise<string[]> {
  const out: string[] = [];
  for await (const line of gcodeLines(chunked(bytes, chunkSize))) out.push(line);
  return out;
}

test('plain G-code comes out line by line, CRLF or LF, across chunk borders', async () => {
  assert.deepEqual(await lines(strToU8('G28\r\nG1 X10 Y10\nM104 S200')), ['G28', 'G1 X10 Y10', 'M104 S200']);
});

test('a .gcode.3mf package gives the G-code of its lowest-numbered plate', async () => {
  const pkg = zipSync({
    'Metadata/plate_10.gcode': strToU8('; plate 10\n'),
    'Metadata/plate_2.gcode': strToU8('; plate 2\nG28\n'),
    'Metadata/plate_2.gcode.md5': strToU8('0123'),
    '3D/3dmodel.model': strToU8('<model/>'),
  });
  assert.deepEqual(await lines(pkg, 64), ['; plate 2', 'G28']);
});

test("a package without plate G-code, or one that does not unpack, is the slicer service's fault (502)", async () => {
  const noPlate = zipSync({ '3D/3dmodel.model': strToU8('<model/>') });
  await assert.rejects(
    lines(noPlate),
    (err: AppError) => err.status === 502 && err.code === ERR_SLICER_SERVICE && /no Metadata\/plate_<n>\.gcode/.test(err.message),
  );
  const damaged = zipSync({ 'Metadata/plate_1.gcode': [strToU8('G28\n'.repeat(100)), { level: 0 }] });
  const truncated = damaged.subarray(0, damaged.length - 30);
  damaged[30 + 'Metadata/plate_1.gcode'.length + 5] ^= 0xff;
  for (const broken of [damaged, truncated]) {
    await assert.rejects(
      lines(broken),
      (err: AppError) => err.status === 502 && err.code === ERR_SLICER_SERVICE && /cannot be unpacked \(.+\)/.test(err.message),
    );
  }
});
