/**
 * What a job leaves on the disk, against the real service: its files are for the service's user
 * only, its G-code cannot pass --max-output-mb, and it cannot fill the disk (--min-free-mb, or a
 * disk that fills anyway). After each refused or failed job the service still answers and the
 * jobs finished before are intact.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freeBytes } from '../../../appliance/common/disk-space.js';
import { eventually } from '../../fixtures/eventually.js';
import { readEventStream } from '../../fixtures/event-stream.js';
import { cubeStl, hugeOutputJob, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';

const JSON_TYPE = 'application/json';
const SSE = 'text/event-stream';
const MB = 1024 * 1024;

/**
 * The reported request: a 684-byte STL (a 200 mm block) and valid settings, 0.05 mm layers and
 * full infill, which make 137 MB of G-code when nothing stops them.
 */
const HUGE = hugeOutputJob();

interface ErrorBody {
  error: string;
  code: string;
}
interface JobRecord {
  id: string;
  state: string;
  error: { code: string; message: string } | null;
}
interface StoredJob {
  id: string;
  record: unknown;
  gcode: Buffer;
}

function slice(svc: SlicerProcess, model: Uint8Array, name: string, accept: string, overrides?: string): Promise<Response> {
  const fields = overrides === undefined ? MARLIN_PLA : { ...MARLIN_PLA, overrides };
  return fetch(`${svc.url}/api/slice`, { method: 'POST', body: sliceForm(model, name, fields), headers: { accept } });
}

/** Slices a cube and keeps its record and G-code, to compare after the bad request. */
async function sliceCube(svc: SlicerProcess, name: string): Promise<StoredJob> {
  const res = await slice(svc, cubeStl(), name, JSON_TYPE);
  assert.equal(res.status, 200);
  const { job_id: id } = (await res.json()) as { job_id: string };
  await eventually(`the record of ${id}`, () => existsSync(path.join(svc.jobsDir, id, 'job.json')));
  return { id, ...(await stored(svc, id)) };
}

async function stored(svc: SlicerProcess, id: string): Promise<{ record: unknown; gcode: Buffer }> {
  const record = (await (await fetch(`${svc.url}/api/jobs/${id}`)).json()) as unknown;
  const gcode = Buffer.from(await (await fetch(`${svc.url}/api/jobs/${id}/gcode`)).arrayBuffer());
  return { record, gcode };
}

async function assertAliveAndIntact(svc: SlicerProcess, earlier: StoredJob[]): Promise<void> {
  assert.equal((await fetch(`${svc.url}/api/health`)).status, 200);
  for (const job of earlier) {
    const now = await stored(svc, job.id);
    assert.deepEqual(now.record, job.record, `record of ${job.id}`);
    assert.ok(now.gcode.equals(job.gcode), `G-code of ${job.id}`);
  }
}

/** Waits until the failed job's record is saved, and checks that nothing else is left in its folder. */
async function assertFailedCleanly(jobsDir: string, id: string): Promise<void> {
  await eventually(`the record of ${id}`, () => existsSync(path.join(jobsDir, id, 'job.json')));
  assert.deepEqual(readdirSync(path.join(jobsDir, id)), ['job.json'], 'no partial G-code and no model left');
}

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

test('job folders are 0700 and every job file 0600 (uploads, G-code, previews, records)', async () => {
  // A jobs dir an earlier version made for everyone to read is closed too.
  const svc = await startSlicer([], { prepare: (configDir) => mkdirSync(path.join(configDir, '..', 'jobs'), { recursive: true, mode: 0o755 }) });
  try {
    const slow = slowJob();
    const blocker = await slice(svc, slow.model, 'slow.stl', SSE, slow.overrides);
    const blockerId = blocker.headers.get('x-job-id') ?? '';
    const waiting = await slice(svc, cubeStl(), 'cube.stl', SSE);
    const id = waiting.headers.get('x-job-id') ?? '';
    assert.equal(mode(path.join(svc.jobsDir, id, 'model.stl')), 0o600, 'the uploaded model');

    assert.equal((await fetch(`${svc.url}/api/jobs/${blockerId}/cancel`, { method: 'POST' })).status, 200);
    void blocker.body?.cancel();
    assert.equal((await readEventStream(waiting)).events.at(-1)?.type, 'done');
    await eventually(`the record of ${id}`, () => existsSync(path.join(svc.jobsDir, id, 'job.json')));

    assert.equal(mode(svc.jobsDir), 0o700, 'the jobs dir');
    assert.equal(mode(path.join(svc.jobsDir, '.uploads')), 0o700, 'the uploads dir');
    for (const jobId of [id, blockerId]) assert.equal(mode(path.join(svc.jobsDir, jobId)), 0o700, `folder of ${jobId}`);
    for (const file of ['cube.gcode', 'preview.png', 'job.json']) assert.equal(mode(path.join(svc.jobsDir, id, file)), 0o600, file);
    assert.equal(mode(path.join(svc.jobsDir, blockerId, 'job.json')), 0o600, "the cancelled job's record");
  } finally {
    await svc.cleanup();
  }
});

