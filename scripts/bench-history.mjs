#!/usr/bin/env node
// The print history at farm scale: writes N made-up records (default 100,000) into history.log of
// a throw-away data dir, starts the built dashboard on it, and measures
//   1. its start with them (time to listening, RSS after start);
//   2. GET /api/history latency, p50/p99 over sequential requests: the default page, a filtered
//      page (printer + text search), a deep cursor page, and the stats;
//   3. GET /api/history/export of all N as CSV: time, bytes, rows, and the dashboard's peak RSS
//      (VmHWM of /proc/<pid>/status) before and after — it streams, so the peak should not
//      grow by the size of the file;
// and prints a table. The rate limit is switched off for the run.
//   node scripts/bench-history.mjs [--entry dist/appliance/dashboard/main.js] [--records 100000]
//        [--requests 200] [--json out.json]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn, startDashboard } from './bench/dashboard-process.mjs';
import { memory } from './bench/fleet/proc-stats.mjs';
import { historyRows, measureHistory, seedHistory } from './bench/history-load.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function options() {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', default: join(root, 'dist', 'appliance', 'dashboard', 'main.js') },
      records: { type: 'string', default: '100000' },
      requests: { type: 'string', default: '200' },
      json: { type: 'string' },
    },
  });
  const records = Number(values.records);
  const requests = Number(values.requests);
  if (!Number.isInteger(records) || records < 1) throw new Error(`--records must be a positive integer, got ${values.records}`);
  if (!Number.isInteger(requests) || requests < 1) throw new Error(`--requests must be a positive integer, got ${values.requests}`);
  return { entry: values.entry, records, requests, json: values.json };
}

async function main() {
  const opts = options();
  const dataDir = mkdtempSync(join(tmpdir(), 'printyard-bench-history-'));
  const dashboard = { stop: async () => {} };
  try {
    log(`writing ${opts.records} records`);
    await seedHistory(dataDir, opts.records);
    const startedAt = performance.now();
    Object.assign(dashboard, startDashboard(opts.entry, { dataDir, env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } }));
    const base = await dashboard.url;
    const startS = (performance.now() - startedAt) / 1000;
    const credentials = await signIn(base);
    const headers = { 'x-api-key': credentials.apiKey };
    const atStart = memory(dashboard.pid);
    log('GET /api/history and the export');
    const measured = await measureHistory(base, headers, dashboard.pid, opts);
    const figures = { records: opts.records, start: { seconds: startS, rssMb: atStart.rssKb / 1024 }, list: measured.list, export: measured.export };
    const rows = [['start with the records', `${startS.toFixed(2)} s, RSS ${(atStart.rssKb / 1024).toFixed(0)} MB`], ...historyRows(measured)];
    for (const [name, value] of rows) process.stdout.write(`${name.padEnd(36)} ${value}\n`);
    if (opts.json) writeFileSync(opts.json, `${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await dashboard.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
