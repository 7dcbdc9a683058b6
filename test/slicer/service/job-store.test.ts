import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../appliance/common/errors.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { Job, type SliceResultBody } from '../../../appliance/slicer/service/job.js';
import { isJobId, JobStore } from '../../../appliance/slicer/service/job-store.js';
import { newJob } from '../../fixtures/slicer-service.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'printyard-jobstore-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function storedJob(store: JobStore, id: string): Job {
  const base = newJob(id);
  const dir = store.jobDir(id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'model.stl'), 'solid');
  writeFileSync(path.join(dir, 'cube.gcode'), 'G28');
  const job = Job.create({ ...base, dir, work: { ...base.work, modelPath: path.join(dir, 'model.stl') } });
  store.add(job);
  return job;
}

const id = (n: number) => n.toString(16).padStart(16, '0');

test('job ids are 16 hex digits', () => {
  assert.equal(isJobId('0123456789abcdef'), true);
  assert.equal(isJobId('../etc/passwd'), false);
  assert.equal(isJobId('0123456789ABCDEF'), false);
});

test('finished jobs are saved and restored; leftovers of unfinished ones are removed', async () => {
  const store = new JobStore(root, { keepJobs: 10, keepMs: 3_600_000 }, log);
  await store.open();
  const done = storedJob(store, id(1));
  done.succeed({ ok: true, job_id: id(1) } as SliceResultBody);
  await store.finished(done);
  assert.equal(existsSync(path.join(done.dir, 'model.stl')), false, 'the upload is dropped once sliced');
  const unfinished = storedJob(store, id(2));
  mkdirSync(path.join(store.uploadsDir), { recursive: true });
  writeFileSync(path.join(store.uploadsDir, 'upload-1'), 'partial');
  store.close();

  const again = new JobStore(root, { keepJobs: 10, keepMs: 3_600_000 }, log);
  await again.open();
  try {
    assert.deepEqual(
      again.all().map((j) => [j.id, j.state]),
      [[id(1), 'done']],
    );
    assert.equal(existsSync(unfinished.dir), false);
    assert.deepEqual(readdirSync(again.uploadsDir), []);
    assert.equal(existsSync(path.join(again.jobDir(id(1)), 'cube.gcode')), true);
  } finally {
    again.close();
  }
});

test('only the newest finished jobs are kept, and only for the kept time', async () => {
  const store = new JobStore(root, { keepJobs: 2, keepMs: 400 }, log);
  await store.open();
  try {
    const jobs = [1, 2, 3].map((n) => storedJob(store, id(n)));
    const running = storedJob(store, id(4));
    running.start();
    for (const [k, job] of jobs.entries()) {
      job.fail(new AppError('ERR_SLICE_FAILED', 500, 'x'), new Date(Date.now() + k));
      await store.finished(job);
    }
    assert.deepEqual(
      store
        .all()
        .map((j) => j.id)
        .sort(),
      [id(2), id(3), id(4)],
    );
    assert.equal(existsSync(jobs[0].dir), false);
    await sleep(700);
    assert.deepEqual(
      store.all().map((j) => j.id),
      [id(4)],
      'expired jobs are swept by the timer; running ones stay',
    );
    assert.equal(existsSync(jobs[2].dir), false);
    assert.equal(existsSync(running.dir), true);
  } finally {
    store.close();
  }
});
