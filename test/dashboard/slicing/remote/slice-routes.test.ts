import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { STREAM_ENDED_WITHOUT_DONE } from '../../../../appliance/dashboard/slicing/remote/slice-stream.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { readEventStream } from '../../../fixtures/event-stream.js';
import { FAKE_ERROR, FAKE_JOB_ID, startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { cubeStl, MARLIN_PLA, sliceForm } from '../../../fixtures/slicer-service.js';
import { asJson, eventually, postForm, receivingDrivers, startRemoteDashboard, TEST_TOKENS, type TestPrinters } from './remote-dashboard.js';

const GCODE = ';LAYER_CHANGE\nM83\nG1 Z0.2\nG1 X1 Y1\nG1 X2 Y1 E0.1\n';

let upstream: FakeUpstream;
let dash: DashboardFixture;
let printers: TestPrinters;
before(async () => {
  upstream = await startFakeUpstream({ token: 'tok', gcode: GCODE });
  printers = receivingDrivers();
  dash = await startRemoteDashboard({ url: upstream.url, token: 'tok', printers });
});
after(async () => {
  await dash.cleanup();
  await upstream.close();
});

const form = () => sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA);

async function stream(): Promise<{ response: Response; events: Array<{ type: string; data: string }> }> {
  const response = await postForm(dash, '/api/slicer/remote/slice/stream', form());
  assert.equal(response.status, 200, await response.clone().text());
  const parser = await readEventStream(response);
  return { response, events: parser.events.map(({ type, data }) => ({ type, data })) };
}

test('slice/stream relays the events unchanged, as an event stream a browser can read', async () => {
  upstream.options.slice = 'ok';
  upstream.requests.length = 0;
  const { response, events } = await stream();
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  assert.equal(response.headers.get('x-job-id'), FAKE_JOB_ID);
  assert.deepEqual(
    events.map((e) => e.type),
    ['progress', 'layer', 'progress', 'done'],
  );
  assert.equal(events[0].data, '{"stage":"loading","pct":5}');
  assert.equal(JSON.parse(events[3].data).job_id, FAKE_JOB_ID);
  const slice = upstream.requests.find((r) => r.path === '/api/slice')!;
  assert.deepEqual([slice.authorization, slice.accept], ['Bearer tok', 'text/event-stream']);
  assert.equal((await postForm(dash, '/api/slicer/remote/slice/stream', form(), 'view')).status, 403);
});

test('an error event is relayed with its message and code; the older `error` field too', async () => {
  upstream.options.slice = 'error-event';
  const current = await stream();
  assert.deepEqual(
    current.events.map((e) => e.type),
    ['progress', 'error'],
  );
  assert.deepEqual(JSON.parse(current.events[1].data), FAKE_ERROR);
  upstream.options.slice = 'error-field';
  const older = await stream();
  assert.deepEqual(JSON.parse(older.events[1].data), { error: FAKE_ERROR.message, code: FAKE_ERROR.code });
});

test('the consumer rule in the buffered slice: an error event rejects with its text (from `error` as fallback) and code, not retried', async () => {
  for (const behaviour of ['error-event', 'error-field'] as const) {
    upstream.options.slice = behaviour;
    const res = await asJson(await postForm(dash, '/api/slicer/remote/slice', form()));
    assert.deepEqual([res.status, res.json.code, res.json.error], [422, FAKE_ERROR.code, FAKE_ERROR.message], behaviour);
  }
});

test('a stream that ends without done: the relay ends with that error; the buffered slice falls back', async () => {
  upstream.options.slice = 'no-done';
  const { events } = await stream();
  assert.deepEqual(
    events.map((e) => e.type),
    ['progress', 'error'],
  );
  assert.deepEqual(JSON.parse(events[1].data), { message: STREAM_ENDED_WITHOUT_DONE, code: 'ERR_UNAVAILABLE' });
  assert.equal(STREAM_ENDED_WITHOUT_DONE, 'SSE stream ended without a done event');

  const res = await asJson(await postForm(dash, '/api/slicer/remote/slice', form()));
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.backend, 'native');
  assert.deepEqual(res.json.skipped[0], { backend: 'remote', reason: STREAM_ENDED_WITHOUT_DONE });
  assert.equal(res.json.skipped[1].backend, 'bridge');
});

