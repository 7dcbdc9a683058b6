// The print history at farm scale, shared by bench-history.mjs and bench-farm.mjs: N made-up
// records written into history.log of a data dir before the dashboard starts on it, then
//   - GET /api/history latency, p50/p99 over sequential requests: the default page, a filtered
//     page (printer + text search), a page in the middle by offset, a deep cursor page, the stats;
//   - GET /api/history/export of all N as CSV: time, bytes, rows, and the dashboard's RSS sampled
//     every 20 ms meanwhile (and VmHWM after) — it streams, so the peak should not grow by the
//     size of the file.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { memory } from './fleet/proc-stats.mjs';
import { latencySummary } from './stats.mjs';

const STATES = ['finished', 'finished', 'finished', 'finished', 'cancelled', 'failed', 'interrupted'];
const MATERIALS = ['PLA', 'PETG', 'ABS', 'TPU', 'PA-CF'];
const USERS = ['alice', 'bob', 'carol', null];

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
export async function seedHistory(dataDir, count) {
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
export async function exportCsv(base, headers, pid) {
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

/**
 * Every list request and the export against a dashboard started on `records` seeded records;
 * `requests` sequential requests per list variant (fewer for the heavy ones).
 */
export async function measureHistory(base, headers, pid, { records, requests }) {
  const page = await timed(base, '/api/history', headers, requests);
  if (page.last.total !== records) throw new Error(`the dashboard read ${page.last.total} records of ${records}`);
  const filtered = await timed(base, `/api/history?printer_id=printer-3&q=${encodeURIComponent('batch" 5')}&sort=duration`, headers, requests);
  const middle = await timed(base, `/api/history?limit=500&offset=${Math.floor(records / 2)}`, headers, Math.min(requests, 50));
  const cursor = middle.last.next_cursor;
  const deep = cursor ? await timed(base, `/api/history?limit=500&cursor=${encodeURIComponent(cursor)}`, headers, Math.min(requests, 50)) : null;
  const stats = await timed(base, '/api/history/stats', headers, Math.min(requests, 20));
  const csv = await exportCsv(base, headers, pid);
  if (csv.lines !== records + 1) throw new Error(`the export has ${csv.lines} lines, not ${records + 1}`);
  const list = { default: page, filtered, offset_middle: middle, ...(deep ? { cursor_deep: deep } : {}), stats };
  for (const value of Object.values(list)) delete value.last;
  return { records, list, export: csv };
}

const mb = (kb) => (kb / 1024).toFixed(0);
const ms = (value) => value.toFixed(1);

/** Table rows `[name, value]` of measureHistory's figures. */
export function historyRows(figures) {
  const csv = figures.export;
  return [
    ...Object.entries(figures.list).map(([name, s]) => [
      `GET ${name} (n=${s.count})`,
      `p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, max ${ms(s.max)} ms`,
    ]),
    [
      `export ${figures.records} rows`,
      `${csv.seconds.toFixed(2)} s, ${(csv.bytes / 1048576).toFixed(1)} MB, ` +
        `RSS ${mb(csv.rssBeforeKb)} → peak ${mb(csv.peakRssKb)} MB (VmHWM ${mb(csv.hwmAfterKb)} MB)`,
    ],
  ];
}
