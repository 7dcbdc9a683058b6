#!/usr/bin/env node
// Load check of the built slicer service: starts it on a free loopback port with throw-away
// config and jobs dirs, then measures
//   1. GET /api/health latency while idle, and while a slice of a corpus model runs (p50/p99);
//   2. GET /api/profiles throughput with a few keep-alive connections.
// and prints the figures. The target: health p99 under 5 ms while a slice runs.
//   node scripts/bench-slicer-service.mjs [--entry dist/appliance/slicer/service/main.js]
//        [--model ../shared/corpus/openscad_example024_menger.stl] [--seconds 5] [--connections 8] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusModel } from './bench/shared-dir.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROFILE = { printer_id: 'generic-marlin-0.4', filament_ids: '["generic-pla"]', process_id: '0.20mm-standard' };

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function options() {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', default: join(root, 'dist', 'appliance', 'slicer', 'service', 'main.js') },
      'engine-threads': { type: 'string', default: 'auto' },
      model: { type: 'string', default: corpusModel('openscad_example024_menger.stl') },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '8' },
      json: { type: 'string' },
    },
  });
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, got ${values.seconds}`);
  if (!Number.isInteger(connections) || connections < 1) throw new Error(`--connections must be a positive integer, got ${values.connections}`);
  return { ...values, seconds, connections };
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function latencySummary(samplesMs) {
  const s = [...samplesMs].sort((a, b) => a - b);
  return {
    count: s.length,
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    p99: quantile(s, 0.99),
    max: s.at(-1) ?? NaN,
    over5ms: s.filter((v) => v >= 5).length,
  };
}

/** The built service on a free loopback port with throw-away dirs: `{ child, url, stop }` (`url` resolves once it listens). */
export function startService(entry, engineThreads = 'auto') {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-bench-service-'));
  const child = spawn(
    process.execPath,
    [
      entry,
      '--rest-port',
      '0',
      '--config-dir',
      join(dir, 'config'),
      '--jobs-dir',
      join(dir, 'jobs'),
      '--job-timeout-s',
      '3600',
      '--engine-threads',
      engineThreads,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (t) => {
      stderr += t;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}):\n${stderr}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
  return { child, url, stop };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One GET on a keep-alive connection; resolves with [latency ms, body bytes]. */
function get(url) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    http
      .get(url, { agent }, (res) => {
        let bytes = 0;
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
          else resolve([Number(process.hrtime.bigint() - t0) / 1e6, bytes]);
        });
      })
      .on('error', reject);
  });
}

async function probeHealth(base, keepGoing, intervalMs) {
  const samples = [];
  while (keepGoing()) {
    samples.push((await get(`${base}/api/health`))[0]);
    if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs));
  }
  return samples;
}

/** Starts a slice as an event stream; resolves once the first progress event arrived, with the promise of its end. */
async function startSlice(base, modelPath) {
  const form = new FormData();
  form.append('model', new Blob([readFileSync(modelPath)]), basename(modelPath));
  for (const [k, v] of Object.entries(PROFILE)) form.append(k, v);
  const t0 = Date.now();
  const res = await fetch(`${base}/api/slice`, { method: 'POST', body: form, headers: { accept: 'text/event-stream' } });
  if (res.status !== 200) throw new Error(`slice refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let started;
  const firstProgress = new Promise((resolve) => {
    started = resolve;
  });
  const finished = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.includes('event: progress')) started();
    }
    started();
    const last = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].at(-1);
    if (last?.[1] !== 'done') throw new Error(`the slice did not finish: ${last?.[1]} ${last?.[2]}`);
    return { seconds: (Date.now() - t0) / 1000, result: JSON.parse(last[2]) };
  })();
  await firstProgress;
  return { finished };
}

async function throughput(url, seconds, connections) {
  const end = Date.now() + seconds * 1000;
  let requests = 0;
  let bytes = 0;
  const samples = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const [ms, n] = await get(url);
        requests++;
        bytes += n;
        samples.push(ms);
      }
    }),
  );
  return {
    requestsPerS: requests / seconds,
    mbPerS: bytes / seconds / 1e6,
    bodyBytes: requests ? Math.round(bytes / requests) : 0,
    ...latencySummary(samples),
  };
}

const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');

async function main() {
  const opts = options();
  const service = startService(opts.entry, opts['engine-threads']);
  try {
    const base = await service.url;
    log(`service at ${base}; model ${basename(opts.model)}`);
    await get(`${base}/api/profiles`);
    await probeHealth(
      base,
      (() => {
        let n = 0;
        return () => n++ < 200;
      })(),
      0,
    );
    const idle = latencySummary(
      await probeHealth(
        base,
        (() => {
          let n = 0;
          return () => n++ < 500;
        })(),
        0,
      ),
    );

    let sliceDone = false;
    const slice = await startSlice(base, opts.model);
    const busySamples = probeHealth(base, () => !sliceDone, 10);
    const sliced = await slice.finished.finally(() => {
      sliceDone = true;
    });
    const busy = latencySummary(await busySamples);

    const all = await throughput(`${base}/api/profiles`, opts.seconds, opts.connections);
    const printers = await throughput(`${base}/api/profiles?kind=printer`, opts.seconds, opts.connections);

    const report = {
      model: basename(opts.model),
      slice: { seconds: sliced.seconds, layers: sliced.result.layers },
      health: { idle, busy },
      profiles: { all, printers },
      connections: opts.connections,
    };
    process.stdout.write(
      [
        `slice of ${report.model}: ${f(sliced.seconds)} s, ${sliced.result.layers} layers`,
        '',
        'GET /api/health            samples   p50 ms   p95 ms   p99 ms   max ms   >= 5 ms',
        `  idle                     ${String(idle.count).padStart(7)}   ${f(idle.p50).padStart(6)}   ${f(idle.p95).padStart(6)}   ` +
          `${f(idle.p99).padStart(6)}   ${f(idle.max).padStart(6)}   ${String(idle.over5ms).padStart(7)}`,
        `  while slicing            ${String(busy.count).padStart(7)}   ${f(busy.p50).padStart(6)}   ${f(busy.p95).padStart(6)}   ` +
          `${f(busy.p99).padStart(6)}   ${f(busy.max).padStart(6)}   ${String(busy.over5ms).padStart(7)}   ` +
          `${busy.p99 < 5 ? 'PASS' : 'FAIL'} (p99 < 5 ms)`,
        '',
        `GET /api/profiles, ${opts.connections} connections, ${opts.seconds} s      req/s    MB/s   body KB   p50 ms   p99 ms`,
        `  kind=all                                 ${f(all.requestsPerS, 0).padStart(7)}  ${f(all.mbPerS, 1).padStart(6)}  ` +
          `${f(all.bodyBytes / 1024, 1).padStart(8)}   ${f(all.p50).padStart(6)}   ${f(all.p99).padStart(6)}`,
        `  kind=printer                             ${f(printers.requestsPerS, 0).padStart(7)}  ${f(printers.mbPerS, 1).padStart(6)}  ` +
          `${f(printers.bodyBytes / 1024, 1).padStart(8)}   ${f(printers.p50).padStart(6)}   ${f(printers.p99).padStart(6)}`,
        '',
      ].join('\n'),
    );
    if (opts.json) writeFileSync(opts.json, JSON.stringify(report, null, 2));
  } finally {
    agent.destroy();
    await service.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    log(err.stack ?? String(err));
    process.exit(1);
  });
}
