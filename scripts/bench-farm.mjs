#!/usr/bin/env node
// The farm loop of the built dashboard at farm scale: ONE dashboard with 50 virtual Bambu and 5
// virtual Marlin printers (the fleet bench's simulators in their farm mode: idle printers with
// AMS trays and spools loaded), 500 queued print-ready jobs whose material/colour requirements are
// spread over those loads (scripts/bench/farm/jobs.mjs), and 100,000 records in the print
// history. In this order it measures:
//   1. adding the jobs: POST /api/queue latency (each add runs a dispatch round);
//   2. dispatch rounds with every job queued and no plate clear: POST /api/queue/dispatch, timed
//      (the queue exposes no round time of its own);
//   3. GET /api/history p50/p99 and the CSV export of every record with the dashboard's RSS
//      meanwhile (scripts/bench/history-load.mjs, as bench-history.mjs);
//   4. plates: every plate confirmed clear at once, with the round right after timed, then for
//      --seconds each plate confirmed clear again when its print ends: plate cleared → the
//      printer's own start (and → print.dispatched, → printer.status printing on the WebSocket),
//      p50/p99 over all plates (scripts/bench/farm/plate-cycles.mjs);
// and the dashboard's CPU and RSS in each phase and over the run (scripts/bench/farm/usage.mjs).
// Exit status 1 when a printer did not come online, a job was refused or no plate led to a print;
// every child process and temp folder is removed at the end, also on Ctrl-C (exit status 130).
//   node scripts/bench-farm.mjs [--dist dist] [--bambu 50] [--marlin 5] [--jobs 500] [--records 100000]
//        [--seconds 45] [--rounds 20] [--requests 200] [--print-seconds 3] [--operator-delay 500]
//        [--online-timeout 90] [--json FILE|-]
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals, cleanupStack } from './bench/cleanup.mjs';
import { call, signIn, startDashboard } from './bench/dashboard-process.mjs';
import { bambuTrays, benchJob, marlinSpool, postJob } from './bench/farm/jobs.mjs';
import { PlateCycles } from './bench/farm/plate-cycles.mjs';
import { formatFarmReport } from './bench/farm/report.mjs';
import { UsageRecorder } from './bench/farm/usage.mjs';
import { measureHistory, seedHistory } from './bench/history-load.mjs';
import { latencySummary } from './bench/stats.mjs';
import {
  addPrinters,
  builtFleet,
  listPrinters,
  nowMs,
  onlineSummary,
  openClient,
  sleep,
  startSimulators,
  waitOnline,
} from './bench/virtual-fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** After the window: how long the prints under way get to end, so the figures count them. */
const DRAIN_MS = 15_000;

function log(message) {
  process.stderr.write(`[bench-farm] ${message}\n`);
}

function number(name, text, { min = 0, integer = true } = {}) {
  const value = Number(text);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min) {
    throw new Error(`--${name} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}, got ${text}`);
  }
  return value;
}

export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      dist: { type: 'string', default: 'dist' },
      bambu: { type: 'string', default: '50' },
      marlin: { type: 'string', default: '5' },
      jobs: { type: 'string', default: '500' },
      records: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '45' },
      rounds: { type: 'string', default: '20' },
      requests: { type: 'string', default: '200' },
      'print-seconds': { type: 'string', default: '3' },
      'operator-delay': { type: 'string', default: '500' },
      'online-timeout': { type: 'string', default: '90' },
      json: { type: 'string' },
    },
  });
  const opts = {
    dist: resolve(root, values.dist),
    bambu: number('bambu', values.bambu),
    marlin: number('marlin', values.marlin),
    jobs: number('jobs', values.jobs, { min: 1 }),
    records: number('records', values.records, { min: 1 }),
    seconds: number('seconds', values.seconds, { min: 1, integer: false }),
    rounds: number('rounds', values.rounds, { min: 1 }),
    requests: number('requests', values.requests, { min: 1 }),
    printSeconds: number('print-seconds', values['print-seconds'], { min: 1 }),
    operatorDelayMs: number('operator-delay', values['operator-delay']),
    onlineTimeout: number('online-timeout', values['online-timeout'], { min: 1, integer: false }),
    json: values.json,
  };
  if (opts.bambu + opts.marlin === 0) throw new Error('nothing to simulate: --bambu and --marlin are both 0');
  return opts;
}

