/**
 * Slice jobs have an owner (issue 16, finding 7): the dashboard remembers which of its users or
 * API keys started each job it created on the slicer service; a print user cancels only their
 * own (403 otherwise), an admin any; nobody below admin sees a server path. The real slicer
 * service and a real dashboard, with an authenticator that knows two print users and a key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { AuthenticatorFactory } from '../../../../appliance/dashboard/features.js';
import type { Principal } from '../../../../appliance/dashboard/http/route.js';
import { JsonStores } from '../../../../appliance/common/json-store.js';
import { createLogger } from '../../../../appliance/common/logger.js';
import { JOB_OWNERS_STORE, KEEP_OWNERS, UpstreamJobOwners } from '../../../../appliance/dashboard/slicing/remote/job-owners.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { readEventStream } from '../../../fixtures/event-stream.js';
import { cubeStl, MARLIN_PLA, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';
import { asJson, eventually, postForm, startRemoteDashboard } from './remote-dashboard.js';

const PRINCIPALS: Record<string, Principal> = {
  'tok-view': { kind: 'user', id: 'u-view', name: 'viewer', role: 'view' },
  'tok-alice': { kind: 'user', id: 'u-alice', name: 'alice', role: 'print' },
  'tok-bob': { kind: 'user', id: 'u-bob', name: 'bob', role: 'print' },
  'tok-key': { kind: 'api_key', id: 'k-farm', name: 'farm script', role: 'print' },
  'tok-admin': { kind: 'user', id: 'u-admin', name: 'root', role: 'admin' },
};
type Who = 'view' | 'alice' | 'bob' | 'key' | 'admin';
const tokenOf = (who: Who) => `tok-${who}`;
const ownerOf = (who: Who) => {
  const { kind, id, name } = PRINCIPALS[tokenOf(who)];
  return { kind, id, name };
};

const authenticator: AuthenticatorFactory = () => {
  const byToken = async (token: string) => PRINCIPALS[token] ?? null;
  return { authenticate: async (headers) => byToken(/^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? ''), authenticateToken: byToken };
};

test('the owners kept are the newest, bounded; odd job ids are not kept; they are read back', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-job-owners-'));
  try {
    const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
    const stores = new JsonStores(dir, log);
    const owners = new UpstreamJobOwners(log);
    await owners.open(stores);
    for (let i = 0; i < KEEP_OWNERS + 5; i++) owners.remember(`job-${i}`, ownerOf(i % 2 === 0 ? 'alice' : 'key'));
    owners.remember('../../etc', ownerOf('alice'));
    await stores.settled();
    assert.equal(owners.ownerOf('job-4'), null, 'the oldest are forgotten');
    assert.deepEqual(owners.ownerOf('job-5'), ownerOf('key'));
    assert.equal(owners.ownerOf('../../etc'), null);
    const reopened = new UpstreamJobOwners(log);
    await reopened.open(new JsonStores(dir, log));
    assert.deepEqual(reopened.ownerOf(`job-${KEEP_OWNERS + 4}`), ownerOf('alice'));
    assert.equal(JSON.parse(readFileSync(path.join(dir, `${JOB_OWNERS_STORE}.json`), 'utf8')).jobs.length, KEEP_OWNERS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

let slicer: SlicerProcess;
let dash: DashboardFixture;
before(async () => {
  slicer = await startSlicer();
  dash = await startRemoteDashboard({ url: slicer.url, createAuthenticator: authenticator });
});
after(async () => {
  await dash.cleanup();
  await slicer.cleanup();
});

const call = (method: string, url: string, who: Who) => dash.request(method, url, { token: tokenOf(who) });
const cancel = (jobId: string, who: Who) => call('post', `/api/slicer/remote/jobs/${jobId}/cancel`, who);
async function jobOf(jobId: string, who: Who = 'view'): Promise<Record<string, any> | undefined> {
  const jobs = (await call('get', '/api/slicer/remote/jobs', who)).json;
  return [...jobs.running, ...jobs.queued, ...jobs.finished].find((job: { id: string }) => job.id === jobId);
}

/** A job that keeps the service busy, started through the dashboard's relay by `who`; the browser leaves at the first progress. */
async function slowJobBy(who: Who): Promise<string> {
  const slow = slowJob();
  const response = await postForm(
    dash,
    '/api/slicer/remote/slice/stream',
    sliceForm(slow.model, 'block.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
    { token: tokenOf(who) },
  );
  assert.equal(response.status, 200);
  const jobId = response.headers.get('x-job-id')!;
  await readEventStream(response, (e) => e.type === 'progress');
  return jobId;
}

async function quickSliceBy(who: Who): Promise<Record<string, any>> {
  const response = await postForm(dash, '/api/slicer/remote/slice/stream', sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), { token: tokenOf(who) });
  const events = (await readEventStream(response)).events;
  assert.equal(events.at(-1)?.type, 'done');
  return JSON.parse(events.at(-1)!.data);
}

