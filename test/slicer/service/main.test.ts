import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readEventStream } from '../../fixtures/event-stream.js';
import { authHeaders, cubeStl, MARLIN_PLA, runSlicer, sliceForm, slowJob, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';

function startSlow(svc: SlicerProcess): Promise<Response> {
  const slow = slowJob();
  return fetch(`${svc.url}/api/slice`, {
    method: 'POST',
    body: sliceForm(slow.model, 'slow.stl', { ...MARLIN_PLA, overrides: slow.overrides }),
    headers: { accept: 'text/event-stream' },
  });
}

test('--help lists the options with their defaults and environment variables; --version prints the version', async () => {
  const help = await runSlicer(['--help']);
  assert.equal(help.code, 0);
  for (const flag of [
    '--rest-port',
    '--rest-bind',
    '--rest-token',
    '--config-dir',
    '--queue-size',
    '--workers',
    '--max-upload-mb',
    '--max-output-mb',
    '--min-free-mb',
    '--rest-token-file',
    '--job-timeout-s',
    '--keep-jobs',
    '--keep-hours',
  ]) {
    assert.match(help.stdout, new RegExp(`\\n  ${flag} `), flag);
  }
  assert.match(help.stdout, /--rest-port VALUE\s+TCP port .*\(default: 8765; env PRINTYARD_SLICER_REST_PORT\)/);
  assert.match(help.stdout, /--rest-bind VALUE\s+.*\(default: 127\.0\.0\.1;/);
  const version = await runSlicer(['--version']);
  assert.deepEqual([version.code, version.stdout], [0, '0.1.0\n']);
});

test('an invalid option or environment variable stops the start with status 2 and names it', async () => {
  const bad = await runSlicer(['--rest-port', 'eighty']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /printyard-slicer: --rest-port: expected an integer from 0 to 65535, got "eighty"/);
  const unknown = await runSlicer(['--rest-prot', '80']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option --rest-prot/);
  const env = await runSlicer([], { PRINTYARD_SLICER_WORKERS: '0' });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /PRINTYARD_SLICER_WORKERS: expected an integer from 1 to 64/);
});

test('a taken port stops the start with status 1 and a clear message', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  const first = await startSlicer();
  try {
    const r = await runSlicer(['--rest-port', String(port), '--config-dir', first.configDir, '--jobs-dir', path.join(first.root, 'jobs2')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`cannot start: port ${port} on 127\\.0\\.0\\.1 is already in use`));
    const second = await runSlicer([
      '--rest-port',
      String(first.port),
      '--config-dir',
      first.configDir,
      '--jobs-dir',
      path.join(first.root, 'jobs3'),
    ]);
    assert.equal(second.code, 1, 'a second slicer cannot share the port of the first');
    assert.match(second.stderr, /already in use/);
  } finally {
    holder.close();
    await first.cleanup();
  }
});

test('without the native uWebSockets.js build the service refuses to start', async () => {
  const r = await runSlicer(['--rest-port', '0', '--config-dir', '/nonexistent-printyard/config', '--jobs-dir', '/nonexistent-printyard/jobs'], {
    UWS_USE_FALLBACK: '1',
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /uWebSockets\.js has no native build .* Run Node 20/);
});

test('a broken printers.json stops the start with the entry and key named', async () => {
  await assert.rejects(
    startSlicer([], {
      prepare: (dir) => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(
          path.join(dir, 'printers.json'),
          JSON.stringify({ printers: [{ name: 'A', printer_profile: 'x', host_type: 'ftp', host_url: 'y' }] }),
        );
      },
    }),
    /exited \(1\)[\s\S]*printers\[0\]\.host_type must be one of/,
  );
});

test('SIGTERM: new requests get 503, a running job gets the grace period (a repeated SIGTERM does not shorten it), exit 0', async () => {
  const svc = await startSlicer(['--shutdown-grace-s', '1']);
  try {
    const running = await startSlow(svc);
    const events = readEventStream(running, (e) => e.type === 'error' || e.type === 'done');
    const t0 = Date.now();
    svc.child.kill('SIGTERM');
    setTimeout(() => svc.child.kill('SIGTERM'), 100);
    let refused: Response | null = null;
    while (refused === null && Date.now() - t0 < 900) {
      const res = await fetch(`${svc.url}/api/profiles`).catch(() => null);
      if (res !== null && res.status === 503) refused = res;
    }
    assert.ok(refused, 'a request during the drain is answered');
    assert.equal(refused.headers.get('retry-after'), '10');
    assert.deepEqual(await refused.json(), { error: 'the service is shutting down', code: 'ERR_SHUTTING_DOWN' });
    const last = (await events).events.at(-1);
    assert.equal(last?.type, 'error');
    assert.deepEqual(JSON.parse(last?.data ?? '{}'), { message: 'the service is shutting down', code: 'ERR_SHUTTING_DOWN' });
    assert.ok(Date.now() - t0 >= 1000, 'the job had its grace period');
    assert.equal(await svc.exited, 0);
    assert.match(svc.log(), /SIGTERM: stopping[\s\S]*stopped/);
  } finally {
    await svc.cleanup();
  }
});

