import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jobView } from '../../../../appliance/dashboard/slicing/remote/job-view.js';
import type { DashboardFixture } from '../../../fixtures/dashboard.js';
import { DONE_JOB, FAILED_JOB, RUNNING_JOB, SERVER_DIR, startEchoUpstream, type EchoUpstream } from './echo-upstream.js';
import { startRemoteDashboard, TEST_TOKENS } from './remote-dashboard.js';

const TOKEN = 'tok-job-view-7';

test('a record nested deeper than a job record is cut, not followed', () => {
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 10_000; i++) deep = { deep };
  const view = jobView({ id: 'j1', overrides: deep }, { paths: false, clean: (t) => t, ownerOf: () => null }) as Record<string, unknown>;
  assert.equal(view.id, 'j1');
  assert.ok(JSON.stringify(view).length < 1000);
});

let upstream: EchoUpstream;
let dash: DashboardFixture;
before(async () => {
  upstream = await startEchoUpstream();
  dash = await startRemoteDashboard({ url: upstream.url, token: TOKEN });
});
after(async () => {
  await dash.cleanup();
  await upstream.close();
});

test('view and print users get no server path in the job list; admins do; nobody gets the token', async () => {
  for (const role of ['view', 'print'] as const) {
    const jobs = await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS[role] });
    assert.equal(jobs.status, 200, jobs.text);
    assert.ok(!jobs.text.includes(SERVER_DIR) && !jobs.text.includes('/srv/'), jobs.text);
    assert.ok(!jobs.text.includes('gcode_path') && !jobs.text.includes('jobs_dir') && !jobs.text.includes('work_dir'));
    assert.ok(!jobs.text.includes(TOKEN));
    const [done, failed] = jobs.json.finished;
    assert.deepEqual(
      [done.id, done.owner, done.result.gcode_url, done.result.preview_url],
      [DONE_JOB, null, `/api/slicer/remote/jobs/${DONE_JOB}/gcode`, `/api/slicer/remote/preview?job=${DONE_JOB}`],
    );
    assert.deepEqual(done.result.warnings, ['wrote …']);
    assert.equal(failed.error.message, 'could not read … (Bearer ***)');
    assert.equal(jobs.json.running[0].overrides.note, 'see …');
    assert.deepEqual(jobs.json.limits, { workers: 1, queue_size: 4 });
  }
  const forAdmin = await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.admin });
  assert.equal(forAdmin.json.finished[0].result.gcode_path, `${SERVER_DIR}/${DONE_JOB}/cube.gcode`);
  assert.equal(forAdmin.json.jobs_dir, SERVER_DIR);
  assert.equal(forAdmin.json.finished[1].error.message, `could not read ${SERVER_DIR}/${FAILED_JOB}/model.stl (Bearer ***)`);
  assert.ok(!forAdmin.text.includes(TOKEN));
});

test('a job the dashboard did not start: a print user may not cancel it (403, never sent on)', async () => {
  const before = upstream.requests.length;
  const refused = await dash.request('post', `/api/slicer/remote/jobs/${RUNNING_JOB}/cancel`, { token: TEST_TOKENS.print });
  assert.deepEqual([refused.status, refused.json.code], [403, 'ERR_FORBIDDEN']);
  assert.match(refused.json.error, /was not started through this dashboard/);
  assert.ok(upstream.requests.slice(before).every((r) => !r.path.endsWith('/cancel')));
  assert.equal((await dash.request('get', '/api/health')).status, 200);
});
