import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventStream, formatComment, formatEvent } from '../../appliance/common/sse.js';
import { parseEventStream, readEventStream } from '../fixtures/event-stream.js';
import { startApp } from '../fixtures/http-app.js';

test('events and comments are framed as the format requires', () => {
  assert.equal(formatEvent('progress', '{"pct":5}'), 'event: progress\ndata: {"pct":5}\n\n');
  assert.equal(formatEvent('note', 'a\nb\r\nc'), 'event: note\ndata: a\ndata: b\ndata: c\n\n');
  assert.equal(formatComment('keep-alive'), ': keep-alive\n\n');
  assert.throws(() => formatEvent('bad\nname', 'x'));
  const parsed = parseEventStream(formatComment('hi') + formatEvent('note', 'a\nb') + formatEvent('done', '{}'));
  assert.deepEqual(
    parsed.events.map((e) => [e.type, e.data]),
    [
      ['note', 'a\nb'],
      ['done', '{}'],
    ],
  );
  assert.deepEqual(parsed.comments, ['hi']);
});

test('a stream over HTTP: headers, events, keep-alive comments, end', async () => {
  const t = await startApp((app) =>
    app.post('/events', (req, res) => {
      const stream = new EventStream(req, res, { keepAliveMs: 40, headers: { 'x-job-id': 'j1' } });
      stream.open('hello');
      stream.send('progress', { stage: 'slicing', pct: 10 });
      setTimeout(() => {
        stream.send('done', { ok: true });
        stream.end();
      }, 150);
    }),
  );
  try {
    const res = await fetch(`${t.url}/events`, { method: 'POST', headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(res.headers.get('x-job-id'), 'j1');
    const parsed = await readEventStream(res);
    assert.deepEqual(
      parsed.events.map((e) => [e.type, JSON.parse(e.data)]),
      [
        ['progress', { stage: 'slicing', pct: 10 }],
        ['done', { ok: true }],
      ],
    );
    assert.equal(parsed.comments[0], 'hello');
    assert.ok(parsed.comments.filter((c) => c === 'keep-alive').length >= 2, `keep-alives: ${parsed.comments.join('|')}`);
  } finally {
    t.close();
  }
});

test('a client that goes away ends the stream and calls the close listeners', async () => {
  let closed: () => void = () => undefined;
  const wasClosed = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const held: { stream?: EventStream } = {};
  const t = await startApp((app) =>
    app.post('/events', (req, res) => {
      const stream = new EventStream(req, res, { keepAliveMs: 20 });
      held.stream = stream;
      stream.open();
      stream.onClose(closed);
    }),
  );
  try {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/events`, { method: 'POST', signal: controller.signal });
    const reader = res.body?.getReader();
    await reader?.read();
    controller.abort();
    await wasClosed;
    assert.equal(held.stream?.active, false);
    held.stream?.send('late', 'ignored');
  } finally {
    t.close();
  }
});