test('SIGTERM lets a job that finishes within the grace period complete', async () => {
  const svc = await startSlicer();
  try {
    const res = await fetch(`${svc.url}/api/slice`, {
      method: 'POST',
      body: sliceForm(cubeStl(), 'cube.stl', MARLIN_PLA),
      headers: { accept: 'text/event-stream' },
    });
    let signalled = false;
    const parsed = await readEventStream(res, (e) => {
      if (!signalled && e.type === 'progress') {
        signalled = true;
        svc.child.kill('SIGTERM');
      }
      return false;
    });
    assert.equal(parsed.events.at(-1)?.type, 'done');
    assert.equal(await svc.exited, 0);
  } finally {
    await svc.cleanup();
  }
});

test('a second Ctrl-C (SIGINT) cancels the running job at once', async () => {
  const svc = await startSlicer(['--shutdown-grace-s', '600']);
  try {
    const running = await startSlow(svc);
    const events = readEventStream(running, (e) => e.type === 'error');
    svc.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = Date.now();
    svc.child.kill('SIGINT');
    assert.equal((await events).events.at(-1)?.type, 'error');
    assert.equal(await svc.exited, 0);
    assert.ok(Date.now() - t0 < 10_000);
    assert.match(svc.log(), /SIGINT again: cancelling running jobs now/);
  } finally {
    await svc.cleanup();
  }
});

test('finished jobs and their files survive a restart', async () => {
  const first = await startSlicer();
  const result = (await (
    await fetch(`${first.url}/api/slice`, {
      method: 'POST',
      body: sliceForm(cubeStl(), 'kept.stl', MARLIN_PLA),
      headers: { accept: 'application/json' },
    })
  ).json()) as { job_id: string; gcode_size: number };
  assert.equal(await first.stop(), 0);
  const second = await startSlicer([], { root: first.root });
  try {
    const record = (await (await fetch(`${second.url}/api/jobs/${result.job_id}`)).json()) as { state: string; model_name: string };
    assert.deepEqual([record.state, record.model_name], ['done', 'kept.stl']);
    const gcode = await fetch(`${second.url}/api/jobs/${result.job_id}/gcode`);
    assert.equal((await gcode.arrayBuffer()).byteLength, result.gcode_size);
    assert.match(second.log(), /restored 1 finished job/);
  } finally {
    await second.cleanup();
  }
});

test('the token can be given in a file: it does not show in ps, and a bad file stops the start naming the option', async () => {
  const token = 'f1le-t0ken-8c1d';
  const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-slicer-test-'));
  const file = path.join(root, 'slicer.token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  const svc = await startSlicer(['--rest-token-file', file], { root });
  let earlier: { job_id: string; gcode_size: number };
  try {
    const cmdline = readFileSync(`/proc/${svc.child.pid}/cmdline`, 'utf8');
    assert.match(cmdline, /--rest-token-file/);
    assert.doesNotMatch(cmdline, new RegExp(token));
    assert.equal((await fetch(`${svc.url}/api/jobs`)).status, 401);
    assert.equal((await fetch(`${svc.url}/api/jobs`, { headers: authHeaders(token) })).status, 200, 'the newline is not part of the token');
    earlier = (await (
      await fetch(`${svc.url}/api/slice`, {
        method: 'POST',
        body: sliceForm(cubeStl(), 'kept.stl', MARLIN_PLA),
        headers: authHeaders(token, { accept: 'application/json' }),
      })
    ).json()) as { job_id: string; gcode_size: number };
  } finally {
    await svc.stop();
  }

  const dirs = ['--config-dir', svc.configDir, '--jobs-dir', svc.jobsDir, '--rest-port', '0'];
  chmodSync(file, 0o644);
  const open = await runSlicer([...dirs, '--rest-token-file', file]);
  assert.equal(open.code, 2);
  assert.match(open.stderr, /--rest-token-file: .*slicer\.token is open to other users \(mode 0644\)/);
  chmodSync(file, 0o600);
  const both = await runSlicer([...dirs, '--rest-token', 'x'], { PRINTYARD_SLICER_REST_TOKEN_FILE: file });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--rest-token and --rest-token-file both give a token/);
  const missing = await runSlicer([...dirs, '--rest-token-file', `${file}.gone`]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--rest-token-file: cannot read .*slicer\.token\.gone: no such file/);

  chmodSync(file, 0o640);
  const again = await startSlicer([], { root, env: { PRINTYARD_SLICER_REST_TOKEN_FILE: file } });
  try {
    assert.match(again.log(), /WARN .*--rest-token-file: the group of .*slicer\.token may read the token \(mode 0640\)/);
    assert.equal((await fetch(`${again.url}/api/health`)).status, 200);
    const gcode = await fetch(`${again.url}/api/jobs/${earlier.job_id}/gcode`, { headers: authHeaders(token) });
    assert.equal((await gcode.arrayBuffer()).byteLength, earlier.gcode_size, 'the earlier job is intact');
  } finally {
    await again.cleanup();
  }
});
