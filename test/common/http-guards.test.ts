import assert from 'node:assert/strict';
import os from 'node:os';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { ambiguousHeaders } from '../../appliance/common/http-guards.js';
import { sendError } from '../../appliance/common/http-errors.js';
import { createLogger } from '../../appliance/common/logger.js';
import { AppError } from '../../appliance/common/errors.js';
import { holdOpen } from '../../appliance/common/long-response.js';
import { discardUploads, readMultipart, UNLIMITED_BODY } from '../../appliance/common/multipart.js';
import { startApp, type TestApp } from '../fixtures/http-app.js';
import { rawRequest } from '../fixtures/raw-http.js';

const logged: string[] = [];
const log = createLogger({ name: 'test', level: 'warn', write: (line) => void logged.push(line) });
let t: TestApp;
let heldRequests = 0;

before(async () => {
  t = await startApp(
    (app) => {
      app.set_error_handler((_req, res, err) => sendError(res, err, log));
      app.get('/ping', (_req, res) => void res.send('pong'));
      app.post('/nothing', (_req, res) => void res.status(204).send());
      app.post('/echo', async (req, res) => {
        res.json({ length: (await req.buffer()).length });
      });
      app.post('/refuse', UNLIMITED_BODY, () => {
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413, 'refused before the body');
      });
      // Refuses after a while, as a handler does that checks something first: the body has begun to
      // arrive and hyper-express has paused the socket while nobody reads it.
      app.post('/refuse-later', UNLIMITED_BODY, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413, 'refused after a look');
      });
      app.post('/big', { max_body_length: 4096 }, async (req, res) => {
        res.json({ length: (await req.buffer()).length });
      });
      // A long reply after an upload: the request is paused while the reply waits.
      app.post('/held', UNLIMITED_BODY, async (req) => {
        const form = await readMultipart(req, os.tmpdir(), { maxFileBytes: 1024, maxFieldBytes: 1024, maxFiles: 1, maxFields: 4 }, []);
        await discardUploads(form);
        holdOpen(req);
        heldRequests++;
        await new Promise(() => undefined);
      });
      // A consumer whose write throws inside hyper-express's chunk handler, as any bug in a body
      // reader would: the throw happens in uWS's callback.
      app.post('/throws', UNLIMITED_BODY, (req) => {
        req.pipe(
          new Writable({
            write() {
              throw new Error('reader bug');
            },
          }),
        );
      });
    },
    1024,
    log,
  );
});

after(() => t.close());

async function ping(): Promise<void> {
  assert.equal(await (await fetch(`${t.url}/ping`)).text(), 'pong', 'the server still answers');
}

test('framing and identity headers may come only once; a content length is one number', () => {
  const cases: Array<[Array<[string, string]>, RegExp | null]> = [
    [
      [
        ['content-length', '5'],
        ['content-length', '3'],
      ],
      /content-length header is given more than once/,
    ],
    [
      [
        ['Content-Length', '3'],
        ['content-length', '3'],
      ],
      /content-length header is given more than once/,
    ],
    [
      [
        ['authorization', 'Bearer a'],
        ['authorization', 'Bearer b'],
      ],
      /authorization header is given more than once/,
    ],
    [
      [
        ['x-api-key', 'a'],
        ['x-api-key', 'b'],
      ],
      /x-api-key header/,
    ],
    [[['content-length', '3, 3']], /content-length must be one number/],
    [
      [
        ['content-length', '3'],
        ['transfer-encoding', 'chunked'],
      ],
      /must not both be given/,
    ],
    [
      [
        ['accept', 'a'],
        ['accept', 'b'],
        ['content-length', '3'],
      ],
      null,
    ],
  ];
  for (const [headers, expected] of cases) {
    const problem = ambiguousHeaders(headers);
    if (expected === null) assert.equal(problem, null);
    else assert.match(problem ?? '', expected);
  }
});

test('two different Content-Length headers are refused with 400, in either order, and the server lives', async () => {
  for (const lengths of [
    [5, 3],
    [3, 5],
  ]) {
    const r = await rawRequest(t.url, {
      head: `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: ${lengths[0]}\r\nContent-Length: ${lengths[1]}`,
      body: 'abcde',
    });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'ERR_BAD_REQUEST');
    assert.match(r.json.error, /content-length header is given more than once/);
  }
  await ping();
});

