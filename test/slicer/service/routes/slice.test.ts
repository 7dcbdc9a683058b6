import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEventStream, type StreamEvent } from '../../../fixtures/event-stream.js';
import { box, toBinaryStl } from '../../../fixtures/meshes.js';
import { modelBytes } from '../../../fixtures/model-files.js';
import { cubeStl, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--workers', '1', '--queue-size', '4', '--max-upload-mb', '1']);
});
after(() => svc.cleanup());

function post(form: FormData | string, accept: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${svc.url}/api/slice`, { method: 'POST', body: form, headers: { accept, ...headers } });
}

async function jobRecord(id: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${svc.url}/api/jobs/${id}`)).json()) as Record<string, unknown>;
}

/** Checks a complete event stream of a successful slice and returns the done payload. */
function checkSuccessfulStream(events: StreamEvent[]): Record<string, unknown> {
  assert.ok(events.length >= 5, `events: ${events.map((e) => e.type).join(',')}`);
  assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), ['done', 'layer', 'progress']);
  assert.equal(events.at(-1)?.type, 'done');
  let lastPct = -1;
  const stages: string[] = [];
  for (const e of events.filter((x) => x.type === 'progress')) {
    const p = JSON.parse(e.data) as { stage: string; pct: number };
    assert.deepEqual(Object.keys(p).sort(), ['pct', 'stage']);
    assert.ok(p.pct >= lastPct && p.pct <= 100, `pct ${p.pct} after ${lastPct}`);
    lastPct = p.pct;
    if (stages.at(-1) !== p.stage) stages.push(p.stage);
  }
  assert.deepEqual(stages, ['loading', 'repairing', 'slicing', 'gcode']);
  assert.equal(lastPct, 100);
  for (const e of events.filter((x) => x.type === 'layer')) {
    const l = JSON.parse(e.data) as { layer: number; total_layers: number };
    assert.deepEqual(Object.keys(l).sort(), ['layer', 'total_layers']);
    assert.ok(Number.isInteger(l.layer) && l.layer >= 1 && l.layer <= l.total_layers);
  }
  return JSON.parse(events.at(-1)?.data ?? '{}') as Record<string, unknown>;
}

function checkResult(result: Record<string, unknown>, layers: number): void {
  for (const key of ['ok', 'job_id', 'gcode_path', 'gcode_size', 'estimated_time_s', 'filament_used_g']) assert.ok(key in result, key);
  assert.equal(result.ok, true);
  assert.match(String(result.job_id), /^[0-9a-f]{16}$/);
  assert.equal(result.layers, layers);
  assert.ok(Number.isInteger(result.estimated_time_s) && (result.estimated_time_s as number) > 0);
  assert.ok(Array.isArray(result.filament_used_g) && (result.filament_used_g as number[])[0] > 0);
  assert.equal(readFileSync(String(result.gcode_path)).length, result.gcode_size);
}

test('event stream: progress through every stage, layer counters, then done with the Slice result', async () => {
  const res = await post(sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), SSE);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const jobId = res.headers.get('x-job-id') ?? '';
  const parsed = await readEventStream(res);
  const done = checkSuccessfulStream(parsed.events);
  checkResult(done, 50);
  assert.equal(done.job_id, jobId);
  assert.match(parsed.comments[0], new RegExp(`^job ${jobId} (queued|running)$`));
  assert.equal((await jobRecord(jobId)).state, 'done');
});

test('buffered JSON: one Slice result when the job is done', async () => {
  const res = await post(sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, overrides: '{"layer_height":0.1}' }), JSON_TYPE);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const result = (await res.json()) as Record<string, unknown>;
  checkResult(result, 99);
  assert.equal(res.headers.get('x-job-id'), result.job_id);
  const record = await jobRecord(String(result.job_id));
  assert.deepEqual(record.overrides, { layer_height: 0.1 });
  assert.deepEqual(record.result, result);
});

test('a model with holes sliced in both response modes gives the same print', async () => {
  const model = modelBytes('sponge-8mm.stl');
  const streamed = await post(sliceForm(model, 'sponge.stl', MARLIN_PLA), SSE);
  const done = checkSuccessfulStream((await readEventStream(streamed)).events);
  const buffered = (await (await post(sliceForm(model, 'sponge.stl', MARLIN_PLA), JSON_TYPE)).json()) as Record<string, unknown>;
  checkResult(done, 40);
  checkResult(buffered, 40);
  for (const key of ['layers', 'estimated_time_s', 'filament_used_g', 'filament_used_mm', 'format']) assert.deepEqual(buffered[key], done[key], key);
  const gcode = await (await fetch(`${svc.url}${String(buffered.gcode_url)}`)).text();
  assert.match(gcode, /^; generated by Printyard 0\.1\.0/);
  assert.equal(gcode.match(/^;LAYER_CHANGE$/gm)?.length, 40);
  assert.equal(path.basename(String(buffered.gcode_path)), 'sponge.gcode');
});

