import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEventStream } from '../../../fixtures/event-stream.js';
import { cubeStl, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

interface Queue {
  running: Array<Record<string, unknown>>;
  queued: Array<Record<string, unknown>>;
  finished: Array<Record<string, unknown>>;
  limits: Record<string, number>;
}

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--workers', '1', '--queue-size', '1', '--keep-jobs', '2']);
});
after(() => svc.cleanup());

const get = (p: string) => fetch(`${svc.url}${p}`);
const cancel = (id: string) => fetch(`${svc.url}/api/jobs/${id}/cancel`, { method: 'POST' });
const queue = async () => (await (await get('/api/jobs')).json()) as Queue;
const slice = (form: FormData, accept: string) => fetch(`${svc.url}/api/slice`, { method: 'POST', body: form, headers: { accept } });

function pngSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

test('GET /api/jobs starts empty and shows the limits', async () => {
  assert.deepEqual(await queue(), { running: [], queued: [], finished: [], limits: { workers: 1, queue_size: 1 } });
});

test('one running and one waiting job fill the queue: the next slice is 429; both can be cancelled', async () => {
  const slow = slowJob();
  const running = await slice(sliceForm(slow.model, 'slow.stl', { ...MARLIN_PLA, overrides: slow.overrides }), 'text/event-stream');
  const runningId = running.headers.get('x-job-id') ?? '';
  const runningEvents = readEventStream(running);
  const waitingReply = slice(sliceForm(cubeStl(), 'waiting.stl', MARLIN_PLA), 'application/json');
  let q = await queue();
  while (q.queued.length === 0) {
    await sleep(20);
    q = await queue();
  }
  const waitingId = String(q.queued[0].id);

  const refused = await slice(sliceForm(cubeStl(), 'third.stl', MARLIN_PLA), 'application/json');
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '5');
  assert.equal(((await refused.json()) as { code: string }).code, 'ERR_TOO_MANY_JOBS');

  assert.deepEqual(
    q.running.map((j) => j.id),
    [runningId],
  );
  const record = q.queued[0];
  assert.deepEqual(Object.keys(record).sort(), [
    'created_at',
    'error',
    'filament_ids',
    'finished_at',
    'id',
    'layer',
    'model_name',
    'model_size',
    'overrides',
    'pct',
    'printer_id',
    'process_id',
    'result',
    'stage',
    'started_at',
    'state',
    'total_layers',
  ]);
  assert.deepEqual(
    [record.state, record.model_name, record.model_size, record.printer_id, record.filament_ids, record.process_id, record.started_at],
    ['queued', 'waiting.stl', cubeStl().length, 'generic-marlin-0.4', ['generic-pla'], '0.20mm-standard', null],
  );

  let live = (await (await get(`/api/jobs/${runningId}`)).json()) as Record<string, unknown>;
  while (live.stage !== 'gcode') {
    await sleep(50);
    live = (await (await get(`/api/jobs/${runningId}`)).json()) as Record<string, unknown>;
  }
  assert.equal(live.state, 'running');
  assert.ok((live.pct as number) >= 30 && typeof live.started_at === 'string');
  assert.ok((live.total_layers as number) > 3000 && (live.layer as number) >= 1, JSON.stringify(live));

  const cancelledWaiting = await cancel(waitingId);
  assert.equal(cancelledWaiting.status, 200);
  assert.equal(((await cancelledWaiting.json()) as { state: string }).state, 'cancelled');
  const waitingResult = await waitingReply;
  assert.equal(waitingResult.status, 409);
  assert.equal(((await waitingResult.json()) as { code: string }).code, 'ERR_CANCELLED');

  const cancelledRunning = await cancel(runningId);
  const body = (await cancelledRunning.json()) as { state: string; error: { code: string } };
  assert.deepEqual([cancelledRunning.status, body.state, body.error.code], [200, 'cancelled', 'ERR_CANCELLED']);
  const events = (await runningEvents).events;
  assert.equal(events.at(-1)?.type, 'error');
  assert.deepEqual(JSON.parse(events.at(-1)?.data ?? '{}'), { message: 'the job was cancelled', code: 'ERR_CANCELLED' });

  const again = await cancel(runningId);
  assert.equal(again.status, 409);
  assert.equal(((await again.json()) as { code: string }).code, 'ERR_JOB_FINISHED');
  for (const p of [`/api/jobs/${runningId}/gcode`, `/api/jobs/${runningId}/preview.png`]) {
    const res = await get(p);
    assert.equal(res.status, 409);
    assert.deepEqual(await res.json(), {
      error: `job ${runningId} has no ${p.endsWith('gcode') ? 'G-code' : 'preview'}: it was cancelled`,
      code: 'ERR_JOB_NOT_DONE',
    });
  }
  const after = await queue();
  assert.deepEqual([after.running, after.queued], [[], []]);
  assert.deepEqual(
    after.finished.map((j) => j.id),
    [runningId, waitingId],
  );
});