/** Every Bambu printer online with its AMS reported (idle or finished), every Marlin printer online. */
function farmReady(items) {
  return items.every((p) => p.online && ['idle', 'finished'].includes(p.state));
}

/** One spool per Marlin printer, loaded on its tool T0 through the inventory. */
async function loadMarlinSpools(base, headers, printers) {
  let j = 0;
  for (const [id, p] of printers) {
    if (p.kind !== 'marlin') continue;
    const spool = marlinSpool(j++);
    const body = { material: spool.material, color_hex: spool.color, printer_id: id, slot: { kind: 'tool', tool: 0 } };
    const r = await call(base, 'POST', '/api/filaments', { body, headers });
    if (r.status !== 201) throw new Error(`POST /api/filaments: HTTP ${r.status} ${r.text}`);
  }
}

/** Adds `opts.jobs` jobs one after the other; the POST latencies. */
async function queueJobs(base, headers, opts) {
  const samples = [];
  for (let n = 0; n < opts.jobs; n++) {
    const job = benchJob(n, { bambuCount: opts.bambu, marlinCount: opts.marlin, printSeconds: opts.printSeconds });
    const t0 = nowMs();
    const r = await postJob(base, headers, job);
    samples.push(nowMs() - t0);
    if (r.status !== 201) throw new Error(`POST /api/queue (${job.fileName}): HTTP ${r.status} ${r.text}`);
  }
  return latencySummary(samples);
}

/** POST /api/queue/dispatch, timed; `{ ms, dispatched }`. */
async function dispatchRound(base, headers) {
  const t0 = nowMs();
  const r = await call(base, 'POST', '/api/queue/dispatch', { headers });
  const ms = nowMs() - t0;
  if (r.status !== 200) throw new Error(`POST /api/queue/dispatch: HTTP ${r.status} ${r.text}`);
  return { ms, dispatched: r.json.dispatched.length };
}

