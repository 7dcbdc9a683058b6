/**
 * Every service whose program this build has, started as its unit would start it: the unit's
 * Environment=, EnvironmentFile= and ExecStart= (test/fixtures/systemd-unit.ts), its directories
 * under a temp root, a NOTIFY_SOCKET and WATCHDOG_USEC as systemd would give. The environment
 * files in <root>/etc/printyard move the ports to free ones on loopback, as an admin would.
 * Then: each says READY and answers its health check, the slicer requires the token created on
 * the first start, the dashboard's new config.json uses the local slicer with that token (and a
 * change the user makes to it is kept at the next start), and each stops with STOPPING and 0.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startNotifyListener, type NotifyListener } from '../fixtures/notify-listener.js';
import { unitCommand, watchdogUsec } from '../fixtures/systemd-unit.js';

interface Started {
  child: ChildProcess;
  url: string;
  listener: NotifyListener;
  exited: Promise<number | null>;
  stderr(): string;
}

/** Only PATH and HOME of the test's environment: systemd gives a service little more. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
}

async function startUnit(unit: string, root: string): Promise<Started> {
  const { command, args, env } = unitCommand(unit, root);
  const listener = await startNotifyListener();
  const child = spawn(command, args, {
    env: { ...baseEnv(), ...env, NOTIFY_SOCKET: listener.socket, WATCHDOG_USEC: String(watchdogUsec(unit)) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => {
    stderr += t;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await Promise.race([
    listener.waitFor('READY=1'),
    exited.then((code) => {
      throw new Error(`${unit} exited (${code}) before READY:\n${stderr}`);
    }),
  ]);
  const status = ready.lines.find((l) => l.startsWith('STATUS=')) ?? '';
  const url = /listening on (http:\/\/[^\s,]+)/.exec(status)?.[1];
  assert.ok(url, `${unit}: no URL in ${status}`);
  return { child, url, listener, exited, stderr: () => stderr };
}

async function stopUnit(started: Started, unit: string): Promise<void> {
  const before = started.listener.messages.length;
  started.child.kill('SIGTERM');
  await started.listener.waitFor('STOPPING=1', before);
  assert.equal(await started.exited, 0, `${unit}:\n${started.stderr()}`);
  await started.listener.close();
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(url, init);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

test('the slicer and the dashboard, started as their units would be, work together out of the box', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-units-test-'));
  const started: [string, Started][] = [];
  try {
    const etc = path.join(root, 'etc', 'printyard');
    unitCommand('printyard-slicer.service', root); // the directories, before the environment file goes in
    writeFileSync(path.join(etc, 'slicer.env'), 'PRINTYARD_SLICER_REST_PORT=0\n');
    const slicer = await startUnit('printyard-slicer.service', root);
    started.push(['printyard-slicer.service', slicer]);

    assert.equal((await fetch(`${slicer.url}/api/health`)).status, 200);
    const tokenFile = path.join(root, 'var/lib/printyard/box/slicer-token');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.ok(token.length >= 40);
    assert.equal((await fetch(`${slicer.url}/api/printers`)).status, 401, 'the slicer requires the token');
    assert.equal((await fetch(`${slicer.url}/api/printers`, { headers: { authorization: `Bearer ${token}` } })).status, 200);

    writeFileSync(path.join(etc, 'dashboard.env'), `PRINTYARD_DASHBOARD_PORT=0\nPRINTYARD_DASHBOARD_BIND=127.0.0.1\nSLICER_URL=${slicer.url}\n`);
    let dashboard = await startUnit('printyard-dashboard.service', root);
    started.push(['printyard-dashboard.service', dashboard]);
    assert.equal((await fetch(`${dashboard.url}/api/health`)).status, 200);
    const configFile = path.join(root, 'var/lib/printyard/dashboard/config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    assert.deepEqual(config.slicer_service, { enabled: true, url: 'http://127.0.0.1:8765', token });

    const user = { username: 'admin', password: 'admin-password-1234' };
    const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.ok([200, 201].includes((await json(`${dashboard.url}/api/auth/setup`, post(user))).status));
    const session = String((await json(`${dashboard.url}/api/auth/login`, post(user))).body.token);
    const remote = await json(`${dashboard.url}/api/slicer/remote/status?force=1`, { headers: { authorization: `Bearer ${session}` } });
    assert.equal(remote.status, 200);
    assert.equal(remote.body.enabled, true);
    assert.equal(remote.body.ok, true, `the dashboard uses the box's slicer with the shared token: ${JSON.stringify(remote.body)}`);

    // The first-run config is written once: a user's change survives the next start.
    await stopUnit(dashboard, 'printyard-dashboard.service');
    started.pop();
    writeFileSync(configFile, JSON.stringify({ ...config, slicer_service: { ...config.slicer_service, enabled: false } }));
    dashboard = await startUnit('printyard-dashboard.service', root);
    started.push(['printyard-dashboard.service', dashboard]);
    assert.equal(JSON.parse(readFileSync(configFile, 'utf8')).slicer_service.enabled, false);

    const nodeRed = unitCommand('printyard-node-red.service', root);
    if (existsSync(nodeRed.script)) {
      const automation = await startUnit('printyard-node-red.service', root);
      started.push(['printyard-node-red.service', automation]);
      assert.equal((await fetch(automation.url)).ok, true);
    } else t.diagnostic(`printyard-node-red.service not started: no ${nodeRed.script} in this build yet (another part of issue 21)`);

    while (started.length > 0) {
      const [unit, service] = started.pop() as [string, Started];
      await stopUnit(service, unit);
    }
  } finally {
    for (const [, service] of started) {
      service.child.kill('SIGKILL');
      await service.listener.close();
    }
    rmSync(root, { recursive: true, force: true });
  }
});
