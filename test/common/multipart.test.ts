import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sendError } from '../../appliance/common/http-errors.js';
import { createLogger } from '../../appliance/common/logger.js';
import { discardUploads, readMultipart, UNLIMITED_BODY, type UploadLimits } from '../../appliance/common/multipart.js';
import { startApp, type TestApp } from '../fixtures/http-app.js';

const LIMITS: UploadLimits = { maxFileBytes: 64 * 1024, maxFieldBytes: 100, maxFiles: 1, maxFields: 4 };
const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;
let t: TestApp;
let lastOutcome = '';

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-multipart-'));
  t = await startApp((app) => {
    app.set_error_handler((_req, res, err) => sendError(res, err, log));
    app.post('/upload', UNLIMITED_BODY, async (req, res) => {
      const form = await readMultipart(req, dir, LIMITS, ['model']).catch((err: Error) => {
        lastOutcome = err.message;
        throw err;
      });
      lastOutcome = 'read';
      const file = form.files.get('model');
      const body = {
        fields: Object.fromEntries(form.fields),
        file: file ? { name: file.fileName, size: file.size, content: readFileSync(file.path, 'utf8') } : null,
      };
      await discardUploads(form);
      res.json(body);
    });
  });
});

after(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

function form(parts: Record<string, string | { content: string | Uint8Array; name: string }>): FormData {
  const f = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') f.append(name, part);
    else f.append(name, new Blob([part.content]), part.name);
  }
  return f;
}

async function upload(body: FormData | string, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${t.url}/upload`, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

test('text fields and a file part are read, the file stored on disk', async () => {
  const r = await upload(form({ printer_id: 'p1', model: { content: 'solid x\nendsolid x\n', name: 'cube.stl' } }));
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { fields: { printer_id: 'p1' }, file: { name: 'cube.stl', size: 19, content: 'solid x\nendsolid x\n' } });
  assert.deepEqual(readdirSync(dir), [], 'discardUploads removed the stored file');
});

test('a file name in UTF-8, as browsers and fetch send it, is read as UTF-8', async () => {
  const r = await upload(form({ model: { content: 'solid x\n', name: 'Würfel – 10 mm.stl' } }));
  assert.equal(r.status, 200);
  assert.equal((r.json.file as { name: string }).name, 'Würfel – 10 mm.stl');
});

test('a file part after several text parts is reported only once its bytes are stored', async () => {
  const content = 'solid x\n'.repeat(500);
  const r = await upload(form({ printer_id: 'p1', process_id: 'q', filament_ids: '["f"]', model: { content, name: 'cube.stl' } }));
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.file, { name: 'cube.stl', size: content.length, content });
});

test('a file over the limit is refused with 413 and nothing is left on disk', async () => {
  const big = new Uint8Array(LIMITS.maxFileBytes + 1).fill(65);
  const r = await upload(form({ model: { content: big, name: 'big.stl' } }));
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.match(String(r.json.error), /larger than the limit of 0.06 MB/);
  assert.deepEqual(readdirSync(dir), []);
  const exact = await upload(form({ model: { content: big.subarray(1), name: 'fits.stl' } }));
  assert.equal(exact.status, 200);
});

test('a declared body far over the limit is refused before it is read', async () => {
  const big = new Uint8Array(LIMITS.maxFileBytes * 3).fill(66);
  const r = await upload(form({ model: { content: big, name: 'big.stl' } }));
  assert.equal(r.status, 413);
  assert.equal(r.json.code, 'ERR_PAYLOAD_TOO_LARGE');
});

test('malformed forms are 400s that name the problem', async () => {
  const cases: Array<[FormData | string, Record<string, string>, RegExp]> = [
    ['{"a":1}', { 'content-type': 'application/json' }, /expected a multipart\/form-data body/],
    [form({ model: 'text instead of a file' }), {}, /field "model" must be a file upload/],
    [form({ printer_id: { content: 'x', name: 'x.txt' } }), {}, /field "printer_id" must be text, not a file/],
    [form({ note: 'x'.repeat(101) }), {}, /field "note" is longer than 100 bytes/],
    [form({ a: '1', b: '2', c: '3', d: '4', e: '5' }), {}, /too many fields/],
  ];
  for (const [body, headers, message] of cases) {
    const r = await upload(body, headers);
    assert.equal(r.status, 400, String(message));
    assert.equal(r.json.code, 'ERR_BAD_REQUEST');
    assert.match(String(r.json.error), message);
  }
  const twice = new FormData();
  twice.append('printer_id', 'a');
  twice.append('printer_id', 'b');
  const r = await upload(twice);
  assert.equal(r.status, 400);
  assert.match(String(r.json.error), /field "printer_id" is given more than once/);
});

test('an upload cut off by the client is not taken as a complete form', async () => {
  lastOutcome = '';
  const boundary = 'xyzzy';
  const head = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="printer_id"',
    '',
    'p1',
    `--${boundary}`,
    'Content-Disposition: form-data; name="model"; filename="cube.stl"',
    'Content-Type: application/octet-stream',
    '',
    'solid',
  ].join('\r\n');
  const { port } = new URL(t.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000\r\n\r\n${head}`);
  await sleep(100);
  socket.destroy();
  const deadline = Date.now() + 5000;
  while (lastOutcome === '' && Date.now() < deadline) await sleep(20);
  assert.match(lastOutcome, /the upload ended before the whole body arrived|cannot be read/);
  assert.deepEqual(readdirSync(dir), [], 'the partial file was removed');
});