test('missing or invalid fields are 400 ERR_BAD_REQUEST naming the field, in either mode', async () => {
  const noModel = new FormData();
  for (const [k, v] of Object.entries(MARLIN_PLA)) noModel.append(k, v);
  const cases: Array<[FormData | string, RegExp, Record<string, string>?]> = [
    [noModel, /field "model" is required/],
    [sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, printer_id: '' }), /field "printer_id" is required/],
    [sliceForm(cubeStl(), 'cube.stl', { printer_id: MARLIN_PLA.printer_id, process_id: MARLIN_PLA.process_id }), /field "filament_ids" is required/],
    [sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, filament_ids: 'generic-pla' }), /field "filament_ids" must be a JSON array/],
    [sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, overrides: '{"infill_densty":"20%"}' }), /field "overrides": unknown setting "infill_densty"/],
    [
      sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, overrides: '{"layer_height":-1}' }),
      /field "overrides": invalid value for setting "layer_height"/,
    ],
    [
      sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, filament_ids: '["generic-pla","generic-petg"]' }),
      /field "filament_ids": printer "generic-marlin-0.4" takes 1 to 1 filaments, got 2/,
    ],
    ['printer_id=x', /expected a multipart\/form-data body/, { 'content-type': 'application/x-www-form-urlencoded' }],
  ];
  for (const [form, message, headers] of cases) {
    for (const accept of [JSON_TYPE, SSE]) {
      const res = await post(form, accept, headers);
      assert.equal(res.status, 400, `${message} (${accept})`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await res.json()) as { error: string; code: string };
      assert.equal(body.code, 'ERR_BAD_REQUEST');
      assert.match(body.error, message);
    }
  }
});

test('an unknown profile is 404, a file that is no model 415, an upload over the limit 413, an unusable Accept 406', async () => {
  const unknown = await post(sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, process_id: 'no-such-process' }), JSON_TYPE);
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { error: 'unknown process profile "no-such-process"', code: 'ERR_PROFILE_NOT_FOUND' });
  const wrongKind = await post(sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, printer_id: 'generic-pla' }), SSE);
  assert.equal(wrongKind.status, 404);

  const png = await post(sliceForm(readFileSync(path.join(process.cwd(), 'package.json')), 'package.json', MARLIN_PLA), JSON_TYPE);
  assert.equal(png.status, 415);
  const pngBody = (await png.json()) as { error: string; code: string };
  assert.equal(pngBody.code, 'ERR_UNSUPPORTED_MODEL');
  assert.match(pngBody.error, /"package.json" is neither an STL .* nor a 3MF file/);

  const big = await post(sliceForm(new Uint8Array(1536 * 1024).fill(32), 'huge.stl', MARLIN_PLA), JSON_TYPE);
  assert.equal(big.status, 413);
  assert.deepEqual(await big.json(), {
    error: 'the upload is larger than the limit of 1 MB for the file (1.31 MB for the whole form)',
    code: 'ERR_PAYLOAD_TOO_LARGE',
  });

  const html = await post(sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), 'text/html');
  assert.equal(html.status, 406);
  assert.equal(((await html.json()) as { code: string }).code, 'ERR_NOT_ACCEPTABLE');
  assert.deepEqual(((await (await fetch(`${svc.url}/api/jobs`)).json()) as { queued: unknown[] }).queued, []);
});

test('a corrupted upload fails as ERR_BAD_MODEL: 422 buffered, an error event streamed', async () => {
  const corrupt = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(400, 0x41)]);
  const buffered = await post(sliceForm(corrupt, 'broken.3mf', MARLIN_PLA), JSON_TYPE);
  assert.equal(buffered.status, 422);
  const body = (await buffered.json()) as { error: string; code: string };
  assert.equal(body.code, 'ERR_BAD_MODEL');
  assert.equal((await jobRecord(buffered.headers.get('x-job-id') ?? '')).state, 'failed');

  const streamed = await post(sliceForm(corrupt, 'broken.3mf', MARLIN_PLA), SSE);
  assert.equal(streamed.status, 200);
  const events = (await readEventStream(streamed)).events;
  const last = events.at(-1);
  assert.equal(last?.type, 'error');
  assert.deepEqual(JSON.parse(last?.data ?? '{}'), { message: body.error, code: 'ERR_BAD_MODEL' });
  assert.ok(!events.some((e) => e.type === 'done'));
});

