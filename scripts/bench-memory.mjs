#!/usr/bin/env node
// Memory of a built service around slice jobs: starts the slicer service (or, with --dashboard,
// the dashboard, signed in through its first-run setup) on a free loopback port with throw-away
// dirs, slices the models one after the other, and prints for each the reply, the service's VmRSS
// 3 s after the job and its VmHWM, and the peak of the slicing processes it started (sampled from
// /proc while the job ran). `bomb` as a model is a 1 MB 3MF whose model part inflates to 1 GiB
// (test/fixtures/zip.ts, from the build).
//   node scripts/bench-memory.mjs [--dashboard] [--entry FILE] MODEL|bomb ...
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startService } from './bench-slicer-service.mjs';
import { signIn, startDashboard } from './bench/dashboard-process.mjs';
import { memory, watchChildren } from './bench/fleet/proc-stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROFILE = { printer_id: 'generic-marlin-0.4', filament_ids: '["generic-pla"]', process_id: '0.20mm-standard' };
const SETTLE_MS = 3000;

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { dashboard: { type: 'boolean', default: false }, entry: { type: 'string' } },
  });
  if (positionals.length === 0) throw new Error('name at least one model file (or bomb)');
  const entry = values.entry ?? join(root, 'dist', 'appliance', values.dashboard ? 'dashboard/main.js' : 'slicer/service/main.js');
  return { dashboard: values.dashboard, entry, models: positionals };
}

async function modelBytes(model) {
  if (model !== 'bomb') return { name: basename(model), bytes: readFileSync(model) };
  const { zipBomb3mf } = await import(pathToFileURL(join(root, 'dist', 'test', 'fixtures', 'zip.js')).href);
  return { name: 'bomb.3mf', bytes: zipBomb3mf() };
}

/** The service process and how to post a slice form to it. */
async function start(opts) {
  if (!opts.dashboard) {
    const service = startService(opts.entry);
    const url = await service.url;
    return {
      pid: service.child.pid,
      stop: service.stop,
      post: (form) => fetch(`${url}/api/slice`, { method: 'POST', body: form, headers: { accept: 'application/json' } }),
    };
  }
  const dashboard = startDashboard(opts.entry);
  const url = await dashboard.url;
  const { token } = await signIn(url, { apiKey: null });
  return {
    pid: dashboard.pid,
    stop: dashboard.stop,
    post: (form) => fetch(`${url}/api/slicer/native/slice`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
  };
}

const mb = (kb) => (Number.isFinite(kb) ? String(Math.round(kb / 1024)) : '-');

async function main() {
  const opts = options();
  const service = await start(opts);
  try {
    await sleep(SETTLE_MS);
    process.stdout.write(`${opts.dashboard ? 'dashboard' : 'slicer service'} ${opts.entry}\n`);
    process.stdout.write(`${'idle'.padEnd(34)} ${''.padEnd(6)} ${''.padStart(7)}   service RSS ${mb(memory(service.pid).rssKb).padStart(5)} MB\n`);
    for (const model of opts.models) {
      const { name, bytes } = await modelBytes(model);
      const form = new FormData();
      for (const [key, value] of Object.entries(PROFILE)) form.set(key, value);
      form.set('model', new Blob([bytes]), name);
      const tasks = watchChildren(service.pid);
      const t0 = Date.now();
      const reply = await service.post(form);
      const body = Buffer.from(await reply.arrayBuffer());
      const seconds = (Date.now() - t0) / 1000;
      const { peakKb: taskPeakKb } = tasks.stop();
      await sleep(SETTLE_MS);
      const { rssKb, hwmKb } = memory(service.pid);
      const note = reply.status === 200 ? '' : `  ${JSON.parse(body.toString()).error}`;
      process.stdout.write(
        `${name.padEnd(34)} ${String(reply.status).padEnd(6)} ${seconds.toFixed(2).padStart(7)} s   ` +
          `service RSS ${mb(rssKb).padStart(5)} MB, peak ${mb(hwmKb).padStart(5)} MB; task peak ${taskPeakKb ? mb(taskPeakKb) : '-'} MB${note}\n`,
      );
    }
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`[bench] ${err.stack ?? String(err)}\n`);
    process.exit(1);
  });
}