test('a job whose G-code would pass --max-output-mb fails with 422 ERR_OUTPUT_TOO_LARGE and leaves no partial file', async () => {
  const svc = await startSlicer(['--max-output-mb', '8']);
  try {
    const earlier = [await sliceCube(svc, 'earlier.stl')];
    assert.equal(HUGE.model.length, 684);

    const buffered = await slice(svc, HUGE.model, 'block.stl', JSON_TYPE, HUGE.overrides);
    assert.equal(buffered.status, 422);
    const body = (await buffered.json()) as ErrorBody;
    assert.equal(body.code, 'ERR_OUTPUT_TOO_LARGE');
    assert.match(body.error, /^the G-code would be larger than 8 MB, the most this slicer writes/);
    const id = buffered.headers.get('x-job-id') ?? '';
    const record = (await (await fetch(`${svc.url}/api/jobs/${id}`)).json()) as JobRecord;
    assert.deepEqual([record.state, record.error], ['failed', { code: body.code, message: body.error }]);
    await assertFailedCleanly(svc.jobsDir, id);

    const streamed = await slice(svc, HUGE.model, 'block.stl', SSE, HUGE.overrides);
    const last = (await readEventStream(streamed)).events.at(-1);
    assert.equal(last?.type, 'error');
    assert.deepEqual(JSON.parse(last?.data ?? '{}'), { message: body.error, code: 'ERR_OUTPUT_TOO_LARGE' });

    await assertAliveAndIntact(svc, earlier);
  } finally {
    await svc.cleanup();
  }
});

test('below --min-free-mb on the jobs disk a slice or preview is refused with 507 before its upload', async () => {
  const first = await startSlicer();
  const earlier = [await sliceCube(first, 'earlier.stl')];
  assert.equal(await first.stop(), 0);
  // A margin larger than the free space: this disk is "full" for the service.
  const marginMb = Math.ceil(((await freeBytes(first.root)) + 1024 * MB) / MB);
  const svc = await startSlicer(['--min-free-mb', String(marginMb)], { root: first.root });
  try {
    for (const accept of [JSON_TYPE, SSE]) {
      const res = await slice(svc, HUGE.model, 'block.stl', accept, HUGE.overrides);
      assert.equal(res.status, 507);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, 'ERR_INSUFFICIENT_STORAGE');
      assert.match(body.error, new RegExp(`^not enough disk space for a new job: \\d+ MB free, and ${marginMb} MB must stay free$`));
    }
    const form = new FormData();
    form.append('model', new Blob([cubeStl()]), 'cube.stl');
    const preview = await fetch(`${svc.url}/api/preview`, { method: 'POST', body: form });
    assert.equal(preview.status, 507);
    assert.equal(((await preview.json()) as ErrorBody).code, 'ERR_INSUFFICIENT_STORAGE');

    const jobs = (await (await fetch(`${svc.url}/api/jobs`)).json()) as { running: unknown[]; queued: unknown[]; finished: JobRecord[] };
    assert.deepEqual([jobs.running.length, jobs.queued.length, jobs.finished.map((j) => j.id)], [0, 0, [earlier[0].id]]);
    assert.deepEqual(readdirSync(path.join(svc.jobsDir, '.uploads')), []);
    await assertAliveAndIntact(svc, earlier);
  } finally {
    await svc.cleanup();
  }
});

/** Mounts a small tmpfs: a disk that really fills. Needs the right to mount (root, as in CI). */
function mountSmallDisk(dir: string, sizeMb: number): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'printyard-test', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const canMount = (() => {
  const probe = mkdtempSync(path.join(os.tmpdir(), 'printyard-mount-'));
  const ok = mountSmallDisk(probe, 1);
  if (ok) execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return ok;
})();

test('a disk that fills while G-code is written fails that job with 507, and so does passing --min-free-mb', {
  skip: !canMount && 'mounting a tmpfs needs root',
}, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-slicer-test-'));
  const jobsDir = path.join(root, 'jobs');
  assert.ok(mountSmallDisk(jobsDir, 40));
  let svc: SlicerProcess | null = null;
  try {
    svc = await startSlicer(['--min-free-mb', '0'], { root });
    const earlier = [await sliceCube(svc, 'earlier.stl')];
    const freeBefore = await freeBytes(jobsDir);

    const full = await slice(svc, HUGE.model, 'block.stl', JSON_TYPE, HUGE.overrides);
    assert.equal(full.status, 507);
    const fullBody = (await full.json()) as ErrorBody;
    assert.equal(fullBody.code, 'ERR_INSUFFICIENT_STORAGE');
    assert.match(fullBody.error, /^the disk is full \(ENOSPC/);
    await assertFailedCleanly(jobsDir, full.headers.get('x-job-id') ?? '');
    assert.ok((await freeBytes(jobsDir)) > freeBefore - MB, 'the partial files are gone');
    await assertAliveAndIntact(svc, earlier);
    earlier.push(await sliceCube(svc, 'after-full.stl'));

    assert.equal(await svc.stop(), 0);
    svc = await startSlicer(['--min-free-mb', '24'], { root });
    const margin = await slice(svc, HUGE.model, 'block.stl', JSON_TYPE, HUGE.overrides);
    assert.equal(margin.status, 507, 'accepted with 39 MB free, failed when writing reached the 24 MB margin');
    const marginBody = (await margin.json()) as ErrorBody;
    assert.equal(marginBody.code, 'ERR_INSUFFICIENT_STORAGE');
    assert.match(marginBody.error, /^not enough disk space for writing the G-code: \d+ MB free, and 24 MB must stay free$/);
    await assertFailedCleanly(jobsDir, margin.headers.get('x-job-id') ?? '');
    assert.ok((await freeBytes(jobsDir)) >= 24 * MB);
    await assertAliveAndIntact(svc, earlier);
  } finally {
    await svc?.stop('SIGKILL');
    execFileSync('umount', [jobsDir]);
    rmSync(root, { recursive: true, force: true });
  }
});
