import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseReader, type UpstreamEvent } from '../../appliance/common/sse-reader.js';

function read(chunks: string[]): { events: UpstreamEvent[]; comments: string[] } {
  const events: UpstreamEvent[] = [];
  const comments: string[] = [];
  const reader = new SseReader({ event: (e) => events.push(e), comment: (c) => comments.push(c) });
  const encoder = new TextEncoder();
  for (const chunk of chunks) reader.push(encoder.encode(chunk));
  reader.end();
  return { events, comments };
}

test('events, comments and multi-line data, as EventSource reads them', () => {
  const { events, comments } = read([
    '\uFEFF: job 1 queued\n\n',
    'event: progress\ndata: {"stage":"slicing","pct":17.2}\n\n',
    'data: first\ndata: second\n\n',
    'event: done\r\ndata: {"job_id":"1"}\r\n\r\n',
  ]);
  assert.deepEqual(comments, ['job 1 queued']);
  assert.deepEqual(events, [
    { type: 'progress', data: '{"stage":"slicing","pct":17.2}' },
    { type: 'message', data: 'first\nsecond' },
    { type: 'done', data: '{"job_id":"1"}' },
  ]);
});

test('blocks split anywhere across chunks, even inside CRLF and inside a UTF-8 character', () => {
  const text = 'event: error\r\ndata: {"message":"Überhang","code":"ERR_X"}\r\n\r\n';
  const bytes = new TextEncoder().encode(text);
  for (let cut = 1; cut < bytes.length; cut++) {
    const events: UpstreamEvent[] = [];
    const reader = new SseReader({ event: (e) => events.push(e) });
    reader.push(bytes.slice(0, cut));
    reader.push(bytes.slice(cut));
    reader.end();
    assert.deepEqual(events, [{ type: 'error', data: '{"message":"Überhang","code":"ERR_X"}' }], `cut at ${cut}`);
  }
});

test('an event without data is dropped, and so is an unfinished block at the end', () => {
  const { events } = read(['event: progress\n\n', 'event: done\ndata: {"job_id":"x"}']);
  assert.deepEqual(events, []);
});
