import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { Job, type JobEvent, type SliceResultBody } from '../../../appliance/slicer/service/job.js';
import { newJob } from '../../fixtures/slicer-service.js';

const RESULT = { ok: true, job_id: '0123456789abcdef', gcode_size: 10 } as unknown as SliceResultBody;

test('a new job is queued, with the contract record fields', () => {
  const job = Job.create(newJob(), new Date('2025-01-01T00:00:00Z'));
  assert.deepEqual(job.toJSON(), {
    id: '0123456789abcdef',
    state: 'queued',
    model_name: 'cube.stl',
    model_size: 684,
    printer_id: 'generic-marlin-0.4',
    filament_ids: ['generic-pla'],
    process_id: '0.20mm-standard',
    overrides: null,
    created_at: '2025-01-01T00:00:00.000Z',
    started_at: null,
    finished_at: null,
    stage: null,
    pct: 0,
    layer: null,
    total_layers: null,
    result: null,
    error: null,
  });
  assert.equal(job.isFinished, false);
  assert.ok(Number.isNaN(job.finishedAtMs));
});

test('progress reaches listeners and the record; finishing resolves and stops the events', async () => {
  const job = Job.create(newJob());
  const seen: JobEvent[] = [];
  job.subscribe((e) => seen.push(e));
  job.start(new Date('2025-01-01T00:00:01Z'));
  job.progress('slicing', 12.5);
  job.layer(3, 10);
  job.succeed(RESULT, new Date('2025-01-01T00:00:09Z'));
  job.progress('gcode', 99);
  await job.finished;
  assert.deepEqual(seen, [{ type: 'progress', stage: 'slicing', pct: 12.5 }, { type: 'layer', layer: 3, total_layers: 10 }, { type: 'finished' }]);
  const r = job.toJSON();
  assert.equal(r.state, 'done');
  assert.equal(r.started_at, '2025-01-01T00:00:01.000Z');
  assert.equal(r.finished_at, '2025-01-01T00:00:09.000Z');
  assert.equal(r.pct, 100);
  assert.equal(r.layer, 3);
  assert.deepEqual(r.result, RESULT);
  assert.equal(job.finishedAtMs, Date.parse('2025-01-01T00:00:09Z'));
});

test('failure and cancellation keep the code, message and status; a finished job stays finished', () => {
  const failed = Job.create(newJob());
  failed.start();
  failed.fail(new AppError('ERR_MODEL_OUTSIDE_BED', 422, 'the model does not fit'));
  assert.equal(failed.state, 'failed');
  assert.deepEqual(failed.error, { code: 'ERR_MODEL_OUTSIDE_BED', message: 'the model does not fit' });
  assert.equal(failed.failureStatus, 422);
  failed.succeed(RESULT);
  assert.equal(failed.state, 'failed');

  const cancelled = Job.create(newJob());
  let unsubscribedCalls = 0;
  const stop = cancelled.subscribe(() => unsubscribedCalls++);
  stop();
  cancelled.cancel(new AppError('ERR_CANCELLED', 409, 'the job was cancelled'));
  assert.equal(cancelled.state, 'cancelled');
  assert.equal(unsubscribedCalls, 0);
});

test('a restored job is finished and has no work', async () => {
  const done = Job.create(newJob());
  done.succeed(RESULT);
  const restored = Job.restore('/jobs/x', done.toJSON());
  assert.equal(restored.work, null);
  assert.equal(restored.state, 'done');
  await restored.finished;
});
