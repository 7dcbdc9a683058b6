import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { contentDisposition, sendFile } from '../../appliance/common/download.js';
import { startApp } from '../fixtures/http-app.js';

test('file names are offered in ASCII and exactly in UTF-8', () => {
  assert.equal(contentDisposition('cube.gcode'), `attachment; filename="cube.gcode"; filename*=UTF-8''cube.gcode`);
  assert.equal(contentDisposition('Würfel "v2".gcode'), `attachment; filename="W_rfel _v2_.gcode"; filename*=UTF-8''W%C3%BCrfel%20%22v2%22.gcode`);
});

test('a file is streamed with its length, type and name; a missing file rejects', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-download-'));
  const file = path.join(dir, 'part.gcode');
  const content = 'G28\n'.repeat(50_000);
  writeFileSync(file, content);
  const errors: string[] = [];
  const t = await startApp((app) => {
    app.get('/file', async (_req, res) => sendFile(res, file, { contentType: 'text/x.gcode', fileName: 'part.gcode' }));
    app.get('/missing', async (_req, res) => {
      try {
        await sendFile(res, path.join(dir, 'nope'), { contentType: 'text/plain' });
      } catch (err) {
        errors.push((err as NodeJS.ErrnoException).code ?? '');
        res.status(404).send('gone');
      }
    });
  });
  try {
    const res = await fetch(`${t.url}/file`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/x.gcode');
    assert.equal(res.headers.get('content-length'), String(content.length));
    assert.match(res.headers.get('content-disposition') ?? '', /filename="part.gcode"/);
    assert.equal(await res.text(), content);
    assert.equal((await fetch(`${t.url}/missing`)).status, 404);
    assert.deepEqual(errors, ['ENOENT']);
  } finally {
    t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
