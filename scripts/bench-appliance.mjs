#!/usr/bin/env node
// What each service of the box costs at rest: the time from its start to READY (sd_notify, as
// systemd sees it), then its idle CPU (% of one core) and memory (RSS) over --seconds with
// --bambu/--marlin virtual printers connected to the dashboard. Prints a Markdown table.
//   node scripts/bench-appliance.mjs [--dist dist] [--bambu 5] [--marlin 5] [--seconds 30]
// A service is one line of SERVICES.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signIn } from './bench/dashboard-process.mjs';
import { addPrinters, nowMs, sleep, startSimulators, waitOnline } from './bench/virtual-fleet.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const dist = resolve(opt('dist', 'dist'));
const seconds = Number(opt('seconds', '30'));
const bambu = Number(opt('bambu', '5'));
const marlin = Number(opt('marlin', '5'));
const log = (m) => process.stderr.write(`[bench-appliance] ${m}\n`);

/** name, main script, arguments for a temp dir `d` and the slicer's URL. */
const SERVICES = [
  {
    name: 'printyard-slicer',
    main: 'appliance/slicer/service/main.js',
    args: (d) => ['--rest-port', '0', '--config-dir', join(d, 'c'), '--jobs-dir', join(d, 'j')],
  },
  {
    name: 'printyard-dashboard',
    main: 'appliance/dashboard/main.js',
    args: (d) => ['--port', '0', '--bind', '127.0.0.1', '--data-dir', join(d, 'data')],
    env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' },
  },
  {
    name: 'printyard-node-red',
    main: 'appliance/automation/main.js',
    // The heap cap of its unit (image/systemd/printyard-node-red.service).
    node: ['--max-old-space-size=256'],
    args: (d) => ['--port', '0', '--data-dir', join(d, 'data')],
  },
];

const TICKS = 100; // USER_HZ of Linux
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

const { startNotifyListener } = await import(pathToFileURL(join(dist, 'test/fixtures/notify-listener.js')).href);
const root = mkdtempSync(join(tmpdir(), 'printyard-bench-appliance-'));
const running = [];
let sims;
try {
  for (const service of SERVICES.filter((s) => existsSync(join(dist, s.main)))) {
    const listener = await startNotifyListener();
    const t0 = performance.now();
    const child = spawn(process.execPath, [...(service.node ?? []), join(dist, service.main), ...service.args(join(root, service.name))], {
      env: { ...process.env, ...service.env, NOTIFY_SOCKET: listener.socket, WATCHDOG_USEC: '30000000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const ready = await listener.waitFor('READY=1', 0, 60_000);
    const url = /listening on (http:\/\/[^\s,]+)/.exec(ready.lines.join('\n'))[1];
    running.push({ ...service, child, listener, url, readyMs: ready.at - t0 });
    log(`${service.name} READY after ${(ready.at - t0).toFixed(0)} ms at ${url}`);
  }
  const dashboard = running.find((s) => s.name === 'printyard-dashboard');
  if (dashboard && bambu + marlin > 0) {
    sims = startSimulators(
      { mode: 'fleet', dist, dir: join(root, 'sims'), bambu, marlin, pushIntervalMs: 1000, temperatureNoise: 0.3, logLevel: 'warn' },
      () => {},
      log,
    );
    const ready = await sims.ready;
    const { token } = await signIn(dashboard.url, { apiKey: null });
    const headers = { authorization: `Bearer ${token}` };
    await addPrinters(dashboard.url, headers, ready);
    await waitOnline(dashboard.url, headers, 60);
    log(`${bambu} Bambu and ${marlin} Marlin virtual printers connected`);
  }
  await sleep(3000);
  const before = running.map((s) => cpuTicks(s.child.pid));
  const t = nowMs();
  await sleep(seconds * 1000);
  const elapsed = (nowMs() - t) / 1000;
  console.log(`| service | start → READY | idle CPU (% of a core, ${seconds} s) | RSS |`);
  console.log('|---|---|---|---|');
  running.forEach((s, i) => {
    const cpu = ((cpuTicks(s.child.pid) - before[i]) / TICKS / elapsed) * 100;
    const printers = s === dashboard ? ` (${bambu + marlin} printers)` : '';
    console.log(`| ${s.name}${printers} | ${(s.readyMs / 1000).toFixed(2)} s | ${cpu.toFixed(1)} % | ${rssMb(s.child.pid).toFixed(0)} MB |`);
  });
} finally {
  for (const s of running.reverse()) {
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await exited;
    await s.listener.close();
  }
  await sims?.stop();
  rmSync(root, { recursive: true, force: true });
}
