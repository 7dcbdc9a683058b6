import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ftpTime, listLine, mlsdLine, SdCard } from '../../../../scripts/simulators/bambu/sd-card.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-sd-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the card starts with the printer's folders and keeps paths inside it", () => {
  const sd = new SdCard(path.join(dir, 'card'));
  assert.ok(existsSync(path.join(sd.root, 'cache')) && existsSync(path.join(sd.root, 'timelapse')));
  assert.equal(sd.virtualPath('/models', '../a.3mf'), '/a.3mf');
  assert.equal(sd.virtualPath('/', '../../../../etc/passwd'), '/etc/passwd');
  assert.equal(sd.realPath('/../../x'), path.join(sd.root, 'x'));
});

test('print URLs name card files the ways printers accept', () => {
  const sd = new SdCard(path.join(dir, 'card2'));
  assert.equal(sd.locate('ftp:///cube.gcode.3mf'), '/cube.gcode.3mf');
  assert.equal(sd.locate('ftp://cube.gcode.3mf'), '/cube.gcode.3mf');
  assert.equal(sd.locate('file:///sdcard/models/cube.3mf'), '/models/cube.3mf');
  assert.equal(sd.locate('file:///mnt/sdcard/cube.3mf'), '/cube.3mf');
  assert.equal(sd.locate('file:///mnt/sdcard', 'cube.3mf'), '/cube.3mf', 'a URL naming the card is completed with file');
  assert.equal(sd.locate('/sdcard/my%20part.3mf'), '/my part.3mf');
  assert.equal(sd.locate('cube.gcode'), '/cube.gcode');
  assert.equal(sd.locate('file:///etc/passwd'), null);
  assert.equal(sd.locate('http://example.com/a.3mf'), null);
  assert.equal(sd.locate('ftp:///'), null);
  assert.equal(sd.locate('ftp:///%E0%A4%A'), null, 'bad escapes');
});

test('listings in the ls -l and MLSD forms', () => {
  const file = path.join(dir, 'part.3mf');
  writeFileSync(file, 'x'.repeat(1234));
  const stats = statSync(file);
  const when = new Date(Date.UTC(2026, 2, 5, 9, 7, 3));
  stats.mtime = when;
  assert.equal(listLine('part.3mf', stats, when.getTime()), '-rw-r--r--    1 0        0            1234 Mar  5 09:07 part.3mf');
  assert.equal(
    listLine('part.3mf', stats, when.getTime() + 400 * 24 * 3600 * 1000),
    '-rw-r--r--    1 0        0            1234 Mar  5  2026 part.3mf',
  );
  assert.equal(mlsdLine('part.3mf', stats), 'type=file;size=1234;modify=20260305090703; part.3mf');
  assert.equal(ftpTime(when), '20260305090703');
});