test('501 for slicing: the stream route says unavailable; the buffered slice falls back to the next backend', async () => {
  upstream.options.slice = 'not-implemented';
  const streamed = await asJson(await postForm(dash, '/api/slicer/remote/slice/stream', form()));
  assert.deepEqual([streamed.status, streamed.json.code], [503, 'ERR_UNAVAILABLE']);
  assert.match(streamed.json.error, /does not implement slicing \(501\)/);

  const res = await asJson(await postForm(dash, '/api/slicer/remote/slice', form()));
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.backend, 'native');
  assert.deepEqual(
    res.json.skipped.map((s: { backend: string }) => s.backend),
    ['remote', 'bridge'],
  );
  assert.equal(res.json.skipped[0].reason, 'the slicer service does not implement slicing (501)');
  assert.ok(res.json.layers > 0 && res.json.filament_g[0] > 0 && res.json.estimated_time_s > 0);
  const file = await dash.request('get', res.json.gcode_url, { token: TEST_TOKENS.view });
  assert.equal(file.status, 200);
  assert.match(file.headers.get('content-disposition') ?? '', /filename="cube\.gcode"/);
  assert.match(file.text, /^; generated by Printyard/);
  const svg = await dash.request('get', `/api/slicer/remote/preview?result=${res.json.id}&format=svg`, { token: TEST_TOKENS.view });
  assert.match(svg.text, /data-type="External perimeter"/);
});

test('a buffered slice on the service: the result names it and its G-code is downloaded from it', async () => {
  upstream.options.slice = 'ok';
  const res = await asJson(await postForm(dash, '/api/slicer/remote/slice', form()));
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    [res.json.backend, res.json.skipped, res.json.layers, res.json.estimated_time_s, res.json.filament_g],
    ['remote', [], 1, 42, [1.5]],
  );
  assert.equal((await dash.request('get', res.json.gcode_url, { token: TEST_TOKENS.view })).text, GCODE);
  const bad = await asJson(
    await postForm(dash, '/api/slicer/remote/slice', sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, filament_ids: 'pla' })),
  );
  assert.deepEqual([bad.status, bad.json.code, bad.json.details[0].path], [400, 'ERR_VALIDATION', 'body/filament_ids']);
});

test('slice-and-send: sliced, handed to the printer driver, started; then the busy printer is refused', async () => {
  upstream.options.slice = 'ok';
  const created = await dash.request('post', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: { name: 'MK3 test', type: 'marlin-serial', printer_profile: 'generic-marlin-0.4', connection: { port: '/dev/ttyTEST0' } },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as string;
  await eventually('the printer online', async () => (await dash.request('get', `/api/printers/${id}`, { token: TEST_TOKENS.view })).json.online);

  const sendForm = () => {
    const f = new FormData();
    f.append('model', new Blob([cubeStl()]), 'cube.stl');
    f.append('printer_id', id);
    f.append('filament_ids', MARLIN_PLA.filament_ids);
    f.append('process_id', MARLIN_PLA.process_id);
    return f;
  };
  const sent = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm()));
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual([sent.json.printer, sent.json.started, sent.json.result.backend], [{ id, name: 'MK3 test' }, true, 'remote']);
  const driver = printers.drivers.at(-1)!;
  assert.deepEqual(driver.started, [sent.json.remote_name]);
  assert.equal(driver.files.get(sent.json.remote_name), GCODE);

  const busy = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm()));
  assert.deepEqual([busy.status, busy.json.code], [409, 'ERR_CONFLICT']);
  assert.match(busy.json.error, /busy/);
  const unknown = new FormData();
  unknown.append('model', new Blob([cubeStl()]), 'cube.stl');
  unknown.append('printer_id', '0000000000000000');
  unknown.append('filament_ids', MARLIN_PLA.filament_ids);
  unknown.append('process_id', MARLIN_PLA.process_id);
  assert.equal((await postForm(dash, '/api/slicer/remote/slice-and-send', unknown)).status, 404);
});
