// The simulated printers of the fleet and farm benches, in a child process of bench-fleet.mjs or
// bench-farm.mjs (so their work does not share an event loop with the client that takes the
// timestamps): a farm of virtual Bambu printers (scripts/simulators/bambu, one mosquitto for all,
// half P1S pushing deltas, half X1C pushing full reports) and virtual Marlin printers on socat pty
// pairs (scripts/simulators/marlin), both from the build under test.
//   - mode `fleet` (bench-fleet): every Bambu printer runs the bench print, the Marlin printers
//     have thermistor noise so each temperature report differs; every report is timestamped.
//   - mode `farm` (bench-farm): the printers stand idle with the AMS trays of `bambuAms[i]` and
//     print what the dashboard sends them; every print start is timestamped.
//
// Protocol (IPC, JSON): the parent sends `{type:'start', options}`; this process answers
// `{type:'ready', ...}` with what the dashboard needs to reach each printer, or `{type:'error'}`.
// Then it sends batches, `at` in ms of process.hrtime (the monotonic clock every process of the
// machine shares): fleet `{type:'reports', reports:[{printer, kind, key, at, full}]}`, every
// Bambu push_status and every Marlin temperature line; farm `{type:'prints', prints:[{printer,
// kind, at, file}]}`, every print a printer began (a Bambu `project_file` it accepted, the
// `M117 bench-job <name>` line that opens each bench-farm G-code file reaching a Marlin printer).
// `{type:'stop'}`, SIGINT, SIGTERM or the parent going away stop every simulator and end the process.
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchGcode } from './bench-gcode.mjs';
import { marlinLineKey } from './correlate.mjs';
import { childPids } from './proc-stats.mjs';

const FLUSH_MS = 100;
const STOP_TIMEOUT_MS = 15_000;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

let farm = null;
const marlins = [];
let pending = [];
let prints = [];
let flushTimer = null;
let restartTimer = null;
let starting = null;
let stopping = null;

function send(message) {
  if (process.connected) process.send(message);
}

function flush() {
  if (pending.length > 0) send({ type: 'reports', reports: pending });
  if (prints.length > 0) send({ type: 'prints', prints });
  pending = [];
  prints = [];
}

/** The first line of each bench-farm G-code file (scripts/bench/farm/jobs.mjs). */
const MARLIN_JOB_LINE = /M117 bench-job (\S+)/;

async function load(dist, relative) {
  return import(pathToFileURL(resolve(dist, relative)).href);
}

/** 15 characters: the model's serial prefix, then the index. */
function serialFor(model, index) {
  return `${model === 'X1C' ? '00M00A' : '01P00A'}${String(index).padStart(9, '0')}`;
}

function accessCode() {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}

