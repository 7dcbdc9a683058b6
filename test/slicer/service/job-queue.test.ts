import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { DEFAULT_3MF_LIMITS } from '../../../appliance/slicer/engine/mesh/opc.js';
import { ProfileCatalogue } from '../../../appliance/slicer/profiles/catalogue.js';
import type { Job } from '../../../appliance/slicer/service/job.js';
import { createJob } from '../../../appliance/slicer/service/job-factory.js';
import { JobQueue, type QueueOptions } from '../../../appliance/slicer/service/job-queue.js';
import { JobStore } from '../../../appliance/slicer/service/job-store.js';
import { cubeStl, slowJob } from '../../fixtures/slicer-service.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let root: string;
let store: JobStore;
let catalogue: ProfileCatalogue;
let uploads = 0;

before(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'printyard-queue-'));
  store = new JobStore(root, { keepJobs: 50, keepMs: 3_600_000 }, log);
  await store.open();
  catalogue = await ProfileCatalogue.bundled();
});
after(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function queue(options: Partial<QueueOptions> = {}): JobQueue {
  return new JobQueue(
    store,
    {
      workers: 1,
      queueSize: 1,
      jobTimeoutMs: 60_000,
      engineThreads: 0,
      maxOutputBytes: 1 << 30,
      minFreeBytes: 0,
      inflateLimits: DEFAULT_3MF_LIMITS,
      ...options,
    },
    log,
  );
}

async function job(kind: 'cube' | 'slow'): Promise<Job> {
  const slow = slowJob();
  const content = kind === 'cube' ? cubeStl() : slow.model;
  const file = path.join(store.uploadsDir, `u${uploads++}`);
  writeFileSync(file, content);
  return createJob(catalogue, store, {
    model: { field: 'model', fileName: `${kind}.stl`, mimeType: '', path: file, size: content.length },
    printerId: 'generic-marlin-0.4',
    filamentIds: ['generic-pla'],
    processId: '0.20mm-standard',
    overrides: kind === 'slow' ? (JSON.parse(slow.overrides) as Record<string, unknown>) : null,
  });
}

function codeOf(err: unknown): string {
  return (err as AppError).code;
}

test('one runs, one waits, the next is refused; cancel works on both; finished jobs cannot be cancelled', async () => {
  const q = queue();
  const slow = await job('slow');
  const waiting = await job('cube');
  q.submit(slow);
  q.submit(waiting);
  assert.equal(slow.state, 'running');
  assert.equal(waiting.state, 'queued');
  assert.equal(q.hasRoom, false);
  const third = await job('cube');
  assert.throws(
    () => q.submit(third),
    (err) => codeOf(err) === 'ERR_TOO_MANY_JOBS' && (err as AppError).status === 429,
  );
  const snap = q.snapshot();
  assert.deepEqual([snap.running.map((r) => r.id), snap.queued.map((r) => r.id)], [[slow.id], [waiting.id]]);

  await q.cancel(waiting.id);
  assert.equal(waiting.state, 'cancelled');
  assert.equal(waiting.toJSON().started_at, null);
  await q.cancel(slow.id);
  assert.equal(slow.state, 'cancelled');
  assert.deepEqual(slow.error, { code: 'ERR_CANCELLED', message: 'the job was cancelled' });

  const cube = await job('cube');
  q.submit(cube);
  await cube.finished;
  assert.equal(cube.state, 'done');
  assert.equal(cube.result?.layers, 50);
  await assert.rejects(q.cancel(cube.id), (err) => codeOf(err) === 'ERR_JOB_FINISHED');
  await assert.rejects(q.cancel('ffffffffffffffff'), (err) => codeOf(err) === 'ERR_JOB_NOT_FOUND');
  assert.ok(q.snapshot().finished.some((r) => r.id === cube.id));
});

test('a job that runs past its time-out fails with ERR_JOB_TIMEOUT', async () => {
  const q = queue({ jobTimeoutMs: 400 });
  const slow = await job('slow');
  q.submit(slow);
  await slow.finished;
  assert.equal(slow.state, 'failed');
  assert.equal(slow.error?.code, 'ERR_JOB_TIMEOUT');
  assert.equal(slow.failureStatus, 504);
});

test('shutdown cancels waiting jobs, gives running ones the grace period, then refuses work', async () => {
  const q = queue();
  const slow = await job('slow');
  const waiting = await job('cube');
  q.submit(slow);
  q.submit(waiting);
  const t0 = Date.now();
  await q.shutdown(300);
  assert.ok(Date.now() - t0 >= 300);
  assert.deepEqual([slow.state, slow.error?.code], ['cancelled', 'ERR_SHUTTING_DOWN']);
  assert.deepEqual([waiting.state, waiting.error?.code], ['cancelled', 'ERR_SHUTTING_DOWN']);
  assert.throws(
    () => q.submit(waiting),
    (err) => codeOf(err) === 'ERR_SHUTTING_DOWN' && (err as AppError).status === 503,
  );
});

test('a job that finishes within the grace period completes', async () => {
  const q = queue();
  const cube = await job('cube');
  q.submit(cube);
  await q.shutdown(30_000);
  assert.equal(cube.state, 'done');
});
