#!/usr/bin/env node
// Load check of the built dashboard: starts it on a free loopback port with a throw-away data
// dir, signs in (first-run setup, login, an API key), then measures with N concurrent keep-alive
// clients for a few seconds each
//   1. GET /api/health (public, not rate limited);
//   2. GET /api/printers with the API key (authentication, level check, the registry);
//   3. the WebSocket fan-out of an event to many clients (scripts/bench/ws-fanout.mjs);
// and prints a table. The rate limit is switched off for the run (PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED):
// every client here shares one address and one key, and the figures are of the server, not of
// the limiter refusing them. Clients run in this process, so on a small machine the load
// generator shares the cores with the server; read the figures as a floor.
//   node scripts/bench-dashboard.mjs [--entry dist/appliance/dashboard/main.js] [--seconds 5]
//        [--connections 50] [--ws-clients 100] [--ws-events 200] [--json out.json]
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn as benchSignIn, startDashboard } from './bench/dashboard-process.mjs';
import { latencySummary } from './bench/stats.mjs';
import { formatWsFanout, measureWsFanout } from './bench/ws-fanout.mjs';

export { latencySummary, quantile } from './bench/stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function positiveInteger(name, text) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${text}`);
  return value;
}

function options() {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', default: join(root, 'dist', 'appliance', 'dashboard', 'main.js') },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      'ws-clients': { type: 'string', default: '100' },
      'ws-events': { type: 'string', default: '200' },
      json: { type: 'string' },
    },
  });
  const seconds = Number(values.seconds);
  if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, got ${values.seconds}`);
  return {
    entry: values.entry,
    json: values.json,
    seconds,
    connections: positiveInteger('connections', values.connections),
    wsClients: positiveInteger('ws-clients', values['ws-clients']),
    wsEvents: positiveInteger('ws-events', values['ws-events']),
  };
}

/**
 * The first admin, a session token and an API key; null (with the reason logged) when this
 * build has no auth routes yet.
 */
async function signIn(base) {
  const credentials = await benchSignIn(base, { apiKey: 'view' });
  if (!credentials) log('skipping the authenticated measurements: this build has no /api/auth/setup yet');
  return credentials;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

/** One GET on a keep-alive connection; resolves with the latency in ms. */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    http
      .get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      })
      .on('error', reject);
  });
}

/** `connections` clients, each sending its next request when the previous one is answered. */
async function throughput(url, headers, seconds, connections) {
  const end = Date.now() + seconds * 1000;
  const samples = [];
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) samples.push(await get(url, headers));
    }),
  );
  const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
  return { requestsPerS: samples.length / elapsedS, ...latencySummary(samples) };
}

const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');

function throughputRow(label, r) {
  return `  ${label.padEnd(34)} ${f(r.requestsPerS, 0).padStart(8)}   ${f(r.p50).padStart(6)}   ${f(r.p99).padStart(6)}   ${f(r.max).padStart(6)}`;
}

async function main() {
  const opts = options();
  const dashboard = startDashboard(opts.entry, { env: { PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false' } });
  try {
    const base = await dashboard.url;
    log(`dashboard at ${base}; ${opts.connections} connections, ${opts.seconds} s per endpoint`);
    const credentials = await signIn(base);

    const report = { connections: opts.connections, seconds: opts.seconds, health: null, printers: null, wsFanout: null };
    await throughput(`${base}/api/health`, {}, Math.min(1, opts.seconds), opts.connections);
    report.health = await throughput(`${base}/api/health`, {}, opts.seconds, opts.connections);
    if (credentials) {
      const headers = { 'x-api-key': credentials.apiKey };
      await throughput(`${base}/api/printers`, headers, Math.min(1, opts.seconds), opts.connections);
      report.printers = await throughput(`${base}/api/printers`, headers, opts.seconds, opts.connections);
      report.wsFanout = await measureWsFanout({ url: base, token: credentials.token, clients: opts.wsClients, events: opts.wsEvents });
    }

    const lines = [
      `HTTP, ${opts.connections} keep-alive clients, ${opts.seconds} s each       req/s   p50 ms   p99 ms   max ms`,
      throughputRow('GET /api/health', report.health),
      report.printers
        ? throughputRow('GET /api/printers (API key)', report.printers)
        : '  GET /api/printers                  skipped: no auth routes in this build',
      '',
      report.wsFanout ? formatWsFanout(report.wsFanout) : 'WebSocket fan-out: skipped (no auth routes in this build)',
      '',
    ];
    process.stdout.write(lines.join('\n'));
    if (opts.json) writeFileSync(opts.json, JSON.stringify(report, null, 2));
  } finally {
    agent.destroy();
    await dashboard.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    log(err.stack ?? String(err));
    process.exit(1);
  });
}