test('the relayed done event: a download link of the dashboard; the server path for admins only', async () => {
  const mine = await quickSliceBy('alice');
  assert.equal(mine.gcode_path, undefined);
  assert.equal(mine.gcode_url, `/api/slicer/remote/jobs/${mine.job_id}/gcode`);
  assert.ok(!JSON.stringify(mine).includes(slicer.root));
  assert.match((await call('get', mine.gcode_url, 'view')).text, /^G1 /m);
  const admins = await quickSliceBy('admin');
  assert.ok(admins.gcode_path.startsWith(slicer.jobsDir), admins.gcode_path);
  assert.deepEqual((await jobOf(mine.job_id))?.owner, ownerOf('alice'));
  assert.deepEqual((await jobOf(admins.job_id))?.owner, ownerOf('admin'));
});

test("a print user cannot cancel another's job (403, it runs on); the owner can; an admin can cancel anyone's", async () => {
  const alices = await slowJobBy('alice');
  for (const who of ['bob', 'key'] as const) {
    const refused = await cancel(alices, who);
    assert.deepEqual([refused.status, refused.json.code], [403, 'ERR_FORBIDDEN'], refused.text);
    assert.match(refused.json.error, /was started by someone else/);
  }
  assert.equal((await cancel(alices, 'view')).status, 403, 'view users cancel nothing');
  const listed = await jobOf(alices);
  assert.ok(listed && ['running', 'queued'].includes(listed.state), 'still running');
  assert.deepEqual(listed.owner, ownerOf('alice'));

  const jobs = await call('get', '/api/slicer/remote/jobs', 'view');
  assert.ok(!jobs.text.includes(slicer.root) && !jobs.text.includes('gcode_path'), 'no server path for view users');
  const forAdmin = await call('get', '/api/slicer/remote/jobs', 'admin');
  assert.ok(forAdmin.text.includes('gcode_path'));

  const cancelled = await cancel(alices, 'alice');
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.deepEqual([cancelled.json.state, cancelled.json.owner], ['cancelled', ownerOf('alice')]);

  const bobs = await slowJobBy('bob');
  const byAdmin = await cancel(bobs, 'admin');
  assert.deepEqual([byAdmin.status, byAdmin.json.state, byAdmin.json.owner], [200, 'cancelled', ownerOf('bob')]);
});

test('a job started on the service directly has no owner here: only an admin cancels it', async () => {
  const slow = slowJob();
  const direct = await fetch(`${slicer.url}/api/slice`, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    body: sliceForm(slow.model, 'block.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
  });
  const jobId = direct.headers.get('x-job-id')!;
  await readEventStream(direct, (e) => e.type === 'progress');
  const refused = await cancel(jobId, 'alice');
  assert.deepEqual([refused.status, refused.json.code], [403, 'ERR_FORBIDDEN']);
  assert.match(refused.json.error, /was not started through this dashboard/);
  assert.equal((await jobOf(jobId))?.owner, null);
  const byAdmin = await cancel(jobId, 'admin');
  assert.deepEqual([byAdmin.status, byAdmin.json.state], [200, 'cancelled']);
});

test('buffered results name their owner and no server path; the owners outlive a restart of the dashboard', async () => {
  const result = await asJson(
    await postForm(dash, '/api/slicer/remote/slice', sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA), { token: tokenOf('key') }),
  );
  assert.equal(result.status, 200, result.text);
  assert.deepEqual([result.json.backend, result.json.owner], ['remote', ownerOf('key')]);
  assert.ok(!result.text.includes(dash.dataDir) && !result.text.includes(slicer.root));
  const finished = (await call('get', '/api/slicer/remote/jobs', 'view')).json.finished;
  assert.ok(
    finished.some(
      (job: { owner: unknown; model_name: string }) => job.model_name === 'cube.stl' && JSON.stringify(job.owner) === JSON.stringify(ownerOf('key')),
    ),
    "the service's job of the buffered slice is the key's too",
  );

  const keys = await slowJobBy('key');
  const dataDir = dash.dataDir;
  await dash.stop();
  dash = await startRemoteDashboard({ url: slicer.url, createAuthenticator: authenticator, dataDir });
  await eventually('the probe after the restart', async () => (await call('get', '/api/slicer/remote/status', 'view')).json.ok === true);
  assert.equal((await cancel(keys, 'alice')).status, 403);
  const byKey = await cancel(keys, 'key');
  assert.deepEqual([byKey.status, byKey.json.owner], [200, ownerOf('key')]);

  assert.equal((await dash.request('get', '/api/health')).status, 200);
  const stored = JSON.parse(readFileSync(path.join(dataDir, `${JOB_OWNERS_STORE}.json`), 'utf8')).jobs as Array<{ job_id: string }>;
  assert.ok(stored.some((entry) => entry.job_id === keys));
  assert.equal((await call('get', result.json.gcode_url, 'view')).status, 200, 'the stored result is still there');
});
