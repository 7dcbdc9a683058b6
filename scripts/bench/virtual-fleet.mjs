// The virtual printers of a bench and the dashboard's view of them: the simulator process
// (fleet/simulators.mjs, forked so its work does not share an event loop with the client that
// takes the timestamps), every printer added through the REST API, the wait until they are online,
// and a WebSocket client on /ws. Used by bench-fleet.mjs and bench-farm.mjs.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { call } from './dashboard-process.mjs';

const SIMULATORS = join(dirname(fileURLToPath(import.meta.url)), 'fleet', 'simulators.mjs');
export const TYPES = { bambu: 'bambu-lan', marlin: 'marlin-serial' };
export const NO_DRIVER = /^no driver for type /;
const SIM_START_TIMEOUT_MS = 120_000;
const ADD_CONCURRENCY = 8;
const POLL_MS = 500;

/** The dashboard's entry in the build `dist`, once it and both simulators are known to be there. */
export function builtFleet(dist) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const entry = join(dist, 'appliance', 'dashboard', 'main.js');
  for (const file of [
    entry,
    join(dist, 'scripts', 'simulators', 'bambu', 'farm.js'),
    join(dist, 'scripts', 'simulators', 'marlin', 'virtual-marlin.js'),
  ]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (npx tsc -p tsconfig.json --outDir ${relative(root, dist) || 'dist'})`);
  }
  return entry;
}

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The simulator process, started with `options` (see fleet/simulators.mjs); `ready` resolves with
 * its `ready` answer. `onMessage(message)` gets every other message (report and print batches).
 */
export function startSimulators(options, onMessage, log) {
  const child = fork(SIMULATORS, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json' });
  const exited = new Promise((r) => child.once('exit', r));
  // The channel breaks when the child is gone first (Ctrl-C reaches it too): never fatal here.
  child.on('error', (err) => log(`simulator process: ${err.message}`));
  const ready = new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulators did not start in time')), SIM_START_TIMEOUT_MS);
    child.on('message', (message) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolveReady(message);
      } else if (message.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`the simulators could not start: ${message.message}`));
      } else onMessage(message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the simulator process exited (${code ?? signal})`));
    });
  });
  ready.catch(() => {});
  child.send({ type: 'start', options });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' }, (err) => err && child.kill('SIGTERM'));
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, ready, stop };
}

/** Runs `work` over `items`, `limit` at a time, in order of completion. */
export async function pool(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Adds every simulated printer of the simulators' `ready` answer; returns id → { kind, printer, model, name }. */
export async function addPrinters(base, headers, sims) {
  const specs = [
    ...sims.bambu.map((p, i) => ({
      kind: 'bambu',
      printer: p.serial,
      model: p.model,
      body: {
        name: `bench-bambu-${String(i).padStart(3, '0')}`,
        type: TYPES.bambu,
        model: p.model,
        connection: { host: '127.0.0.1', serial: p.serial, access_code: p.accessCode, ca: sims.caPem, mqtt_port: p.mqttPort, ftps_port: p.ftpsPort },
      },
    })),
    ...sims.marlin.map((p) => ({
      kind: 'marlin',
      printer: p.name,
      model: null,
      body: { name: `bench-${p.name}`, type: TYPES.marlin, connection: { port: p.port, baud: 115200 } },
    })),
  ];
  const byId = new Map();
  await pool(specs, ADD_CONCURRENCY, async (spec) => {
    const r = await call(base, 'POST', '/api/printers', { body: spec.body, headers });
    if (r.status !== 201) throw new Error(`POST /api/printers (${spec.body.name}): HTTP ${r.status} ${r.text}`);
    byId.set(r.json.id, { kind: spec.kind, printer: spec.printer, model: spec.model, name: spec.body.name });
  });
  return byId;
}

export async function listPrinters(base, headers) {
  const r = await call(base, 'GET', '/api/printers', { headers });
  if (r.status !== 200) throw new Error(`GET /api/printers: HTTP ${r.status} ${r.text}`);
  return r.json.items;
}

/** Per type: configured, online, and the offline ones by reason; `waiting` counts printers that may still come online. */
export function onlineSummary(items) {
  const out = {};
  for (const type of Object.values(TYPES)) out[type] = { configured: 0, online: 0, offlineReasons: {}, waiting: 0 };
  for (const item of items) {
    out[item.type] ??= { configured: 0, online: 0, offlineReasons: {}, waiting: 0 };
    const t = out[item.type];
    t.configured++;
    if (item.online) {
      t.online++;
      continue;
    }
    const reason = item.status?.error ?? `not online yet (${item.state})`;
    t.offlineReasons[reason] = (t.offlineReasons[reason] ?? 0) + 1;
    if (!NO_DRIVER.test(reason)) t.waiting++;
  }
  return out;
}

/** Polls until every printer whose type has a driver is online (and `also(items)` holds), or the timeout. */
export async function waitOnline(base, headers, timeoutS, also = () => true) {
  const deadline = Date.now() + timeoutS * 1000;
  let summary;
  for (;;) {
    const items = await listPrinters(base, headers);
    summary = onlineSummary(items);
    const waiting = Object.values(summary).reduce((n, t) => n + t.waiting, 0);
    if ((waiting === 0 && also(items)) || Date.now() > deadline) return summary;
    await sleep(POLL_MS);
  }
}

/** A WebSocket client on /ws; resolves once the hello arrived. `onMessage(message, at)` gets every event. */
export function openClient(base, token, onMessage) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`);
  const ready = new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error('/ws: no hello within 15 s')), 15_000);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`/ws refused the upgrade: HTTP ${res.statusCode}`)));
    ws.once('error', reject);
    ws.on('message', (data) => {
      const at = nowMs();
      const message = JSON.parse(String(data));
      if (message.type === 'hello') {
        clearTimeout(timer);
        resolveReady();
      } else onMessage(message, at);
    });
  });
  ready.catch(() => {});
  return { ws, ready };
}
