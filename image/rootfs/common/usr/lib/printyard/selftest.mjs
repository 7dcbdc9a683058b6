// The box's state seen from inside, for `npm run test:image` (scripts/test-image.mjs): one line
// per check on stdout (the serial console), `PRINTYARD-SELFTEST {json}`. Runs only when QEMU sets the
// firmware entry opt/printyard/selftest (printyard-selftest.service). Uses our mDNS and GPIO modules.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const APP = '/opt/printyard/dist/appliance';
const SERVICES = ['printyard-slicer.service', 'printyard-dashboard.service', 'printyard-node-red.service'];
const OWN_UNITS = [...SERVICES, 'printyard-data.service', 'printyard-first-boot.service', 'printyard-health-gate.service'];

function report(check, body) {
  process.stdout.write(`PRINTYARD-SELFTEST ${JSON.stringify({ check, ...body })}\n`);
}

async function sh(cmd, args) {
  try {
    const { stdout } = await run(cmd, args, { timeout: 120_000 });
    return stdout.trim();
  } catch (err) {
    return `${err.stdout ?? ''}${err.stderr ?? ''}`.trim() || String(err.message);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function unitState(unit) {
  const props = ['LoadState', 'ActiveState', 'SubState', 'Result', 'ExecMainStartTimestampMonotonic', 'ActiveEnterTimestampMonotonic'];
  const text = await sh('systemctl', ['show', '--property', props.join(','), unit]);
  const fields = Object.fromEntries(text.split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
  const started = Number(fields.ExecMainStartTimestampMonotonic);
  const active = Number(fields.ActiveEnterTimestampMonotonic);
  return {
    unit,
    load: fields.LoadState,
    active: fields.ActiveState,
    sub: fields.SubState,
    result: fields.Result,
    readySecondsAfterBoot: active > 0 ? active / 1e6 : null,
    readySecondsAfterStart: active > 0 && started > 0 ? (active - started) / 1e6 : null,
  };
}

async function units() {
  // Type=notify units are "activating" until READY=1, and the health gate (a oneshot after them)
  // until its first check passes: wait for them to settle (4 minutes at most, less than the gate's
  // 300 s window, so a failing gate's reboot comes after this report).
  for (let i = 0; i < 240; i++) {
    const waitFor = [...SERVICES, 'printyard-health-gate.service'];
    const states = await Promise.all(waitFor.map((unit) => sh('systemctl', ['is-active', unit])));
    if (states.every((state) => state !== 'activating' && state !== 'inactive')) break;
    await sleep(1000);
  }
  const states = [];
  for (const unit of OWN_UNITS) states.push(await unitState(unit));
  report('units', { units: states, failed: await sh('systemctl', ['--failed', '--plain', '--no-legend']) });
  report('boot-time', { analyze: await sh('systemd-analyze', ['time']) });
  const journal = await sh('journalctl', ['--no-pager', '-o', 'cat', '-n', '60', '-u', 'printyard-health-gate', '-u', 'rauc']);
  report('journal', { gateAndRauc: journal, dashboard: await sh('journalctl', ['--no-pager', '-o', 'cat', '-n', '15', '-u', 'printyard-dashboard']) });
}

async function system() {
  const boxId = (await readFile('/var/lib/printyard/dashboard/box-id', 'utf8').catch(() => '')).trim();
  report('system', {
    cmdline: (await readFile('/proc/cmdline', 'utf8')).trim(),
    hostname: await sh('hostname', []),
    boxId,
    root: await sh('findmnt', ['--noheadings', '--output', 'SOURCE,OPTIONS', '/']),
    data: await sh('findmnt', ['--noheadings', '--bytes', '--output', 'SOURCE,SIZE,OPTIONS', '/var/lib/printyard']),
    dataPartitionBytes: Number(await sh('blockdev', ['--getsize64', '/dev/disk/by-partlabel/data'])),
    ssh: await sh('systemctl', ['is-active', 'ssh.service']),
    node: process.version,
    rauc: await sh('rauc', ['status', '--output-format=json']),
  });
}

async function security() {
  const scores = {};
  for (const unit of SERVICES) {
    const text = await sh('systemd-analyze', ['security', '--no-pager', unit]);
    const match = /Overall exposure level for \S+: ([\d.]+) (\S+)/.exec(text);
    scores[unit] = match ? { exposure: Number(match[1]), rating: match[2] } : { error: text.slice(-300) };
  }
  report('security', { scores });
}

async function mdns() {
  const { createBonjourResponder } = await import(`${APP}/hardware/mdns/bonjour-responder.js`);
  const errors = [];
  const responder = createBonjourResponder({}, (err) => errors.push(err.message));
  const browsers = ['http', 'pyard-slicer'].map((type) => responder.browse(type));
  await sleep(8000);
  const found = browsers.flatMap((browser) => browser.services());
  for (const browser of browsers) browser.stop();
  await responder.close();
  report('mdns', { found: found.map(({ name, type, host, port, txt }) => ({ name, type, host, port, txt })), errors });
}

async function gpio() {
  const config = await sh('sh', ['-c', "grep -E '^(# )?CONFIG_GPIO_(SIM|MOCKUP|SYSFS)[ =]' /boot/config-$(uname -r)"]);
  const loaded = await sh('sh', ['-c', 'modprobe gpio-mockup gpio_mockup_ranges=-1,32 && echo loaded']);
  if (loaded !== 'loaded') {
    report('gpio', { available: false, reason: `no GPIO simulator in this kernel: ${config.replace(/\n/g, '; ')}` });
    return;
  }
  const { OnoffChip } = await import(`${APP}/hardware/gpio/onoff-chip.js`);
  const chip = await OnoffChip.open({ sysfsRoot: '/sys/class/gpio', chipLabel: 'gpio-mockup-A' });
  const line = await chip.exportOutput(5, { initial: 1 });
  const first = await line.read();
  await line.write(0);
  const second = await line.read();
  await chip.close();
  report('gpio', { available: true, chip: chip.description, levels: [first, second] });
}

for (const check of [units, system, security, mdns, gpio]) {
  try {
    await check();
  } catch (err) {
    report(check.name, { error: err instanceof Error ? err.stack : String(err) });
  }
}
report('done', {});
