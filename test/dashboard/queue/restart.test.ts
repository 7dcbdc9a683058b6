/**
 * The restart rule, with a dashboard in a child process (queue-child.ts) killed with SIGKILL in
 * the middle of a dispatch, and a virtual Bambu printer that outlives it. The printer is in
 * "developer mode off" while the first dashboard sends: the upload goes through, the start is
 * dropped, so the copy is `dispatching` (claimed on disk) when the process dies. Then:
 * - the printer is idle when the dashboard comes back: the copy is queued again and printed once;
 * - the start went through after all (here: sent by the test while the dashboard is down): the
 *   copy is `printing` and the file is not sent again.
 * No job is lost or doubled either way.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { BambuTestClient } from '../../fixtures/bambu-mqtt-client.js';
import { request, TEST_TOKENS, type TestResponse } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { bambuGcode, gcode3mf, startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { postJob } from './queue-dashboard.js';

const CHILD = fileURLToPath(new URL('./queue-child.js', import.meta.url));
const WAIT_MS = 60_000;
const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void> | void> = [];

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

interface Child {
  process: ChildProcess;
  url: string;
  request(method: string, urlPath: string, body?: unknown): Promise<TestResponse>;
  kill(): Promise<void>;
}

function startChild(dataDir: string): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let stderr = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const url = /listening on (\S+)/.exec(stderr)?.[1];
      if (!url) return;
      resolve({
        process: child,
        url,
        request: (method, urlPath, body) => request(url, method, urlPath, { token: TEST_TOKENS.print, ...(body === undefined ? {} : { body }) }),
        async kill() {
          child.kill('SIGKILL');
          await exited;
          children.delete(child);
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the dashboard exited (${code}) before it listened:\n${stderr}`)));
  });
}

interface Setup {
  vb: VirtualBambu;
  dataDir: string;
  child: Child;
  printerId: string;
  jobId: string;
  /** project_file requests the printer received, in order. */
  starts: Array<Record<string, any>>;
}

const copyOf = async (child: Child, jobId: string) => (await child.request('get', `/api/queue/${jobId}`)).json.copies[0];

/** A printer and a dashboard; a job sent until its start is dropped; the dashboard killed with SIGKILL then. */
async function killedMidDispatch(serial: string): Promise<Setup> {
  const vb = await startVirtualBambu({ serial, timeScale: 100 });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-queue-restart-'));
  cleanups.push(
    () => vb.stop(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const starts: Array<Record<string, any>> = [];
  vb.printer.on('request', (handled: { message: any }) => {
    if (handled.message?.print?.command === 'project_file') starts.push(handled.message.print);
  });
  // A long retry delay: should the driver give up on the dropped start, the copy still waits in `dispatching`.
  writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ queue: { retry_delay_ms: 60_000, round_interval_s: 1 }, rate_limit: { enabled: false } }),
  );
  const child = await startChild(dataDir);
  const created = await request(child.url, 'post', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: {
      name: 'P1',
      type: 'bambu-lan',
      connection: { host: vb.host, serial: vb.serial, access_code: vb.accessCode, ca: vb.caPem, mqtt_port: vb.mqttPort, ftps_port: vb.ftpsPort },
    },
  });
  assert.equal(created.status, 201, created.text);
  const printerId = created.json.id as string;
  await eventually('the printer online', async () => (await child.request('get', `/api/printers/${printerId}`)).json.online, WAIT_MS);
  await vb.setFault('developerModeOff', true);
  const job = await postJob(child, 'long.gcode.3mf', gcode3mf(bambuGcode(4, 30)), {
    requirements: { filaments: [{ filament: 1, material: 'PLA', color_hex: '#FFFFFF' }] },
  });
  assert.equal(job.status, 201, job.text);
  assert.equal((await child.request('post', `/api/printers/${printerId}/plate-cleared`)).status, 200);
  await eventually('the start sent and dropped', () => starts.length === 1, WAIT_MS);
  assert.equal((await copyOf(child, job.json.id)).state, 'dispatching');
  await child.kill();
  // What the killed process left on disk: the claim.
  const stored = JSON.parse(readFileSync(path.join(dataDir, 'queue.json'), 'utf8'));
  assert.deepEqual(
    stored.jobs.map((j: any) => [j.id, j.copies.map((c: any) => [c.state, c.printer_id, c.remote_name])]),
    [[job.json.id, [['dispatching', printerId, 'long.gcode.3mf']]]],
  );
  assert.ok(readdirSync(vb.sdDir).includes('long.gcode.3mf'), 'the upload went through');
  await vb.setFault('developerModeOff', false);
  return { vb, dataDir, child, printerId, jobId: job.json.id, starts };
}

test('SIGKILL mid-dispatch, the printer idle after: the copy is queued again and printed once, nothing lost or doubled', async () => {
  const setup = await killedMidDispatch('01P00A451300101');
  const child = await startChild(setup.dataDir);
  const printing = await eventually(
    'the copy printing after the restart',
    async () => {
      const copy = await copyOf(child, setup.jobId);
      return copy.state === 'printing' ? copy : null;
    },
    WAIT_MS,
  );
  assert.deepEqual([printing.printer_id, printing.dispatches], [setup.printerId, 2]);
  // The copy is `printing` once the start is sent; the printer may handle it a moment later.
  await eventually('the second start at the printer', () => setup.starts.length >= 2, WAIT_MS);
  assert.equal(setup.starts.length, 2, 'the dropped start, then one start after the restart');
  const status = (await child.request('get', `/api/printers/${setup.printerId}/status`)).json;
  assert.ok(['preparing', 'printing'].includes(status.state), status.state);
  const list = (await child.request('get', '/api/queue')).json.items;
  assert.deepEqual(
    list.map((j: any) => [j.id, j.copies.length]),
    [[setup.jobId, 1]],
  );
  await child.kill();
});

test('SIGKILL mid-dispatch, the start went through: the restarted queue finds the print and does not send it again', async () => {
  const setup = await killedMidDispatch('01P00A451300102');
  // While the dashboard is down the printer starts the file it was sent (as a start that got
  // through just before the crash would).
  const client = await BambuTestClient.connect(setup.vb);
  cleanups.push(() => client.end());
  const from = client.mark();
  client.request('print', 'project_file', {
    param: 'Metadata/plate_1.gcode',
    url: 'ftp://long.gcode.3mf',
    file: 'long.gcode.3mf',
    md5: '',
    bed_type: 'auto',
    timelapse: false,
    bed_leveling: true,
    flow_cali: false,
    vibration_cali: false,
    layer_inspect: false,
    use_ams: true,
    ams_mapping: [0],
    subtask_name: 'long',
    project_id: '0',
    profile_id: '0',
    task_id: '0',
    subtask_id: '7',
  });
  await client.report((print) => print.gcode_state === 'PREPARE' || print.gcode_state === 'RUNNING', 'the printer printing', from, WAIT_MS);
  const child = await startChild(setup.dataDir);
  const printing = await eventually(
    'the copy printing after the restart',
    async () => {
      const copy = await copyOf(child, setup.jobId);
      return copy.state === 'printing' ? copy : null;
    },
    WAIT_MS,
  );
  assert.deepEqual([printing.printer_id, printing.dispatches], [setup.printerId, 1]);
  // Rounds run every second: give a few the chance to send it again.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.equal(setup.starts.length, 2, "the dropped start and the test's own; none from the restarted dashboard");
  assert.equal((await child.request('get', `/api/printers/${setup.printerId}/plate`)).json.state, 'occupied');
  assert.equal((await child.request('get', '/api/queue')).json.items.length, 1);
  await child.kill();
});
