/**
 * Model jobs: an STL queued with the profiles to slice it with, sliced at dispatch through the
 * backend chain (here the built-in engine: no slicer service, no desktop slicer) for the printer
 * that takes it, with that printer's own profile unless the job names one; the slice's use and
 * estimate become the job's plan and go out with `print.dispatched`.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { expectError } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { cubeStl } from '../../fixtures/slicer-service.js';
import { postJob, startQueueDashboard, TEST_TOKENS, type QueueDashboard } from './queue-dashboard.js';

let q: QueueDashboard;
const dispatched: any[] = [];

before(async () => {
  q = await startQueueDashboard({ slicing: true });
  q.dash.server.context.bus.on('print.dispatched', (d) => void dispatched.push(d));
});
after(() => q.dash.cleanup());

const MODEL_FIELDS = { filament_ids: ['generic-pla'], process_id: '0.28mm-extra-draft' };

async function postModel(name: string, fields: Record<string, unknown>) {
  const form = new FormData();
  form.set('model', new Blob([Buffer.from(cubeStl(10))]), name);
  for (const [key, value] of Object.entries(fields)) form.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  const response = await fetch(`${q.dash.url}/api/queue`, { method: 'POST', headers: { authorization: `Bearer ${TEST_TOKENS.print}` }, body: form });
  return { status: response.status, json: (await response.json()) as any };
}

test('an STL is sliced for the printer that takes it, with its profile, and sent as G-code', async () => {
  const marlin = await q.addPrinter('M1', 'marlin-serial', { printer_profile: 'generic-marlin-0.4' });
  const added = await postModel('cube.stl', { ...MODEL_FIELDS, requirements: { printer_type: 'marlin-serial' } });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  assert.deepEqual(
    [added.json.file.format, added.json.slice, added.json.plan.estimate_s],
    [null, { printer_profile_id: null, filament_ids: ['generic-pla'], process_id: '0.28mm-extra-draft', overrides: {} }, null],
  );
  assert.equal((await q.dash.request('post', `/api/printers/${marlin}/plate-cleared`, { token: TEST_TOKENS.print })).status, 200);
  const printing = await eventually(
    'the sliced model printing',
    async () => {
      const job = (await q.dash.request('get', `/api/queue/${added.json.id}`, { token: TEST_TOKENS.view })).json;
      return job.state === 'printing' || job.state === 'failed' ? job : null;
    },
    120_000,
  );
  assert.equal(printing.state, 'printing', printing.error);
  assert.equal(printing.copies[0].remote_name, 'cube.gcode');
  const [start] = q.driver(marlin).starts;
  assert.equal(start.remoteName, 'cube.gcode');
  assert.match(start.content, /^G1 /m);
  assert.ok(printing.plan.estimate_s > 0);
  assert.ok(printing.plan.amounts[0].grams > 0);
  const [announced] = dispatched;
  assert.deepEqual([announced.job_id, announced.file, announced.estimate_s], [added.json.id, 'cube.gcode', printing.plan.estimate_s]);
  // The slice's working folder is gone once the file is on the printer.
  assert.deepEqual(
    readdirSync(path.join(q.dash.dataDir, 'queue-files')).filter((f) => f.startsWith('slice-')),
    [],
  );
});

test('model jobs: bad input named, nothing stored', async () => {
  const before = (await q.dash.request('get', '/api/queue', { token: TEST_TOKENS.view })).json.items.length;
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['cube.stl', { process_id: 'x' }, /body\/filament_ids is required for a model/],
    ['cube.stl', { filament_ids: 'generic-pla', process_id: 'x' }, /body\/filament_ids is not valid JSON/],
    ['cube.stl', { filament_ids: ['generic-pla'] }, /body\/process_id is required for a model/],
    ['cube.stl', { ...MODEL_FIELDS, overrides: [1] }, /body\/overrides must be a JSON object/],
    ['cube.obj', MODEL_FIELDS, /body\/model "cube\.obj" is not an \.stl or \.3mf model/],
  ];
  for (const [name, fields, pattern] of cases) {
    const refused = await postModel(name, fields);
    assert.deepEqual([refused.status, refused.json.code], [400, 'ERR_VALIDATION'], JSON.stringify(refused.json));
    assert.match(refused.json.error, pattern);
  }
  // Profile fields belong to model jobs only.
  const withFile = await postJob(q.dash, 'a.gcode', 'G28\n', { process_id: 'x' });
  expectError(withFile, 400, 'ERR_VALIDATION', /body\/process_id is a field of a model job/);
  assert.equal((await q.dash.request('get', '/api/queue', { token: TEST_TOKENS.view })).json.items.length, before);
});
