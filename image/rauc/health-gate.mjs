#!/usr/bin/env node
// The health gate after every boot (printyard-health-gate.service): the booted slot is marked
// good only when the box works, otherwise bad, and the box reboots into the other slot.
// Required checks, polled every PRINTYARD_GATE_INTERVAL_S until PRINTYARD_GATE_TIMEOUT_S:
//  - each unit in PRINTYARD_GATE_UNITS is active (`systemctl is-active`: a Type=notify unit is
//    active only after READY=1);
//  - each health URL in PRINTYARD_GATE_HEALTH_URLS answers 200 with `ok: true` and the version of
//    the build on this slot (`version` of PRINTYARD_GATE_PACKAGE_JSON): the new version, not an
//    old process;
//  - every *.json state file under PRINTYARD_GATE_STATE_DIRS parses.
// Pass → `rauc status mark-good` (on GRUB it resets the slot's try flag; on the Pi while on the
// trial it commits the slot in autoboot.txt). Fail or timeout → `rauc status mark-bad` and
// PRINTYARD_GATE_REBOOT, so the bootloader falls back to the other slot.
// `health-gate` (a shell wrapper) runs it: the unit's ExecStart keeps one name whatever Node needs.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const env = process.env;
const list = (value, fallback) => (value ?? fallback).split(/\s+/).filter((item) => item !== '');
const settings = {
  units: list(env.PRINTYARD_GATE_UNITS, 'printyard-dashboard.service printyard-slicer.service'),
  healthUrls: list(env.PRINTYARD_GATE_HEALTH_URLS, 'http://127.0.0.1:3000/api/health http://127.0.0.1:8765/api/health'),
  packageJson: env.PRINTYARD_GATE_PACKAGE_JSON ?? '/opt/printyard/package.json',
  stateDirs: list(env.PRINTYARD_GATE_STATE_DIRS, '/var/lib/printyard/dashboard /var/lib/printyard/node-red'),
  timeoutS: Number(env.PRINTYARD_GATE_TIMEOUT_S ?? 300),
  intervalS: Number(env.PRINTYARD_GATE_INTERVAL_S ?? 10),
  rauc: env.PRINTYARD_GATE_RAUC ?? 'rauc',
  systemctl: env.PRINTYARD_GATE_SYSTEMCTL ?? 'systemctl',
  reboot: list(env.PRINTYARD_GATE_REBOOT, 'systemctl reboot'),
};

function log(message) {
  process.stdout.write(`health-gate: ${message}\n`);
}

function unitProblems() {
  const problems = [];
  for (const unit of settings.units) {
    try {
      execFileSync(settings.systemctl, ['is-active', '--quiet', unit], { stdio: 'ignore' });
    } catch {
      problems.push(`${unit} is not active`);
    }
  }
  return problems;
}

async function healthProblems(version) {
  const problems = [];
  for (const url of settings.healthUrls) {
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = answer.ok ? await answer.json() : null;
      if (body === null) problems.push(`${url} answered ${answer.status}`);
      else if (body.ok !== true || body.version !== version) problems.push(`${url} reports version ${body.version}, this slot has ${version}`);
    } catch (err) {
      problems.push(`${url}: ${err.message}`);
    }
  }
  return problems;
}

/** The *.json files of a state directory, one level down too (dashboard/, its stores' folders). */
function stateFiles(dir, depth = 0) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    return err.code === 'ENOENT' ? [] : [{ path: dir, error: err.message }];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return depth < 1 ? stateFiles(path, depth + 1) : [];
    return entry.name.endsWith('.json') ? [{ path }] : [];
  });
}

function stateProblems() {
  const problems = [];
  for (const file of settings.stateDirs.flatMap((dir) => stateFiles(dir))) {
    if (file.error) {
      problems.push(`${file.path}: ${file.error}`);
      continue;
    }
    try {
      if (statSync(file.path).size > 0) JSON.parse(readFileSync(file.path, 'utf8'));
    } catch (err) {
      problems.push(`${file.path} is unreadable: ${err.message}`);
    }
  }
  return problems;
}

async function check(version) {
  return [...unitProblems(), ...(await healthProblems(version)), ...stateProblems()];
}

async function main() {
  const version = JSON.parse(readFileSync(settings.packageJson, 'utf8')).version;
  const deadline = Date.now() + settings.timeoutS * 1000;
  let problems = await check(version);
  while (problems.length > 0 && Date.now() + settings.intervalS * 1000 <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, settings.intervalS * 1000));
    problems = await check(version);
  }
  if (problems.length === 0) {
    log(`version ${version} is healthy: marking the booted slot good`);
    execFileSync(settings.rauc, ['status', 'mark-good'], { stdio: 'inherit' });
    return 0;
  }
  for (const problem of problems) log(problem);
  log(`not healthy after ${settings.timeoutS} s: marking the booted slot bad and rebooting into the other one`);
  execFileSync(settings.rauc, ['status', 'mark-bad'], { stdio: 'inherit' });
  execFileSync(settings.reboot[0], settings.reboot.slice(1), { stdio: 'inherit' });
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(`cannot run: ${err.message}`);
    process.exit(2);
  },
);
