/**
 * The memory of the real service under a zip bomb and after a large job: a 3MF is refused by what
 * it would inflate to, before it is inflated, and a job's memory goes back to the system when the
 * job ends (its task process exits).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../../fixtures/eventually.js';
import { mengerSponge, to3mf } from '../../fixtures/meshes.js';
import { modelBytes } from '../../fixtures/model-files.js';
import { childrenOf, resident, watchChildren } from '../../fixtures/process-memory.js';
import { cubeStl, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';
import { zipBomb3mf } from '../../fixtures/zip.js';

/** Generous: the service idles at about 60 MB, a task process at 50-70 MB; the bomb would take 2 GB. */
const BOUND_MB = 400;

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--workers', '1']);
});
after(() => svc.cleanup());

async function slice(url: string, model: Uint8Array, fileName: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/slice`, {
    method: 'POST',
    body: sliceForm(model, fileName, MARLIN_PLA),
    headers: { accept: 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function assertHealthy(url: string): Promise<void> {
  const health = await fetch(`${url}/api/health`);
  assert.equal(health.status, 200);
  assert.equal(((await health.json()) as { ok: boolean }).ok, true);
}

async function assertJobIntact(url: string, jobId: string): Promise<void> {
  const record = (await (await fetch(`${url}/api/jobs/${jobId}`)).json()) as { state: string; result: { gcode_size: number } };
  assert.equal(record.state, 'done');
  const gcode = await fetch(`${url}/api/jobs/${jobId}/gcode`);
  assert.equal(gcode.status, 200);
  assert.equal((await gcode.arrayBuffer()).byteLength, record.result.gcode_size);
}

test('a 1 MB 3MF that inflates to 1 GB is refused with 413 naming the limit; the service stays up, small, with its jobs', async () => {
  const earlier = await slice(svc.url, cubeStl(), 'cube.stl');
  assert.equal(earlier.status, 200, JSON.stringify(earlier.body));

  const bomb = zipBomb3mf();
  assert.ok(bomb.length < 1.1 * 1024 * 1024);
  const watch = watchChildren(svc.child.pid!);
  const refused = await slice(svc.url, bomb, 'bomb.3mf');
  const tasks = watch.stop();
  assert.equal(refused.status, 413, JSON.stringify(refused.body));
  assert.equal(refused.body.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.match(String(refused.body.error), /^the 1\.01 MB 3MF package inflates to 1024 MB, 10\d\d times its size; the limit is 100 times/);

  assert.ok(tasks.children >= 1, 'the slice ran in a process of its own');
  assert.ok(tasks.peakMb < BOUND_MB, `the task process peaked at ${Math.round(tasks.peakMb)} MB`);
  const service = resident(svc.child.pid!);
  assert.ok(service.peakMb < BOUND_MB, `the service peaked at ${Math.round(service.peakMb)} MB`);
  await assertHealthy(svc.url);
  await assertJobIntact(svc.url, String(earlier.body.job_id));
  const jobs = (await (await fetch(`${svc.url}/api/jobs`)).json()) as { finished: { state: string; error: { code: string } | null }[] };
  assert.deepEqual(
    jobs.finished.map((j) => [j.state, j.error?.code ?? null]),
    [
      ['failed', 'ERR_PAYLOAD_TOO_LARGE'],
      ['done', null],
    ],
  );
  assert.match(svc.log(), /job [0-9a-f]{16} failed code=ERR_PAYLOAD_TOO_LARGE .*peak_rss_mb=\d+/);
});

test('a 3MF whose model part inflates past the size its directory declares is refused with 422 at that size', async () => {
  const watch = watchChildren(svc.child.pid!);
  const refused = await slice(svc.url, zipBomb3mf({ declaredSize: 100_000 }), 'liar.3mf');
  const tasks = watch.stop();
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.equal(refused.body.code, 'ERR_BAD_MODEL');
  assert.match(String(refused.body.error), /entry "3D\/3dmodel\.model" inflates to more than the 100000 bytes its directory declares/);
  assert.ok(tasks.peakMb < BOUND_MB, `the task process peaked at ${Math.round(tasks.peakMb)} MB`);
  await assertHealthy(svc.url);
});

test('memory goes back to the level before a large job once it is done', async () => {
  // A first small job: what the service keeps for any job (compiled code, the job store) is in the baseline.
  assert.equal((await slice(svc.url, cubeStl(), 'warm-up.stl')).status, 200);
  await sleep(500);
  const before = resident(svc.child.pid!).rssMb;
  const watch = watchChildren(svc.child.pid!);
  const large = await slice(svc.url, modelBytes('sponge-120mm.stl'), 'sponge.stl');
  const tasks = watch.stop();
  assert.equal(large.status, 200, JSON.stringify(large.body));
  await sleep(500);
  const afterJob = resident(svc.child.pid!).rssMb;
  assert.ok(afterJob < before + 30, `the service holds ${Math.round(afterJob)} MB after the job, ${Math.round(before)} MB before`);
  assert.ok(tasks.peakMb > before, `the slice itself took memory (${Math.round(tasks.peakMb)} MB), in its own process`);
  await assertJobIntact(svc.url, String(large.body.job_id));
});

test("the limits are the operator's: --max-inflate-mb and --max-inflate-ratio", async () => {
  const strict = await startSlicer(['--max-inflate-mb', '0.1']);
  const loose = await startSlicer(['--max-inflate-ratio', '1100', '--max-inflate-mb', '256']);
  try {
    const platform = to3mf({ objects: [{ id: 1, mesh: mengerSponge(2, 30) }], items: [{ objectId: 1 }] });
    const small = await slice(strict.url, platform, 'platform.3mf');
    assert.equal(small.status, 413, JSON.stringify(small.body));
    assert.match(String(small.body.error), /^the 3MF package inflates to 0\.\d{3} MB, more than the limit of 0\.1 MB$/);
    assert.equal((await slice(loose.url, platform, 'platform.3mf')).status, 200);
    const bomb = await slice(loose.url, zipBomb3mf(), 'bomb.3mf');
    assert.equal(bomb.status, 413, JSON.stringify(bomb.body));
    assert.equal(bomb.body.error, 'the 3MF package inflates to 1024 MB, more than the limit of 256 MB');
  } finally {
    await Promise.all([strict.cleanup(), loose.cleanup()]);
  }
});

test('a service killed with SIGKILL leaves no slicing process behind', async () => {
  const doomed = await startSlicer();
  try {
    const slow = slowJob();
    const res = await fetch(`${doomed.url}/api/slice`, {
      method: 'POST',
      body: sliceForm(slow.model, 'slow.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(res.status, 200);
    const task = await eventually('the job runs in its process', () => childrenOf(doomed.child.pid!)[0]);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    await res.body?.cancel().catch(() => undefined);
    await eventually(
      'the task process has ended',
      () => {
        try {
          resident(task);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
    );
  } finally {
    await doomed.cleanup();
  }
});
