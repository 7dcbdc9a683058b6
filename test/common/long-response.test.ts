import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { holdOpen } from '../../appliance/common/long-response.js';
import { readMultipart, UNLIMITED_BODY } from '../../appliance/common/multipart.js';
import { EventStream } from '../../appliance/common/sse.js';
import { readEventStream } from '../fixtures/event-stream.js';
import { startApp, type TestApp } from '../fixtures/http-app.js';

/** Longer than uWebSockets.js's 10-second idle timer (checked every 4 s), which this guards against. */
const HOLD_MS = 15_000;
const LIMITS = { maxFileBytes: 1024 * 1024, maxFieldBytes: 1024, maxFiles: 1, maxFields: 4 };
let dir: string;
let t: TestApp;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-long-response-'));
  t = await startApp((app) => {
    app.post('/stream', UNLIMITED_BODY, async (req, res) => {
      await readMultipart(req, dir, LIMITS, ['model']);
      const stream = new EventStream(req, res, { keepAliveMs: 0 });
      stream.open();
      const started = Date.now();
      const timer = setInterval(() => {
        stream.send('tick', { ms: Date.now() - started });
        if (Date.now() - started > HOLD_MS) {
          clearInterval(timer);
          stream.send('done', {});
          stream.end();
        }
      }, 250);
    });
    app.post('/later', UNLIMITED_BODY, async (req, res) => {
      await readMultipart(req, dir, LIMITS, ['model']);
      holdOpen(req);
      await sleep(Number(req.query_parameters.ms));
      res.json({ ok: true });
    });
  });
});
after(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A file part followed by a text field: parsing it pauses and resumes the upload. */
function upload(): FormData {
  const form = new FormData();
  form.append('model', new Blob([new Uint8Array(300_000)]), 'model.stl');
  form.append('printer_id', 'p');
  return form;
}

test('an event stream and a delayed reply both outlive the 10-second idle timer after an upload', async () => {
  const [streamed, delayed] = await Promise.all([
    fetch(`${t.url}/stream`, { method: 'POST', body: upload() }).then((res) => readEventStream(res)),
    fetch(`${t.url}/later?ms=${HOLD_MS}`, { method: 'POST', body: upload() }).then(async (res) => [res.status, await res.json()]),
  ]);
  assert.equal(streamed.events.at(-1)?.type, 'done');
  assert.deepEqual(delayed, [200, { ok: true }]);
  const again = await fetch(`${t.url}/later?ms=0`, { method: 'POST', body: upload(), signal: AbortSignal.timeout(5000) });
  assert.equal(again.status, 200, 'the kept-alive connection still reads the next request');
});