async function start(options) {
  const { mode = 'fleet', dist, dir, bambu, marlin, pushIntervalMs, stagger, temperatureNoise, logLevel } = options;
  const farmMode = mode === 'farm';
  const { createLogger } = await load(dist, 'appliance/common/logger.js');
  const log = createLogger({ name: 'bench-fleet-sim', level: logLevel });
  flushTimer = setInterval(flush, FLUSH_MS);
  const out = { type: 'ready', pid: process.pid, caPem: null, bambu: [], marlin: [] };

  if (bambu > 0) {
    const { startVirtualBambuFarm } = await load(dist, 'scripts/simulators/bambu/farm.js');
    const { planFromGcode } = await load(dist, 'scripts/simulators/bambu/gcode-plan.js');
    const printers = Array.from({ length: bambu }, (_, i) => {
      const model = i % 2 === 0 ? 'P1S' : 'X1C';
      const ams = farmMode ? { units: 1, trays: options.bambuAms[i] } : undefined;
      return { serial: serialFor(model, i), accessCode: accessCode(), model, mqttPort: 0, ftpsPort: 0, ams };
    });
    const farmDir = join(dir, 'bambu');
    mkdirSync(farmDir, { recursive: true });
    farm = await startVirtualBambuFarm({
      printers,
      dir: farmDir,
      bindHost: '127.0.0.1',
      timeScale: options.timeScale ?? 1,
      pushIntervalMs,
      staggerPushes: stagger,
      prepareSeconds: 0,
      log,
    });
    // Two layers per report interval: every report carries a layer number of its own.
    const plan = planFromGcode(benchGcode({ layerSeconds: pushIntervalMs / 2000 }));
    const begin = (p) =>
      p.printer.state.begin({
        name: 'bench-plate',
        file: '/sdcard/bench-plate.gcode',
        ids: { subtaskId: '1', taskId: '1', projectId: '0', profileId: '0' },
        plan,
        mapping: [],
        useAms: false,
        prepareSeconds: 0,
        now: Date.now(),
      });
    for (const p of farm.printers) {
      if (farmMode) {
        p.printer.on('request', (handled) => {
          const print = handled.message?.print;
          if (print?.command !== 'project_file' || !p.printer.state.active) return;
          prints.push({ printer: p.serial, kind: 'bambu', at: nowMs(), file: String(print.subtask_name ?? print.url ?? '') });
        });
        continue;
      }
      begin(p);
      p.printer.on('publish', (message) => {
        const print = message.print;
        if (print?.command !== 'push_status') return;
        const layer = p.printer.state.job?.layer ?? 0;
        pending.push({ printer: p.serial, kind: 'bambu', key: String(layer), at: nowMs(), full: Number(print.msg) === 0 });
      });
    }
    // A finished print starts over, so the printers keep reporting changes however long the bench runs.
    if (!farmMode)
      restartTimer = setInterval(() => {
        for (const p of farm.printers) if (p.printer.state.gcodeState === 'FINISH') begin(p);
      }, 1000);
    out.caPem = farm.caPem;
    out.bambu = farm.printers.map((p) => ({
      serial: p.serial,
      accessCode: p.accessCode,
      model: p.model,
      mqttPort: p.mqttPort,
      ftpsPort: p.ftpsPort,
    }));
  }

  if (marlin > 0) {
    const { VirtualMarlin } = await load(dist, 'scripts/simulators/marlin/virtual-marlin.js');
    for (let i = 0; i < marlin; i++) {
      const name = `marlin-${i}`;
      const printer = await VirtualMarlin.start({
        dir: join(dir, name),
        speed: options.marlinSpeed ?? 1,
        seed: i + 1,
        firmware: { temperatureNoise, machineName: `Bench Marlin ${i}` },
        log: log.child(name),
      });
      marlins.push(printer);
      printer.on('error', () => {});
      if (farmMode) {
        printer.on('received', (text) => {
          const job = MARLIN_JOB_LINE.exec(text);
          if (job) prints.push({ printer: name, kind: 'marlin', at: nowMs(), file: job[1] });
        });
      } else {
        printer.on('sent', (line) => {
          const key = marlinLineKey(line);
          if (key !== null) pending.push({ printer: name, kind: 'marlin', key, at: nowMs(), full: true });
        });
      }
      out.marlin.push({ name, port: printer.hostPath });
    }
  }
  return out;
}

function stop(code = 0) {
  stopping ??= (async () => {
    const force = setTimeout(() => process.exit(code || 1), STOP_TIMEOUT_MS);
    await starting?.catch(() => {});
    if (restartTimer) clearInterval(restartTimer);
    if (flushTimer) clearInterval(flushTimer);
    flush();
    await Promise.allSettled([farm?.stop(), ...marlins.map((m) => m.stop())]);
    clearTimeout(force);
    send({ type: 'stopped' });
    process.exit(code);
  })();
  return stopping;
}

process.on('message', (message) => {
  if (message?.type === 'start' && !starting && !stopping) {
    starting = start(message.options);
    starting.then(
      (ready) => send(ready),
      (err) => {
        send({ type: 'error', message: err?.stack ?? String(err) });
        void stop(1);
      },
    );
  } else if (message?.type === 'stop') {
    void stop(0);
  }
});
process.on('disconnect', () => void stop(0));
// Whatever a simulator left running (socat, mosquitto after a failed start) goes with us.
process.on('exit', () => {
  for (const pid of childPids(process.pid)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
