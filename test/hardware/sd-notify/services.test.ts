/**
 * Both services started as systemd's Type=notify would start them, with a NOTIFY_SOCKET of the
 * test's own: READY once the port answers, watchdog pings every half of WATCHDOG_USEC, none while
 * the event loop is blocked, STOPPING on SIGTERM, then a clean exit.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { startNotifyListener } from '../../fixtures/notify-listener.js';

const DIST = fileURLToPath(new URL('../../../', import.meta.url));
const BLOCK_HOOK = new URL('../../fixtures/block-loop-on-signal.js', import.meta.url).href;
const WATCHDOG_USEC = 1_000_000;
const PING_MS = WATCHDOG_USEC / 2000;
const BLOCK_MS = 2500;

const SERVICES = [
  {
    name: 'printyard-slicer',
    main: 'appliance/slicer/service/main.js',
    args: (dir: string) => ['--rest-port', '0', '--config-dir', path.join(dir, 'config'), '--jobs-dir', path.join(dir, 'jobs')],
    status: /^STATUS=listening on http:\/\/127\.0\.0\.1:\d+$/,
  },
  {
    name: 'printyard-dashboard',
    main: 'appliance/dashboard/main.js',
    args: (dir: string) => ['--port', '0', '--bind', '127.0.0.1', '--data-dir', path.join(dir, 'data')],
    status: /^STATUS=listening on http:\/\/127\.0\.0\.1:\d+, 0 printers$/,
    // The notifier takes NOTIFY_SOCKET out of the environment; the system info still knows.
    afterReady: async (url: string) => {
      const admin = { username: 'owner', password: 'Spool-Yard-4711' };
      const post = (route: string) =>
        fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
      assert.equal((await post('/api/auth/setup')).status, 201);
      const { token } = (await (await post('/api/auth/login')).json()) as { token: string };
      const info = (await (await fetch(`${url}/api/system/info`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        hardware: { systemd_notify: { available: boolean } };
      };
      assert.equal(info.hardware.systemd_notify.available, true, 'the dashboard reports that systemd supervises it');
    },
  },
];

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('PRINTYARD_') && !k.startsWith('SLICER_') && !k.startsWith('WATCHDOG_')) env[k] = v;
  }
  return { ...env, ...extra };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const service of SERVICES) {
  test(`${service.name}: READY after its port answers, watchdog pings, none while the loop is blocked, STOPPING on SIGTERM`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-sd-notify-test-'));
    const listener = await startNotifyListener();
    const child = spawn(process.execPath, ['--import', BLOCK_HOOK, path.join(DIST, service.main), ...service.args(dir)], {
      env: cleanEnv({ NOTIFY_SOCKET: listener.socket, WATCHDOG_USEC: String(WATCHDOG_USEC), BLOCK_LOOP_MS: String(BLOCK_MS) }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => {
      stderr += t;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const ready = await listener.waitFor('READY=1');
      const status = ready.lines.find((l) => l.startsWith('STATUS='));
      assert.match(status ?? '', service.status, stderr);
      const url = (status ?? '').replace(/^STATUS=listening on (\S+?),?( .*)?$/, '$1');
      const health = await fetch(`${url}/api/health`);
      assert.equal(health.status, 200, 'the port answers once READY is said');
      await service.afterReady?.(url);

      const first = listener.messages.indexOf(ready);
      await listener.waitFor('WATCHDOG=1', first);
      while (listener.times('WATCHDOG=1').length < 5) await listener.waitFor('WATCHDOG=1', listener.messages.length);
      const pings = listener.times('WATCHDOG=1');
      const period = median(pings.slice(1).map((t, i) => t - pings[i]));
      assert.ok(period > PING_MS * 0.7 && period < PING_MS * 1.6, `pings every ${period.toFixed(0)} ms, expected about ${PING_MS} ms`);

      const before = listener.times('WATCHDOG=1').length;
      child.kill('SIGUSR2');
      await listener.waitFor('WATCHDOG=1', listener.messages.length, 10_000);
      await listener.waitFor('WATCHDOG=1', listener.messages.length, 10_000);
      const around = listener.times('WATCHDOG=1').slice(before - 1);
      const longestGap = Math.max(...around.slice(1).map((t, i) => t - around[i]));
      assert.ok(longestGap > BLOCK_MS - PING_MS, `the pings stopped while the loop was blocked: longest gap ${longestGap.toFixed(0)} ms`);
      assert.match(stderr, /test hook: blocking the event loop/);

      const beforeStop = listener.messages.length;
      child.kill('SIGTERM');
      const stopping = await listener.waitFor('STOPPING=1', beforeStop);
      assert.ok(stopping.lines.some((l) => l.startsWith('STATUS=stopping')));
      assert.equal(await exited, 0, stderr);
      assert.equal(listener.messages.filter((m) => m.lines.includes('READY=1')).length, 1, 'READY is said once');
    } finally {
      child.kill('SIGKILL');
      await listener.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
