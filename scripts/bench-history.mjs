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
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn, startDashboard } from './bench/dashboard-process.mjs';
import { memory } from './bench/fleet/proc-stats.mjs';
import { latencySummary } from './bench/stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STATES = ['finished', 'finished', 'finished', 'finished', 'cancelled', 'failed', 'interrupted'];
const MATERIALS = ['PLA', 'PETG', 'ABS', 'TPU', 'PA-CF'];
const USERS = ['alice', 'bob', 'carol', null];

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

/** Record `i` of the made-up history: 20 printers, a print every ~10 minutes from 2024 on. */
function record(i) {
  const startedMs = Date.UTC(2024, 0, 1) + i * 600_000;
  const minutes = 20 + ((i * 37) % 400);
  const state = STATES[i % STATES.length];
  const material = MATERIALS[i % MATERIALS.length];
  const grams = Math.round((5 + ((i * 13) % 200)) * 100) / 100;
  const user = USERS[i % USERS.length];
  return {
    id: `${startedMs.toString(36).padStart(9, '0')}${(i % 46656).toString(36).padStart(3, '0')}bench0`,
    printer_id: `printer-${i % 20}`,
    printer_name: `Farm printer ${i % 20}`,
    printer_type: i % 4 === 0 ? 'marlin-serial' : 'bambu-lan',
    file: `part ${i}, "batch" ${i % 97} Würfel.gcode.3mf`,
    started_by: i % 3 === 0 ? { kind: 'queue', user, job_id: `job-${i}`, copy: 1 } : { kind: 'user', user, job_id: null, copy: null },
    started_at: new Date(startedMs).toISOString(),
    ended_at: new Date(startedMs + minutes * 60_000).toISOString(),
    duration_s: minutes * 60,
    state,
    error: state === 'failed' ? 'print failed: nozzle clog (0300-8003)' : null,
    progress: state === 'finished' ? 100 : (i * 7) % 100,
    filament: [
      {
        slot: { kind: 'ams', unit: 0, tray: i % 4 },
        spool_id: 1 + (i % 50),
        material,
        color_hex: '#112233',
        grams,
        length_mm: grams * 330,
        cost: grams * 0.02,
      },
    ],
    cost: grams * 0.02,
    thumbnail: null,
    estimate_s: minutes * 60 - 120,
    filament_booked: true,
  };
}

/** history.log with `count` records, written as a stream (the file is ~100 MB for 100,000). */
async function seed(dataDir, count) {
  const out = createWriteStream(join(dataDir, 'history.log'));
  for (let i = 0; i < count; i++) {
    if (!out.write(`${JSON.stringify({ op: 'put', record: record(i) })}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
}

async function timed(base, path, headers, count) {
  const samples = [];
  let last;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(base + path, { headers });
    last = await res.json();
    samples.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${JSON.stringify(last)}`);
  }
  return { ...latencySummary(samples), last };
}

/** Reads the export to the end, sampling the dashboard's memory meanwhile. */
async function exportCsv(base, headers, pid) {
  const before = memory(pid);
  let peakRss = before.rssKb;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, memory(pid).rssKb);
  }, 20);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/history/export`, { headers });
  if (res.status !== 200) throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
  let bytes = 0;
  let rows = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) rows++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = memory(pid);
  return { seconds, bytes, lines: rows, rssBeforeKb: before.rssKb, peakRssKb: Math.max(peakRss, after.rssKb), hwmAfterKb: after.hwmKb };
}

const mb = (kb) => (kb / 1024).toFixed(0);
const ms = (value) => value.toFixed(1);

async function main() {
  const opts = options();
  const dataDir = mkdtempSync(join(tmpdir(), 'printyard-bench-history-'));
  const dashboard = { stop: async () => {} };
  try {
    log(`writing ${opts.records} records`);
    await seed(dataDir, opts.records);
    const startedAt = performance.now();
    Object.assign(dashboard, startDashboard(opts.entry, { dataDir, env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } }));
    const base = await dashboard.url;
    const startS = (performance.now() - startedAt) / 1000;
    const credentials = await signIn(base);
    const headers = { 'x-api-key': credentials.apiKey };
    const atStart = memory(dashboard.pid);
    log('GET /api/history');
    const page = await timed(base, '/api/history', headers, opts.requests);
    if (page.last.total !== opts.records) throw new Error(`the dashboard read ${page.last.total} records of ${opts.records}`);
    const filtered = await timed(base, `/api/history?printer_id=printer-3&q=${encodeURIComponent('batch" 5')}&sort=duration`, headers, opts.requests);
    const middle = await timed(base, `/api/history?limit=500&offset=${Math.floor(opts.records / 2)}`, headers, Math.min(opts.requests, 50));
    const cursor = middle.last.next_cursor;
    const deep = cursor
      ? await timed(base, `/api/history?limit=500&cursor=${encodeURIComponent(cursor)}`, headers, Math.min(opts.requests, 50))
      : null;
    const stats = await timed(base, '/api/history/stats', headers, Math.min(opts.requests, 20));
    log('export');
    const csv = await exportCsv(base, headers, dashboard.pid);
    if (csv.lines !== opts.records + 1) throw new Error(`the export has ${csv.lines} lines, not ${opts.records + 1}`);
    const figures = {
      records: opts.records,
      start: { seconds: startS, rssMb: atStart.rssKb / 1024 },
      list: { default: page, filtered, offset_middle: middle, ...(deep ? { cursor_deep: deep } : {}), stats },
      export: csv,
    };
    for (const value of Object.values(figures.list)) delete value.last;
    const rows = [
      ['start with the records', `${startS.toFixed(2)} s, RSS ${mb(atStart.rssKb)} MB`],
      ...Object.entries(figures.list).map(([name, s]) => [
        `GET ${name} (n=${s.count})`,
        `p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, max ${ms(s.max)} ms`,
      ]),
      [
        `export ${opts.records} rows`,
        `${csv.seconds.toFixed(2)} s, ${(csv.bytes / 1048576).toFixed(1)} MB, ` +
          `RSS ${mb(csv.rssBeforeKb)} → peak ${mb(csv.peakRssKb)} MB (VmHWM ${mb(csv.hwmAfterKb)} MB)`,
      ],
    ];
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
