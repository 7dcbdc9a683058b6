/**
 * The slicer service integration end to end: the real printyard-slicer and a real dashboard,
 * a browser-style client on the event stream and on the WebSocket. The service is killed and
 * restarted on its port to see the probe flip, the notifications arrive once each, and slicing
 * fall back to the desktop-slicer bridge (Debian's prusa-slicer) or the built-in engine.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { DISCONNECTED, RECONNECTED } from '../../../../appliance/dashboard/slicing/remote/probe.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { readEventStream } from '../../../fixtures/event-stream.js';
import { cubeStl, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';
import { connect, wsUrl, type TestClient } from '../../live/ws-client.js';
import { asJson, eventually, postForm, startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

let slicer: SlicerProcess;
let dash: DashboardFixture;
let socket: TestClient;
const notified: string[] = [];

before(async () => {
  slicer = await startSlicer();
  // The bridge searches the usual places, so Debian's prusa-slicer is found when installed.
  dash = await startRemoteDashboard({ url: slicer.url, bridge: {} });
  socket = connect(wsUrl(dash.url, `?token=${TEST_TOKENS.view}`));
  socket.ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; payload: { kind?: string } };
    if (message.type === 'notification' && message.payload.kind) notified.push(message.payload.kind);
  });
  await socket.opened;
});
after(async () => {
  socket.ws.close();
  await dash.cleanup();
  await slicer.cleanup();
});

const status = async () => (await dash.request('get', '/api/slicer/remote/status?force=1', { token: TEST_TOKENS.view })).json;
const count = (kind: string) => notified.filter((k) => k === kind).length;
async function stored(kind: string): Promise<number> {
  const list = await dash.request('get', '/api/notifications?limit=500', { token: TEST_TOKENS.view });
  return list.json.items.filter((n: { kind: string }) => n.kind === kind).length;
}

test('a full slice through slice/stream, read as an EventSource reads it; then the job through the proxy', async () => {
  assert.equal((await status()).ok, true);
  const response = await postForm(dash, '/api/slicer/remote/slice/stream', sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const jobId = response.headers.get('x-job-id');
  assert.match(jobId ?? '', /^[0-9a-f]{16}$/);
  const parser = await readEventStream(response);
  const types = parser.events.map((e) => e.type);
  assert.equal(types.at(-1), 'done');
  assert.ok(types.includes('progress') && types.includes('layer'));
  const stages = parser.events.filter((e) => e.type === 'progress').map((e) => JSON.parse(e.data));
  assert.equal(stages.at(-1).pct, 100);
  assert.ok(
    stages.every((p, i) => i === 0 || p.pct >= stages[i - 1].pct),
    'relayed in order',
  );
  const done = JSON.parse(parser.events.at(-1)!.data);
  assert.deepEqual([done.ok, done.job_id, done.layers, done.format], [true, jobId, 50, 'gcode']);

  const jobs = await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.view });
  assert.ok(jobs.json.finished.some((j: { id: string; state: string }) => j.id === jobId && j.state === 'done'));
  const gcode = await dash.request('get', `/api/slicer/remote/jobs/${jobId}/gcode`, { token: TEST_TOKENS.view });
  assert.equal(gcode.status, 200);
  assert.match(gcode.headers.get('content-disposition') ?? '', /filename="cube\.gcode"/);
  assert.equal(Buffer.byteLength(gcode.text), done.gcode_size);
  const png = await fetch(`${dash.url}/api/slicer/remote/preview?job=${jobId}`, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  assert.equal(png.headers.get('content-type'), 'image/png');
  assert.deepEqual([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const svg = await dash.request('get', `/api/slicer/remote/preview?job=${jobId}&format=svg`, { token: TEST_TOKENS.view });
  for (const type of ['Skirt/Brim', 'External perimeter', 'Perimeter']) assert.match(svg.text, new RegExp(`data-type="${type}"`));
  assert.doesNotMatch(svg.text, /data-type="Custom"/, 'the prime line of the start G-code is not part of the first layer');
  assert.equal((await dash.request('post', `/api/slicer/remote/jobs/${jobId}/cancel`, { token: TEST_TOKENS.print })).json.code, 'ERR_JOB_FINISHED');

  const buffered = await asJson(await postForm(dash, '/api/slicer/remote/slice', sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA)));
  assert.deepEqual([buffered.status, buffered.json.backend, buffered.json.skipped, buffered.json.layers], [200, 'remote', [], 50]);
  const unknown = await asJson(
    await postForm(dash, '/api/slicer/remote/slice', sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, process_id: 'no-such' })),
  );
  assert.deepEqual([unknown.status, unknown.json.code], [404, 'ERR_PROFILE_NOT_FOUND'], "the user's mistake is answered, not retried elsewhere");
});

test('a browser that leaves the stream stops the relay, not the job; cancel goes through the proxy', async () => {
  const slow = slowJob();
  const response = await postForm(
    dash,
    '/api/slicer/remote/slice/stream',
    sliceForm(slow.model, 'block.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
  );
  const jobId = response.headers.get('x-job-id')!;
  await readEventStream(response, (e) => e.type === 'progress');
  const job = async () => {
    const jobs = (await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.view })).json;
    return [...jobs.running, ...jobs.queued, ...jobs.finished].find((j: { id: string }) => j.id === jobId);
  };
  await eventually('the job to run on after the browser left', async () => (await job())?.state === 'running');
  const cancelled = await dash.request('post', `/api/slicer/remote/jobs/${jobId}/cancel`, { token: TEST_TOKENS.print });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.state, 'cancelled');
  assert.equal(cancelled.json.error.code, 'ERR_CANCELLED');
});

test('the service killed: the probe flips, one disconnected notification, the next slice falls back; restarted: one reconnected', async () => {
  const port = slicer.port;
  // Killed with the dashboard's keep-alive connections (usually) still open: they stay in
  // TIME_WAIT on the port, and the restart on the same port right away must work all the same.
  await slicer.stop('SIGKILL');
  const down = await status();
  assert.deepEqual([down.ok, down.state], [false, 'unreachable']);
  await status();
  await eventually('the notification on the WebSocket', async () => count(DISCONNECTED) === 1);
  assert.equal(await stored(DISCONNECTED), 1);

  const fallback = await asJson(await postForm(dash, '/api/slicer/remote/slice', sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA)));
  assert.equal(fallback.status, 200, fallback.text);
  const bridge = existsSync('/usr/bin/prusa-slicer') || existsSync('/usr/bin/CuraEngine');
  assert.equal(fallback.json.backend, bridge ? 'bridge' : 'native');
  assert.equal(fallback.json.skipped[0].backend, 'remote');
  assert.equal(fallback.json.skipped[0].reason, 'the slicer service cannot be reached', 'the public reason: no connection detail for a print user');
  assert.ok(fallback.json.layers > 0);
  assert.match((await dash.request('get', fallback.json.gcode_url, { token: TEST_TOKENS.view })).text, /G1 /);
  assert.equal(count(DISCONNECTED), 1, 'still one: a failed slice is not a new transition');

  slicer = await startSlicer(['--rest-port', String(port)], { root: slicer.root });
  assert.equal((await status()).ok, true);
  await status();
  await eventually('the reconnection on the WebSocket', async () => count(RECONNECTED) === 1);
  assert.equal(await stored(RECONNECTED), 1);
  assert.equal(count(DISCONNECTED), 1);
  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.deepEqual(
    [info.json.slicer_service.ok, info.json.slicer_service.url, info.json.slicer_service.upstream],
    [true, slicer.url, 'Printyard engine 0.1.0 (OrcaSlicer setting names)'],
  );
});