test('a model larger than the bed fails as ERR_MODEL_OUTSIDE_BED', async () => {
  const huge = toBinaryStl(box(300, 300, 10));
  const buffered = await post(sliceForm(huge, 'plate.stl', MARLIN_PLA), JSON_TYPE);
  assert.equal(buffered.status, 422);
  assert.equal(((await buffered.json()) as { code: string }).code, 'ERR_MODEL_OUTSIDE_BED');
  const events = (await readEventStream(await post(sliceForm(huge, 'plate.stl', MARLIN_PLA), SSE))).events;
  assert.equal(events.at(-1)?.type, 'error');
  assert.equal((JSON.parse(events.at(-1)?.data ?? '{}') as { code: string }).code, 'ERR_MODEL_OUTSIDE_BED');
});

test('a client that leaves the stream does not stop the job: its G-code stays downloadable', async () => {
  const controller = new AbortController();
  const res = await fetch(`${svc.url}/api/slice`, {
    method: 'POST',
    body: sliceForm(cubeStl(), 'left.stl', MARLIN_PLA),
    headers: { accept: SSE },
    signal: controller.signal,
  });
  const jobId = res.headers.get('x-job-id') ?? '';
  await readEventStream(res, (e) => e.type === 'progress');
  controller.abort();
  let record = await jobRecord(jobId);
  const deadline = Date.now() + 20_000;
  while (record.state !== 'done' && Date.now() < deadline) {
    await sleep(50);
    record = await jobRecord(jobId);
  }
  assert.equal(record.state, 'done');
  const gcode = await fetch(`${svc.url}/api/jobs/${jobId}/gcode`);
  assert.equal(gcode.status, 200);
  assert.match(gcode.headers.get('content-disposition') ?? '', /filename="left.gcode"/);
  assert.match(await gcode.text(), /^; generated by Printyard/);
});

test('an engine failure is ERR_SLICE_FAILED: 500 buffered, an error event streamed', async () => {
  const slow = slowJob();
  const blocker = await post(sliceForm(slow.model, 'slow.stl', { ...MARLIN_PLA, overrides: slow.overrides }), SSE);
  const blockerId = blocker.headers.get('x-job-id') ?? '';
  void blocker.body?.cancel();
  const streamed = await post(sliceForm(cubeStl(), 'lost.stl', MARLIN_PLA), SSE);
  const buffered = post(sliceForm(cubeStl(), 'lost2.stl', MARLIN_PLA), JSON_TYPE);
  let bufferedId = '';
  while (bufferedId === '') {
    const queued = ((await (await fetch(`${svc.url}/api/jobs`)).json()) as { queued: Array<{ id: string; model_name: string }> }).queued;
    bufferedId = queued.find((j) => j.model_name === 'lost2.stl')?.id ?? '';
    if (bufferedId === '') await sleep(20);
  }
  // The models vanish while the jobs wait: the slicing thread cannot read them.
  for (const id of [streamed.headers.get('x-job-id') ?? '', bufferedId]) rmSync(path.join(svc.jobsDir, id), { recursive: true, force: true });
  assert.equal((await fetch(`${svc.url}/api/jobs/${blockerId}/cancel`, { method: 'POST' })).status, 200);

  const events = (await readEventStream(streamed)).events;
  assert.equal(events.at(-1)?.type, 'error');
  assert.equal((JSON.parse(events.at(-1)?.data ?? '{}') as { code: string }).code, 'ERR_SLICE_FAILED');
  const res = await buffered;
  assert.equal(res.status, 500);
  assert.equal(((await res.json()) as { code: string }).code, 'ERR_SLICE_FAILED');
});

test('a client that goes away in the middle of its upload leaves no job, no file and a running service', async () => {
  const before = ((await (await fetch(`${svc.url}/api/jobs`)).json()) as { finished: unknown[] }).finished.length;
  for (const cutIn of ['model"; filename="cube.stl"\r\n\r\nsolid cube\nfacet', 'printer_id"\r\n\r\ngeneric-mar']) {
    const socket = net.connect(svc.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/slice HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: multipart/form-data; boundary=b0undary\r\n' +
        `Content-Length: 50000\r\n\r\n--b0undary\r\nContent-Disposition: form-data; name="${cutIn}`,
    );
    await sleep(150);
    socket.destroy();
  }
  await sleep(200);
  assert.equal((await fetch(`${svc.url}/api/health`)).status, 200);
  const jobs = (await (await fetch(`${svc.url}/api/jobs`)).json()) as { running: unknown[]; queued: unknown[]; finished: unknown[] };
  assert.deepEqual([jobs.running.length, jobs.queued.length, jobs.finished.length], [0, 0, before]);
  assert.deepEqual(readdirSync(path.join(svc.jobsDir, '.uploads')), []);
});
