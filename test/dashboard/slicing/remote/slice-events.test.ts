/**
 * POST /api/slicer/remote/slice/events: the buffered slice's fallback chain with its progress as an
 * event stream (the slice page follows it). With the service (a fake upstream) the service's
 * progress arrives and `done` is the stored result; with the service unreachable the built-in
 * engine slices, its own progress arrives and `done` names the skipped backends; a mistake in the
 * request is an `error` event with its code and status; view users are refused before anything.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { readEventStream } from '../../../fixtures/event-stream.js';
import { FAKE_ERROR, startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';
import { cubeStl, MARLIN_PLA, sliceForm } from '../../../fixtures/slicer-service.js';
import { asJson, postForm, startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const GCODE = ';LAYER_CHANGE\nM83\nG1 Z0.2\nG1 X1 Y1\nG1 X2 Y1 E0.1\n';
const PATH = '/api/slicer/remote/slice/events';

let upstream: FakeUpstream;
let withService: DashboardFixture;
let withoutService: DashboardFixture;
before(async () => {
  upstream = await startFakeUpstream({ token: 'tok', gcode: GCODE });
  [withService, withoutService] = await Promise.all([
    startRemoteDashboard({ url: upstream.url, token: 'tok' }),
    // Port 9 (discard) refuses connections here: the service cannot be reached.
    startRemoteDashboard({ url: 'http://127.0.0.1:9' }),
  ]);
});
after(async () => {
  await Promise.all([withService?.cleanup(), withoutService?.cleanup()]);
  await upstream?.close();
});

async function events(dash: DashboardFixture, form: FormData): Promise<Array<{ type: string; data: any }>> {
  const response = await postForm(dash, PATH, form);
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const parser = await readEventStream(response);
  return parser.events.map(({ type, data }) => ({ type, data: JSON.parse(data) }));
}

test('with the service: its progress, then the stored result made by the remote backend', async () => {
  upstream.options.slice = 'ok';
  const got = await events(withService, sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA));
  assert.deepEqual(
    got.map((e) => e.type),
    ['progress', 'progress', 'done'],
  );
  assert.deepEqual(got[0].data, { stage: 'loading', pct: 5 });
  const result = got[2].data;
  assert.deepEqual(
    [result.backend, result.skipped, result.file_name, result.layers, result.estimated_time_s, result.filament_g],
    ['remote', [], 'cube.gcode', 1, 42, [1.5]],
  );
  const file = await fetch(withService.url + result.gcode_url, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  assert.equal(await file.text(), GCODE);
});

test('a mistake in the request is an error event with its code and status, and nothing is tried elsewhere', async () => {
  upstream.options.slice = 'error-event';
  const got = await events(withService, sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA));
  assert.deepEqual(got.at(-1), { type: 'error', data: { ...FAKE_ERROR, status: 422 } });
  upstream.options.slice = 'ok';
});

test('without the service: the built-in engine slices with its own progress; done names what was skipped and why', async () => {
  const got = await events(withoutService, sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA));
  const progress = got.filter((e) => e.type === 'progress').map((e) => e.data.pct as number);
  assert.ok(progress.filter((pct) => pct > 0 && pct < 100).length >= 2, `progress between 0 and 100: ${progress.join(', ')}`);
  assert.deepEqual(
    progress,
    [...progress].sort((a, b) => a - b),
    'progress only grows',
  );
  const done = got.at(-1)!;
  assert.equal(done.type, 'done');
  assert.equal(done.data.backend, 'native');
  assert.deepEqual(
    done.data.skipped.map((s: { backend: string }) => s.backend),
    ['remote', 'bridge'],
  );
  assert.match(done.data.skipped[0].reason, /cannot be reached/);
  assert.ok(done.data.layers > 10 && done.data.estimated_time_s > 0, JSON.stringify(done.data));

  const unknown = await events(withoutService, sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, process_id: 'no-such-process' }));
  const error = unknown.at(-1)!;
  assert.deepEqual([error.type, error.data.code, error.data.status], ['error', 'ERR_PROFILE_NOT_FOUND', 404]);
});

test('a view user is refused before anything is read; a form without a model is JSON 400', async () => {
  const refused = await asJson(await postForm(withoutService, PATH, sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), 'view'));
  assert.deepEqual([refused.status, refused.json.code], [403, 'ERR_FORBIDDEN']);
  const form = new FormData();
  for (const [name, value] of Object.entries(MARLIN_PLA)) form.append(name, value);
  const missing = await asJson(await postForm(withoutService, PATH, form));
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.json.code, 'ERR_VALIDATION');
});
