import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import type { UploadProgress } from '../../../../../appliance/dashboard/printers/driver.js';
import { checkFileName, KEPT_FILES, PrinterFiles } from '../../../../../appliance/dashboard/printers/families/marlin-serial/printer-files.js';
import { rejection } from './driver-harness.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-printer-files-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('file names: plain names with a G-code extension only', () => {
  for (const good of ['cube.gcode', 'Benchy (PLA) 0.2mm+fast.GCO', 'a.g']) assert.doesNotThrow(() => checkFileName(good), good);
  for (const bad of ['../x.gcode', 'a/b.gcode', '.x.gcode', 'x.gcode.3mf', 'x..gcode', 'x\n.gcode', `${'x'.repeat(130)}.gcode`]) {
    assert.throws(
      () => checkFileName(bad),
      (err: { status?: number }) => err.status === 400,
      JSON.stringify(bad),
    );
  }
});

test('a stored file lands under printer-files/<printer id>/, whole, with progress; a failed stream leaves nothing', async () => {
  const files = new PrinterFiles(dataDir, 'p1');
  const progress: UploadProgress[] = [];
  const chunks = ['G28\n', 'G1 X10\n'.repeat(1000)];
  await files.store({ stream: Readable.from(chunks.map((c) => Buffer.from(c))), size: 7004 }, 'part.gcode', (p) => progress.push(p));
  assert.equal(readFileSync(path.join(dataDir, 'printer-files', 'p1', 'part.gcode'), 'utf8'), chunks.join(''));
  assert.deepEqual(progress.at(-1), { sent_bytes: 7004, total_bytes: 7004 });
  assert.equal(await files.find('part.gcode'), path.join(dataDir, 'printer-files', 'p1', 'part.gcode'));

  const broken = new Readable({
    read() {
      this.push(Buffer.from('G28\n'));
      this.destroy(new Error('the client went away'));
    },
  });
  const err = await rejection(files.store({ stream: broken }, 'part.gcode'));
  assert.equal(err.status, 503);
  assert.deepEqual(readdirSync(files.dir), ['part.gcode'], 'no temporary file left');
  assert.equal(readFileSync(path.join(files.dir, 'part.gcode'), 'utf8'), chunks.join(''), 'the old file is untouched');
  assert.equal((await rejection(files.find('other.gcode'))).status, 404);
});

test('a file larger than the free space is refused before writing', async () => {
  const files = new PrinterFiles(dataDir, 'p2');
  const err = await rejection(files.store({ stream: Readable.from([Buffer.from('G28\n')]), size: Number.MAX_SAFE_INTEGER }, 'huge.gcode'));
  assert.equal(err.status, 503);
  assert.match(err.message, /not enough free space/);
  assert.deepEqual(readdirSync(files.dir), []);
});

test(`only the newest ${KEPT_FILES} files are kept for a printer`, async () => {
  const files = new PrinterFiles(dataDir, 'p3');
  const total = KEPT_FILES + 3;
  for (let k = 0; k < total; k++) {
    await files.store({ stream: Readable.from([Buffer.from(`; file ${k}\n`)]) }, `f${k}.gcode`);
    // Distinct modification times, oldest first, whatever the file system's time resolution.
    const at = new Date(Date.UTC(2026, 0, 1, 0, k));
    utimesSync(path.join(files.dir, `f${k}.gcode`), at, at);
  }
  await files.store({ stream: Readable.from([Buffer.from('; again\n')]) }, `f${total - 1}.gcode`);
  const kept = readdirSync(files.dir).sort((a, b) => Number(a.slice(1, -6)) - Number(b.slice(1, -6)));
  assert.equal(kept.length, KEPT_FILES);
  assert.deepEqual(
    kept,
    Array.from({ length: KEPT_FILES }, (_, i) => `f${i + total - KEPT_FILES}.gcode`),
  );
});
