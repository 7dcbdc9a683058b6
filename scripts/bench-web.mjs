#!/usr/bin/env node
// The web app in Debian's Chromium against the built dashboard, as issue 20 asks it measured:
//   1. per page: the script and style files it loads (raw and gzip sizes of the built files), the
//      time to first render (first contentful paint) and to interactive (the page's heading shown
//      and the main thread quiet for 500 ms after its last long task), with a cold cache, at full
//      speed and with the CPU slowed down --throttle times (Chromium's own throttling: a stand-in
//      for a Raspberry Pi 4 class machine or a phone);
//   2. the fleet page with --bambu virtual Bambu printers (scripts/bench/fleet/simulators.mjs, every
//      one printing and reporting every --push-interval ms) for --minutes: main-thread long tasks
//      (> 50 ms) per minute, the JS heap and DOM size each minute, and the live updates the page took.
// Printers are added through the REST API; the page is signed in with the first admin's session.
//   node scripts/bench-web.mjs [--dist dist] [--bambu 50] [--push-interval 500] [--minutes 10]
//        [--throttle 4] [--skip-fleet] [--json FILE|-]
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanUpOnSignals, cleanupStack } from './bench/cleanup.mjs';
import { BENCH_USER, signIn, startDashboard } from './bench/dashboard-process.mjs';
import { addPrinters, builtFleet, sleep, startSimulators, waitOnline } from './bench/virtual-fleet.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const VIEWPORT = { width: 1280, height: 800 };
/** The pages a person opens, by path; the printer page is added once a printer exists. */
const PAGES = ['/', '/slice', '/queue', '/spools', '/history', '/notifications', '/settings'];
const QUIET_MS = 500;
const SETTLE_LIMIT_MS = 15_000;

function log(message) {
  process.stderr.write(`[bench-web] ${message}\n`);
}