async function queueCounts(base, headers) {
  const r = await call(base, 'GET', '/api/queue', { headers });
  if (r.status !== 200) throw new Error(`GET /api/queue: HTTP ${r.status} ${r.text}`);
  const byState = {};
  let copiesDone = 0;
  for (const job of r.json.items) {
    byState[job.state] = (byState[job.state] ?? 0) + 1;
    copiesDone += job.copies.filter((c) => c.state === 'done').length;
  }
  return { jobs: r.json.items.length, byState, copiesDone };
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const entry = builtFleet(opts.dist);
  const command = `node ${relative(process.cwd(), fileURLToPath(import.meta.url))} ${process.argv.slice(2).join(' ')}`.trim();

  const cleanup = cleanupStack(log);
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-farm-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  cleanUpOnSignals(cleanup, log);

  try {
    let cycles = null;
    const simOptions = {
      mode: 'farm',
      dist: opts.dist,
      dir: join(dir, 'simulators'),
      bambu: opts.bambu,
      marlin: opts.marlin,
      bambuAms: Array.from({ length: opts.bambu }, (_, i) => bambuTrays(i)),
      pushIntervalMs: 1000,
      stagger: true,
      temperatureNoise: 0,
      logLevel: 'warn',
    };
    const sims = startSimulators(
      simOptions,
      (message) => {
        if (message.type === 'prints') for (const start of message.prints) cycles?.onStart(start);
      },
      log,
    );
    cleanup.add(() => sims.stop());
    log(`starting ${opts.bambu} virtual Bambu and ${opts.marlin} virtual Marlin printers`);
    const ready = await sims.ready;

    const dataDir = join(dir, 'dashboard');
    mkdirSync(dataDir);
    log(`writing ${opts.records} history records`);
    await seedHistory(dataDir, opts.records);
    const dashboard = startDashboard(entry, { dataDir, env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } });
    cleanup.add(() => dashboard.stop());
    const base = await dashboard.url;
    log(`dashboard at ${base} (pid ${dashboard.pid})`);
    const usage = new UsageRecorder(dashboard.pid, nowMs);
    // WebSocket messages by phase and type: what each phase makes the dashboard announce.
    const wsByPhase = {};
    let current = null;
    const phase = (name) => {
      usage.phase(name);
      current = wsByPhase[name] = {};
    };
    phase('printers added, online');
    const credentials = await signIn(base, { apiKey: null });
    if (!credentials) throw new Error('this build has no /api/auth/setup: cannot add printers');
    const headers = { authorization: `Bearer ${credentials.token}` };

    const printers = await addPrinters(base, headers, ready);
    log(`added ${printers.size} printers; waiting up to ${opts.onlineTimeout} s for them to come online`);
    const online = await waitOnline(base, headers, opts.onlineTimeout, farmReady);
    await loadMarlinSpools(base, headers, printers);

    cycles = new PlateCycles({ base, headers, printers, nowMs, operatorDelayMs: opts.operatorDelayMs, log });
    const client = openClient(base, credentials.token, (message, at) => {
      current[message.type] = (current[message.type] ?? 0) + 1;
      cycles.onMessage(message, at);
    });
    cleanup.add(() => client.ws.terminate());
    await client.ready;

    phase(`${opts.jobs} jobs queued`);
    log(`queueing ${opts.jobs} jobs`);
    const adds = await queueJobs(base, headers, opts);

    phase('rounds, no plate clear');
    log(`${opts.rounds} dispatch rounds with no plate clear`);
    const idleRounds = [];
    for (let i = 0; i < opts.rounds; i++) {
      const round = await dispatchRound(base, headers);
      if (round.dispatched !== 0) throw new Error(`a round with no plate clear dispatched ${round.dispatched} copies`);
      idleRounds.push(round.ms);
    }
    const queueFile = join(dataDir, 'queue.json');
    const queueBytes = existsSync(queueFile) ? statSync(queueFile).size : 0;

    phase(`history, ${opts.records} records`);
    log('GET /api/history and the CSV export');
    const history = await measureHistory(base, headers, dashboard.pid, { records: opts.records, requests: opts.requests });

    phase('plates: all at once, then as prints end');
    log(`every plate confirmed clear at once, then ${opts.seconds} s of plates confirmed as prints end`);
    cycles.startCycling();
    await cycles.clearAll();
    const burstRound = await dispatchRound(base, headers);
    await sleep(opts.seconds * 1000);
    cycles.stopCycling();
    phase('prints under way end');
    const drainUntil = Date.now() + DRAIN_MS;
    while (Date.now() < drainUntil && (await listPrinters(base, headers)).some((p) => ['preparing', 'printing'].includes(p.state))) await sleep(500);
    const resources = usage.finish();
    const queue = await queueCounts(base, headers);
    const plates = cycles.results();
    const endSummary = onlineSummary(await listPrinters(base, headers));

    const problems = [];
    for (const [type, s] of Object.entries(online)) {
      if (s.online < s.configured) problems.push(`${s.configured - s.online} of ${s.configured} ${type} printers were not online`);
    }
    if (plates.burst.started + plates.single.started === 0) problems.push('no confirmed plate led to a print');

    const result = {
      command,
      options: { ...opts, dist: relative(root, opts.dist) || '.' },
      machine: { cores: cpus().length, loadavg: loadavg() },
      printers: Object.fromEntries(Object.entries(endSummary).map(([type, s]) => [type, { configured: s.configured, online: s.online }])),
      queue: { add: adds, queueJsonBytes: queueBytes, end: queue },
      rounds: { noPlateClear: latencySummary(idleRounds), afterAllCleared: burstRound },
      plates,
      history,
      dashboard: { pid: dashboard.pid, ...resources },
      ws: wsByPhase,
      problems,
    };
    if (opts.json === '-') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      process.stdout.write(formatFarmReport(result));
      if (opts.json) writeFileSync(opts.json, JSON.stringify(result, null, 2));
    }
    return problems.length === 0 ? 0 : 1;
  } finally {
    await cleanup.run();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      log(err.stack ?? String(err));
      process.exit(1);
    },
  );
}
