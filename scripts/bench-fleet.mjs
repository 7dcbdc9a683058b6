#!/usr/bin/env node
// Fleet load of the built dashboard: ONE dashboard with many simulated printers reporting, and
// what it costs. Starts the simulators in a child process (scripts/bench/fleet/simulators.mjs:
// virtual Bambu printers on one mosquitto, printing and pushing a report every second, half P1S
// deltas and half X1C full reports; virtual Marlin printers on socat pty pairs with M155
// temperature auto-reports), starts the dashboard as a child process on loopback with a temp data
// dir, signs in (first-run setup), adds every printer through the REST API, waits until they are
// online, opens a WebSocket client on /ws, and then measures for --seconds after --warmup:
//   - the dashboard's CPU (utime + stime of /proc/<pid>/stat) as % of one core, and per printer;
//   - its memory: RSS at the end and the peak (VmHWM of /proc/<pid>/status);
//   - report → WebSocket latency (p50/p99/max): each simulator report is timestamped when it is
//     published and matched to the `printer.status` / `print.progress` message that shows it
//     (scripts/bench/fleet/correlate.mjs), with counts of reports sent and messages received;
//   - the WebSocket message rate and how many printers of each type were online.
// Printers of a type the build has no driver for stay offline with that reason and are reported,
// not waited for. Exit status 1 when a printer with a driver did not come online or nothing was
// measured; every child process and temp folder is removed, also on Ctrl-C.
//   node scripts/bench-fleet.mjs [--dist dist] [--bambu 50] [--marlin 5] [--warmup 10] [--seconds 60]
//        [--push-interval 1000] [--in-step] [--online-timeout 90] [--noise 0.25] [--json FILE|-]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals, cleanupStack } from './bench/cleanup.mjs';
import { signIn, startDashboard } from './bench/dashboard-process.mjs';
import { correlate, messageKey, PublishLog } from './bench/fleet/correlate.mjs';
import { cpuSeconds, memory, treeCpu, treeCpuDelta } from './bench/fleet/proc-stats.mjs';
import { formatReport, LATENCY_NOTE } from './bench/fleet/report.mjs';
import {
  addPrinters,
  builtFleet,
  listPrinters,
  NO_DRIVER,
  nowMs,
  onlineSummary,
  openClient,
  sleep,
  startSimulators,
  waitOnline,
} from './bench/virtual-fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function log(message) {
  process.stderr.write(`[bench-fleet] ${message}\n`);
}

function count(name, text, min = 0) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}, got ${text}`);
  return value;
}

function seconds(name, text, min = 0) {
  const value = Number(text);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number of seconds of at least ${min}, got ${text}`);
  return value;
}

