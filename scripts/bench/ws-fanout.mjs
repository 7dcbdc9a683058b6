#!/usr/bin/env node
// WebSocket fan-out of a running dashboard: connects N clients to /ws, raises events one at a
// time and measures, for every client, the time from raising an event to receiving it.
//
// The event is real: POST /api/notifications (level print) stores a notification and the bus
// carries it to the hub, which pushes it to every client. Latency therefore counts the HTTP
// request (auth, validation) and the fan-out; the durable write of the list happens after the
// emit and does not count. The next event is raised once every client has the previous one, so
// this is latency at rest, not under a flood. The clients share this process: with many of them
// the receiving side's own event loop is part of the figure.
//
// The dashboard's rate limit (20 requests/s per client) would stop the raising loop: run the
// dashboard with PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED=false (or "rate_limit": {"enabled": false}).
//
// As a module: `measureWsFanout({ url, token, clients, events })` (scripts/bench-dashboard.mjs).
// Alone:  node scripts/bench/ws-fanout.mjs --url http://127.0.0.1:3000 --token <print token or API key>
//         [--clients 100] [--events 200] [--json out.json]
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { latencySummary as summary } from './stats.mjs';

const CONNECT_TIMEOUT_MS = 15_000;
const EVENT_TIMEOUT_MS = 15_000;

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Opens one client and resolves once its hello arrived; `onEvent(seq, atNs)` gets each bench notification. */
function openClient(wsUrl, onEvent) {
  const ws = new WebSocket(wsUrl);
  const ready = new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/ws refused the upgrade: HTTP ${res.statusCode}`)));
    ws.once('error', reject);
    ws.on('message', (data) => {
      const at = process.hrtime.bigint();
      const message = JSON.parse(String(data));
      if (message.type === 'hello') resolve();
      else if (message.type === 'notification' && message.payload.kind === 'bench.fanout') onEvent(message.payload.data.seq, at);
    });
  });
  return { ws, ready };
}

async function raise(url, token, seq) {
  const res = await fetch(`${url}/api/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 'bench.fanout', level: 'info', title: `fan-out ${seq}`, message: '', data: { seq } }),
  });
  const text = await res.text();
  if (res.status === 429) throw new Error('rate limited: run the dashboard with PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED=false');
  if (res.status !== 201) throw new Error(`POST /api/notifications: HTTP ${res.status} ${text}`);
}

/**
 * Resolves with `{ clients, events, perDelivery, untilAll }`: `perDelivery` summarises every
 * (client, event) latency in ms, `untilAll` the time until the last client had each event.
 */
export async function measureWsFanout({ url, token, clients = 100, events = 200, warmup = 10 }) {
  const wsUrl = `${url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`;
  const sentAt = new Map();
  const pending = new Map();
  const perDelivery = [];
  const untilAll = [];
  const onEvent = (seq, at) => {
    const wait = pending.get(seq);
    if (!wait) return;
    const ms = Number(at - sentAt.get(seq)) / 1e6;
    if (seq >= warmup) perDelivery.push(ms);
    if (--wait.left === 0) {
      if (seq >= warmup) untilAll.push(ms);
      pending.delete(seq);
      wait.resolve();
    }
  };
  const sockets = Array.from({ length: clients }, () => openClient(wsUrl, onEvent));
  try {
    await withTimeout(Promise.all(sockets.map((s) => s.ready)), CONNECT_TIMEOUT_MS, `connecting ${clients} clients`);
    for (let seq = 0; seq < warmup + events; seq++) {
      const all = new Promise((resolve) => pending.set(seq, { left: clients, resolve }));
      sentAt.set(seq, process.hrtime.bigint());
      await raise(url, token, seq);
      await withTimeout(all, EVENT_TIMEOUT_MS, `event ${seq}`);
    }
  } finally {
    for (const s of sockets) s.ws.terminate();
  }
  return { clients, events, perDelivery: summary(perDelivery), untilAll: summary(untilAll) };
}

const f = (v) => (Number.isFinite(v) ? v.toFixed(2) : '-');

/** The report lines of a result, for the bench's table. */
export function formatWsFanout(result) {
  const row = (label, s) =>
    `  ${label.padEnd(26)} ${String(s.count).padStart(7)}   ${f(s.p50).padStart(6)}   ${f(s.p99).padStart(6)}   ${f(s.max).padStart(6)}`;
  return [
    `WebSocket fan-out, ${result.clients} clients, ${result.events} events   samples   p50 ms   p99 ms   max ms`,
    row('raise → each client', result.perDelivery),
    row('raise → last client', result.untilAll),
  ].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      clients: { type: 'string', default: '100' },
      events: { type: 'string', default: '200' },
      json: { type: 'string' },
    },
  });
  if (!values.url || !values.token) throw new Error('--url and --token (a print-level session token or API key) are required');
  const clients = Number(values.clients);
  const events = Number(values.events);
  if (!Number.isInteger(clients) || clients < 1) throw new Error(`--clients must be a positive integer, got ${values.clients}`);
  if (!Number.isInteger(events) || events < 1) throw new Error(`--events must be a positive integer, got ${values.events}`);
  const result = await measureWsFanout({ url: values.url.replace(/\/$/, ''), token: values.token, clients, events });
  process.stdout.write(`${formatWsFanout(result)}\n`);
  if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`[bench] ${err.stack ?? String(err)}\n`);
    process.exit(1);
  });
}