test('unknown jobs are 404 ERR_JOB_NOT_FOUND on every job endpoint', async () => {
  for (const id of ['ffffffffffffffff', 'not-a-job', '..%2F..%2Fetc']) {
    for (const res of [
      await get(`/api/jobs/${id}`),
      await get(`/api/jobs/${id}/gcode`),
      await get(`/api/jobs/${id}/preview.png`),
      await cancel(id),
    ]) {
      assert.equal(res.status, 404, id);
      assert.equal(((await res.json()) as { code: string }).code, 'ERR_JOB_NOT_FOUND');
    }
  }
});

test('finished jobs serve their G-code (or .gcode.3mf) and a top-down PNG; only the newest are kept', async () => {
  const marlin = (await (await slice(sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), 'application/json')).json()) as Record<string, string>;
  const gcode = await get(`/api/jobs/${marlin.job_id}/gcode`);
  assert.equal(gcode.status, 200);
  assert.equal(gcode.headers.get('content-type'), 'text/x.gcode');
  assert.equal(gcode.headers.get('content-disposition'), `attachment; filename="cube.gcode"; filename*=UTF-8''cube.gcode`);
  assert.equal(Number(gcode.headers.get('content-length')), Number(marlin.gcode_size));
  assert.equal((await gcode.arrayBuffer()).byteLength, Number(marlin.gcode_size));
  const preview = await get(`/api/jobs/${marlin.job_id}/preview.png`);
  assert.equal(preview.headers.get('content-type'), 'image/png');
  assert.deepEqual(pngSize(new Uint8Array(await preview.arrayBuffer())), [512, 512]);

  const bambuForm = sliceForm(cubeStl(), 'cube.stl', { ...MARLIN_PLA, printer_id: 'bambu-lab-p1s-0.4' });
  const bambu = (await (await slice(bambuForm, 'application/json')).json()) as Record<string, string>;
  assert.equal(bambu.format, 'gcode.3mf');
  const pkg = await get(`/api/jobs/${bambu.job_id}/gcode`);
  assert.equal(pkg.headers.get('content-type'), 'model/3mf');
  assert.match(pkg.headers.get('content-disposition') ?? '', /filename="cube.gcode.3mf"/);
  assert.deepEqual([...new Uint8Array(await pkg.arrayBuffer()).subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04]);

  const q = await queue();
  assert.deepEqual(
    q.finished.map((j) => j.id),
    [bambu.job_id, marlin.job_id],
    'the two cancelled jobs were dropped',
  );
  const dirs = [marlin.job_id, bambu.job_id].map((id) => existsSync(path.join(svc.jobsDir, id)));
  assert.deepEqual(dirs, [true, true]);
});

test('a job past its time-out fails with 504 ERR_JOB_TIMEOUT, and finished jobs expire after the kept time', async () => {
  const short = await startSlicer(['--job-timeout-s', '1', '--keep-hours', '0.0005']);
  try {
    const slow = slowJob();
    const res = await fetch(`${short.url}/api/slice`, {
      method: 'POST',
      body: sliceForm(slow.model, 'slow.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
      headers: { accept: 'application/json' },
    });
    assert.equal(res.status, 504);
    const body = (await res.json()) as { error: string; code: string };
    assert.deepEqual(body, { error: 'the job ran longer than its time-out of 1 s', code: 'ERR_JOB_TIMEOUT' });
    const id = res.headers.get('x-job-id') ?? '';
    const record = (await (await fetch(`${short.url}/api/jobs/${id}`)).json()) as { state: string; error: unknown };
    assert.deepEqual([record.state, record.error], ['failed', { code: 'ERR_JOB_TIMEOUT', message: body.error }]);
    await sleep(2500);
    assert.equal((await fetch(`${short.url}/api/jobs/${id}`)).status, 404);
    assert.equal(existsSync(path.join(short.jobsDir, id)), false);
  } finally {
    await short.cleanup();
  }
});