export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      dist: { type: 'string', default: 'dist' },
      bambu: { type: 'string', default: '50' },
      marlin: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '60' },
      'push-interval': { type: 'string', default: '1000' },
      'in-step': { type: 'boolean', default: false },
      'online-timeout': { type: 'string', default: '90' },
      noise: { type: 'string', default: '0.25' },
      json: { type: 'string' },
      'sim-log-level': { type: 'string', default: 'warn' },
    },
  });
  const opts = {
    dist: resolve(root, values.dist),
    bambu: count('bambu', values.bambu),
    marlin: count('marlin', values.marlin),
    warmup: seconds('warmup', values.warmup),
    seconds: seconds('seconds', values.seconds, 0.5),
    pushIntervalMs: count('push-interval', values['push-interval'], 100),
    stagger: !values['in-step'],
    onlineTimeout: seconds('online-timeout', values['online-timeout'], 1),
    temperatureNoise: seconds('noise', values.noise),
    json: values.json,
    simLogLevel: values['sim-log-level'],
  };
  if (opts.bambu + opts.marlin === 0) throw new Error('nothing to simulate: --bambu and --marlin are both 0');
  return opts;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const entry = builtFleet(opts.dist);
  const command = `node ${relative(process.cwd(), fileURLToPath(import.meta.url))} ${process.argv.slice(2).join(' ')}`.trim();

  const cleanup = cleanupStack(log);
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-fleet-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  cleanUpOnSignals(cleanup, log);

  try {
    const reports = new PublishLog();
    const simOptions = {
      mode: 'fleet',
      dist: opts.dist,
      dir: join(dir, 'simulators'),
      bambu: opts.bambu,
      marlin: opts.marlin,
      pushIntervalMs: opts.pushIntervalMs,
      stagger: opts.stagger,
      temperatureNoise: opts.temperatureNoise,
      logLevel: opts.simLogLevel,
    };
    const onMessage = (message) => {
      if (message.type !== 'reports') return;
      for (const r of message.reports) reports.add(r.printer, r.key, r.at, { kind: r.kind, full: r.full });
    };
    const sims = startSimulators(simOptions, onMessage, log);
    cleanup.add(() => sims.stop());
    log(`starting ${opts.bambu} virtual Bambu and ${opts.marlin} virtual Marlin printers`);
    const ready = await sims.ready;

    const dashboard = startDashboard(entry, { dataDir: join(dir, 'dashboard'), env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } });
    cleanup.add(() => dashboard.stop());
    const base = await dashboard.url;
    log(`dashboard at ${base} (pid ${dashboard.pid})`);
    const credentials = await signIn(base, { apiKey: null });
    if (!credentials) throw new Error('this build has no /api/auth/setup: cannot add printers');
    const headers = { authorization: `Bearer ${credentials.token}` };

    const printers = await addPrinters(base, headers, ready);
    log(`added ${printers.size} printers; waiting up to ${opts.onlineTimeout} s for them to come online`);
    const tOnline = Date.now();
    await waitOnline(base, headers, opts.onlineTimeout);
    log(`online check after ${((Date.now() - tOnline) / 1000).toFixed(1)} s`);

    const messages = [];
    const wsAll = [];
    const client = openClient(base, credentials.token, (message, at) => {
      wsAll.push({ type: message.type, at });
      if (message.type !== 'printer.status' && message.type !== 'print.progress') return;
      const printer = printers.get(message.payload?.printer_id);
      if (!printer) return;
      messages.push({
        kind: printer.kind,
        type: message.type,
        printer: printer.printer,
        key: messageKey(printer.kind, message.type, message.payload),
        at,
      });
    });
    cleanup.add(() => client.ws.terminate());
    await client.ready;

    if (opts.warmup > 0) {
      log(`warm-up ${opts.warmup} s`);
      await sleep(opts.warmup * 1000);
    }
    const startSummary = onlineSummary(await listPrinters(base, headers));

    log(`measuring ${opts.seconds} s`);
    const pid = dashboard.pid;
    const simPid = ready.pid;
    const start = nowMs();
    const cpuStart = cpuSeconds(pid);
    const memStart = memory(pid);
    const simStart = treeCpu(simPid);
    const benchStart = process.cpuUsage();
    const perSecond = [];
    let rssMaxKb = memStart.rssKb;
    let lastCpu = cpuStart;
    let lastAt = start;
    const sampler = setInterval(() => {
      const at = nowMs();
      const cpu = cpuSeconds(pid);
      perSecond.push(((cpu - lastCpu) / ((at - lastAt) / 1000)) * 100);
      lastCpu = cpu;
      lastAt = at;
      rssMaxKb = Math.max(rssMaxKb, memory(pid).rssKb || 0);
    }, 1000);
    await sleep(opts.seconds * 1000);
    clearInterval(sampler);
    const end = nowMs();
    const cpuEnd = cpuSeconds(pid);
    const memEnd = memory(pid);
    const simCpu = treeCpuDelta(simStart, treeCpu(simPid));
    const benchCpu = process.cpuUsage(benchStart);
    const windowS = (end - start) / 1000;
    const endSummary = onlineSummary(await listPrinters(base, headers));
    // Reports published just before the end may still be on their way.
    await sleep(Math.max(2000, 2 * opts.pushIntervalMs));
    const until = nowMs();

    const latency = correlate(reports, messages, {
      start,
      end,
      until,
      kinds: [...(opts.bambu ? ['bambu'] : []), ...(opts.marlin ? ['marlin'] : [])],
    });
    const windowReports = [...reports.within(start, end)];
    const inWindow = wsAll.filter((m) => m.at >= start && m.at < end);
    const byType = {};
    for (const m of inWindow) byType[m.type] = (byType[m.type] ?? 0) + 1;
    const onlineEnd = Object.values(endSummary).reduce((n, t) => n + t.online, 0);
    const cpuPercent = ((cpuEnd - cpuStart) / windowS) * 100;
    const mb = (kb) => kb / 1024;

    const printersOut = {};
    for (const [type, s] of Object.entries(endSummary)) {
      printersOut[type] = {
        configured: s.configured,
        onlineStart: startSummary[type]?.online ?? 0,
        onlineEnd: s.online,
        offlineReasons: s.offlineReasons,
      };
    }
    const problems = [];
    for (const [type, s] of Object.entries(endSummary)) {
      const missing = s.configured - s.online;
      if (missing === 0) continue;
      const noDriver = Object.entries(s.offlineReasons)
        .filter(([reason]) => NO_DRIVER.test(reason))
        .reduce((n, [, c]) => n + c, 0);
      if (missing > noDriver) problems.push(`${missing - noDriver} of ${s.configured} ${type} printers were not online at the end`);
      if (noDriver > 0) log(`${noDriver} ${type} printers offline: this build has no driver for ${type} (not counted as a failure)`);
    }
    if (latency.all.count === 0) problems.push('no report reached the WebSocket client: nothing was measured');
    if (!(cpuPercent > 0)) problems.push('no CPU time was measured for the dashboard');

    const result = {
      command,
      options: { ...opts, dist: relative(root, opts.dist) || '.' },
      models: Object.fromEntries(['P1S', 'X1C'].map((m) => [m, ready.bambu.filter((p) => p.model === m).length])),
      machine: { cores: cpus().length, loadavg: loadavg() },
      printers: printersOut,
      window: { seconds: windowS },
      dashboard: {
        pid,
        cpuPercent,
        cpuPercentPerPrinter: onlineEnd > 0 ? cpuPercent / onlineEnd : NaN,
        cpuPercentMaxSecond: perSecond.length > 0 ? Math.max(...perSecond) : NaN,
        rssStartMb: mb(memStart.rssKb),
        rssEndMb: mb(memEnd.rssKb),
        rssMaxMb: mb(Math.max(rssMaxKb, memEnd.rssKb)),
        peakMb: mb(memEnd.hwmKb),
      },
      reports: {
        bambu: windowReports.filter((r) => r.kind === 'bambu').length,
        bambuDeltas: windowReports.filter((r) => r.kind === 'bambu' && !r.full).length,
        bambuFull: windowReports.filter((r) => r.kind === 'bambu' && r.full).length,
        marlin: windowReports.filter((r) => r.kind === 'marlin').length,
      },
      latency,
      latencyIncludes: LATENCY_NOTE,
      ws: { messages: inWindow.length, perSecond: inWindow.length / windowS, byType },
      load: { simulatorsCpuPercent: (simCpu / windowS) * 100, benchCpuPercent: ((benchCpu.user + benchCpu.system) / 1e6 / windowS) * 100 },
      problems,
    };
    if (opts.json === '-') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      process.stdout.write(formatReport(result));
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