test('several Authorization headers are refused with 400', async () => {
  const r = await rawRequest(t.url, { head: 'GET /ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b' });
  assert.equal(r.status, 400);
  assert.match(r.json.error, /authorization header is given more than once/);
});

test('an error while reading a body closes that connection only; the process lives and says why', async () => {
  logged.length = 0;
  await assert.rejects(fetch(`${t.url}/throws`, { method: 'POST', body: 'x'.repeat(1000) }));
  await ping();
  assert.match(logged.join(''), /closed a connection whose request body could not be read: reader bug/);
});

test('a refusal goes out at once, before the rest of a large body, and the connection still works', async () => {
  const piece = Buffer.alloc(64 * 1024, 1);
  const r = await rawRequest(t.url, {
    head: 'POST /refuse HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked',
    body: Array.from({ length: 80 }, () => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])),
    pauseMs: 5,
    stopWhenAnswered: true,
  });
  assert.equal(r.status, 413);
  assert.equal(r.json.error, 'refused before the body');
  assert.ok(r.sentWhenAnswered < 40 * piece.length, `answered after ${r.sentWhenAnswered} bytes of 5 MB`);
  // Node's fetch, which sends the whole body anyway, reads the early answer too.
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 80; i++) controller.enqueue(piece);
      controller.close();
    },
  });
  const viaFetch = await fetch(`${t.url}/refuse`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
  assert.equal(viaFetch.status, 413);
  await ping();
});

test('a declared body over the limit is refused with 413 in the error shape; a route may set its own limit', async () => {
  const r = await rawRequest(t.url, { head: 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3000000', body: 'x'.repeat(100) });
  assert.equal(r.status, 413);
  assert.deepEqual(r.json, { error: 'the request body is larger than the limit of 1 KB', code: 'ERR_PAYLOAD_TOO_LARGE' });
  const fits = await fetch(`${t.url}/big`, { method: 'POST', body: 'x'.repeat(4096) });
  assert.deepEqual(await fits.json(), { length: 4096 });
  const over = await fetch(`${t.url}/big`, { method: 'POST', body: 'x'.repeat(4097) });
  assert.equal(over.status, 413);
});

test('Expect: 100-continue over the limit: uWS says 100 Continue itself, the 413 follows before any body byte', async () => {
  const r = await rawRequest(t.url, {
    head: 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3000000\r\nExpect: 100-continue',
    body: [Buffer.alloc(0)],
    pauseMs: 300,
  });
  assert.deepEqual(r.interim, ['HTTP/1.1 100 Continue']);
  assert.equal(r.status, 413);
  assert.equal(r.sentWhenAnswered, 0);
});

test('a client that leaves a held reply after its upload does not take the process down', async () => {
  const body = '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XX--\r\n';
  const { port } = new URL(t.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /held HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  const before = heldRequests;
  while (heldRequests === before) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await ping();
});

test('after a refusal before its body, the rest of the body is read and dropped and the connection serves the next request', async () => {
  const { port } = new URL(t.url);
  for (let round = 0; round < 5; round++) {
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      received += text;
    });
    const body = Buffer.alloc(2 * 1024 * 1024, 0x61);
    socket.write(`POST /refuse-later HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
    await new Promise<void>((resolve) => socket.write(body, () => resolve()));
    socket.write('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
    const deadline = Date.now() + 5000;
    while (!received.includes('pong') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    assert.match(received, /^HTTP\/1\.1 413 /, `round ${round}`);
    assert.match(received, /HTTP\/1\.1 200 OK[\s\S]*pong$/, `round ${round}: the next request on the connection is answered`);
  }
});

test('a 204 goes out without a Content-Length, and the kept-alive connection serves the next request', async () => {
  const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    text += chunk;
  });
  socket.write('POST /nothing HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.write('GET /ping HTTP/1.1\r\nHost: test\r\n\r\n');
  const deadline = Date.now() + 5000;
  while (!text.includes('pong') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  const [first] = text.split('\r\n\r\n');
  assert.match(first, /^HTTP\/1\.1 204 /);
  assert.doesNotMatch(first, /content-length/i, first);
  assert.match(text, /pong$/, text);
});