function number(name, text, min) {
  const value = Number(text);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number of at least ${min}, got ${text}`);
  return value;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      dist: { type: 'string', default: 'dist' },
      bambu: { type: 'string', default: '50' },
      'push-interval': { type: 'string', default: '500' },
      minutes: { type: 'string', default: '10' },
      throttle: { type: 'string', default: '4' },
      'skip-fleet': { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  });
  return {
    dist: resolve(root, values.dist),
    bambu: number('bambu', values.bambu, 1),
    pushIntervalMs: number('push-interval', values['push-interval'], 100),
    minutes: number('minutes', values.minutes, 0.25),
    throttle: number('throttle', values.throttle, 1),
    skipFleet: values['skip-fleet'],
    json: values.json,
  };
}

/** Runs in the page before its own scripts: records long tasks from the start. */
function recordLongTasks() {
  globalThis.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) globalThis.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** A signed-in browser context with long tasks recorded; `throttle` slows its CPU. */
async function openContext(browser, session) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(
    ([key, value]) => {
      if (globalThis.localStorage.getItem(key) === null) globalThis.localStorage.setItem(key, value);
    },
    ['printyard.session', JSON.stringify(session)],
  );
  await context.addInitScript(recordLongTasks);
  return context;
}

/** Sizes of the built file behind an asset URL: raw and its precompressed gzip copy. */
function assetSizes(publicDir, url) {
  const file = join(publicDir, new URL(url).pathname);
  if (!existsSync(file)) return null;
  return { raw: statSync(file).size, gzip: existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : statSync(file).size };
}

async function measurePage(browser, base, session, path, throttle, publicDir) {
  const context = await openContext(browser, session);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const assets = new Map();
  page.on('response', (response) => {
    const url = response.url();
    if (/\/assets\/[^/]+\.(js|css)$/.test(url) || new URL(url).pathname === '/') assets.set(url, true);
  });
  await page.goto(`${base}${path}`, { waitUntil: 'commit' });
  // The page's own heading, not the loading line of a chunk still on its way.
  await page.waitForFunction(
    () => {
      const h1 = document.querySelector('main h1');
      return h1 !== null && h1.textContent !== '';
    },
    undefined,
    { timeout: SETTLE_LIMIT_MS * throttle },
  );
  const headingAt = await page.evaluate(() => performance.now());
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let interactive = headingAt;
  for (;;) {
    const state = await page.evaluate(() => {
      const tasks = globalThis.__longTasks;
      const last = tasks.length === 0 ? 0 : Math.max(...tasks.map((t) => t.start + t.duration));
      return { now: performance.now(), last };
    });
    interactive = Math.max(headingAt, state.last);
    if (state.now - interactive >= QUIET_MS || Date.now() > deadline) break;
    await sleep(100);
  }
  const timings = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    longTasks: globalThis.__longTasks.length,
  }));
  await context.close();
  let raw = 0;
  let gzip = 0;
  const files = [];
  for (const url of assets.keys()) {
    const sizes = new URL(url).pathname === '/' ? assetSizes(publicDir, `${base}/index.html`) : assetSizes(publicDir, url);
    if (sizes === null) continue;
    raw += sizes.raw;
    gzip += sizes.gzip;
    files.push(new URL(url).pathname);
  }
  return { path, throttle, raw, gzip, files, fcpMs: timings.fcp, interactiveMs: interactive, longTasks: timings.longTasks };
}

async function measureFleet(browser, base, session, opts, fleetSize) {
  const context = await openContext(browser, session);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.enable');
  let frames = 0;
  cdp.on('Network.webSocketFrameReceived', () => {
    frames++;
  });
  await page.goto(`${base}/`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-printer]').length >= n, fleetSize, { timeout: 60_000 });
  const samples = [];
  const startTasks = await page.evaluate(() => globalThis.__longTasks.length);
  let tasksBefore = startTasks;
  let framesBefore = frames;
  const minutes = Math.max(1, Math.round(opts.minutes));
  const minuteMs = (opts.minutes * 60_000) / minutes;
  for (let minute = 1; minute <= minutes; minute++) {
    await sleep(minuteMs);
    const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const tasks = await page.evaluate(() => globalThis.__longTasks.map((t) => t.duration));
    const fresh = tasks.slice(tasksBefore);
    samples.push({
      minute,
      longTasks: fresh.length,
      longestTaskMs: fresh.length === 0 ? 0 : Math.max(...fresh),
      heapMb: metrics.JSHeapUsedSize / 1e6,
      domNodes: metrics.Nodes,
      updatesPerSecond: (frames - framesBefore) / (minuteMs / 1000),
    });
    log(
      `minute ${minute}: ${fresh.length} long tasks, heap ${(metrics.JSHeapUsedSize / 1e6).toFixed(1)} MB, ` +
        `${samples.at(-1).updatesPerSecond.toFixed(0)} updates/s`,
    );
    tasksBefore = tasks.length;
    framesBefore = frames;
  }
  await context.close();
  return samples;
}

function table(rows, columns) {
  const lines = [`| ${columns.map((c) => c[0]).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${columns.map((c) => c[1](row)).join(' | ')} |`);
  return lines.join('\n');
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => (value === null ? '–' : `${Math.round(value)} ms`);

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const entry = builtFleet(opts.dist);
  const publicDir = join(opts.dist, 'appliance', 'dashboard', 'web', 'public');
  if (!existsSync(join(publicDir, 'index.html'))) throw new Error(`${publicDir} has no index.html: run npm run build first`);
  const command = `node ${relative(process.cwd(), fileURLToPath(import.meta.url))} ${process.argv.slice(2).join(' ')}`.trim();
  const cleanup = cleanupStack(log);
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-web-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  cleanUpOnSignals(cleanup, log);
  try {
    const sims = opts.skipFleet
      ? null
      : startSimulators(
          {
            mode: 'fleet',
            dist: opts.dist,
            dir: join(dir, 'simulators'),
            bambu: opts.bambu,
            marlin: 0,
            pushIntervalMs: opts.pushIntervalMs,
            stagger: true,
            temperatureNoise: 0.25,
            logLevel: 'warn',
          },
          () => {},
          log,
        );
    if (sims) cleanup.add(() => sims.stop());
    const dashboard = startDashboard(entry, { dataDir: join(dir, 'dashboard'), env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } });
    cleanup.add(() => dashboard.stop());
    const base = await dashboard.url;
    const credentials = await signIn(base, { apiKey: null });
    const session = { token: credentials.token, username: BENCH_USER.username, role: 'admin' };
    const { launchChromium } = await import(pathToFileURL(join(opts.dist, 'test', 'fixtures', 'chromium.js')).href);
    const browser = await launchChromium();
    cleanup.add(() => browser.close());

    let fleetSize = 0;
    const paths = [...PAGES];
    if (sims) {
      log(`starting ${opts.bambu} virtual Bambu printers (a report every ${opts.pushIntervalMs} ms each)`);
      const ready = await sims.ready;
      const headers = { authorization: `Bearer ${credentials.token}` };
      const printers = await addPrinters(base, headers, ready);
      fleetSize = printers.size;
      await waitOnline(base, headers, 120);
      paths.push(`/printers/${[...printers.keys()][0]}`);
    }

    const pages = [];
    for (const throttle of [1, opts.throttle]) {
      for (const path of paths) {
        const result = await measurePage(browser, base, session, path, throttle, publicDir);
        log(`${path} ×${throttle}: ${kb(result.gzip)} gzip, first render ${ms(result.fcpMs)}, interactive ${ms(result.interactiveMs)}`);
        pages.push(result);
      }
    }
    const fleet = sims ? await measureFleet(browser, base, session, opts, fleetSize) : [];

    const report = [
      `# bench-web (${new Date().toISOString()})`,
      '',
      `\`${command}\``,
      '',
      'Per page, cold cache (sizes of the built files each page loads; times from navigation start):',
      '',
      table(
        pages.filter((p) => p.throttle === 1),
        [
          ['page', (p) => `\`${p.path.replace(/^\/printers\/.+/, '/printers/:id')}\``],
          ['files', (p) => String(p.files.length)],
          ['raw', (p) => kb(p.raw)],
          ['gzip', (p) => kb(p.gzip)],
          ['first render', (p) => ms(p.fcpMs)],
          ['interactive', (p) => ms(p.interactiveMs)],
          [`first render, CPU ÷${opts.throttle}`, (p) => ms(pages.find((q) => q.path === p.path && q.throttle === opts.throttle)?.fcpMs ?? null)],
          [
            `interactive, CPU ÷${opts.throttle}`,
            (p) => ms(pages.find((q) => q.path === p.path && q.throttle === opts.throttle)?.interactiveMs ?? null),
          ],
        ],
      ),
    ];
    if (fleet.length > 0) {
      const tasks = fleet.map((s) => s.longTasks);
      report.push(
        '',
        `Fleet page with ${fleetSize} printers, one report every ${opts.pushIntervalMs} ms each, ${opts.minutes} min:`,
        '',
        table(fleet, [
          ['minute', (s) => String(s.minute)],
          ['long tasks', (s) => String(s.longTasks)],
          ['longest', (s) => ms(s.longestTaskMs)],
          ['JS heap', (s) => `${s.heapMb.toFixed(1)} MB`],
          ['DOM nodes', (s) => String(s.domNodes)],
          ['updates/s', (s) => s.updatesPerSecond.toFixed(0)],
        ]),
        '',
        `Long tasks per minute: mean ${(tasks.reduce((a, b) => a + b, 0) / tasks.length).toFixed(1)}, max ${Math.max(...tasks)}; ` +
          `JS heap ${fleet[0].heapMb.toFixed(1)} MB after the first minute, ${fleet.at(-1).heapMb.toFixed(1)} MB at the end.`,
      );
    }
    process.stdout.write(`${report.join('\n')}\n`);
    if (opts.json) {
      const text = `${JSON.stringify({ command, pages, fleet, fleetSize }, null, 2)}\n`;
      if (opts.json === '-') process.stdout.write(text);
      else writeFileSync(opts.json, text);
    }
  } finally {
    await cleanup.run();
  }
}

main().catch((err) => {
  process.stderr.write(`[bench-web] ${err.stack ?? err}\n`);
  process.exitCode = 1;
});
