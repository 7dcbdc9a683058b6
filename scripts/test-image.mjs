#!/usr/bin/env node
// `npm run test:image` (slow, not part of `npm test`; image/README.md): builds the amd64 twin (or
// takes --image), boots a copy of it under QEMU with a disk 1 GiB bigger than the image, and checks
// from inside (the self-test report on the serial console) and from outside (the dashboard through
// a hostfwd to 127.0.0.1): every Printyard unit active (READY), the data partition made and grown,
// the read-only root, host name from the box id, SSH off, the box announced over mDNS, GPIO through
// onoff when the kernel has a GPIO simulator, the dashboard answering with its first-run setup
// waiting. Then an update: a bundle of the same slot image with a higher version, uploaded through
// the dashboard's API, the reboot, and the new slot booted and committed by the health gate
// (--no-update skips it). Then the Raspberry Pi image's partitions and boot files when one was built,
// and its arm64 root under qemu-user (scripts/image/check-rpi.mjs runs these alone).
//   node scripts/test-image.mjs [--image IMG] [--build] [--rpi-image IMG] [--kvm] [--keep] [--no-update]
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { partitions } from './image/disk.mjs';
import { checkRpiImage } from './image/rpi-checks.mjs';
import { checkRpiRoot } from './image/rpi-root-checks.mjs';
import { adminToken, installAndReboot, makeBundle, updateState } from './image/update-checks.mjs';
import { TwinVm, freePort } from './image/vm.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    image: { type: 'string', default: path.join(root, 'build/image-amd64/images/printyard-amd64.img') },
    'rpi-image': { type: 'string', default: path.join(root, 'build/image-rpi/images/printyard-rpi.img') },
    build: { type: 'boolean', default: false },
    kvm: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'no-update': { type: 'boolean', default: false },
  },
});
const work = path.join(root, 'build/test-image');
const results = { started: new Date().toISOString(), accel: opts.kvm ? 'kvm' : 'tcg', checks: {} };
const log = (msg) => process.stderr.write(`[test:image] ${msg}\n`);

function pass(name, detail) {
  results.checks[name] = { ok: true, ...detail };
  log(`ok   ${name}${detail ? ` ${JSON.stringify(detail)}` : ''}`);
}

function buildTwin() {
  const ca = path.join(root, 'build/rauc-dev-ca');
  if (!existsSync(path.join(ca, 'ca.cert.pem'))) execFileSync(path.join(root, 'image/rauc/make-dev-ca.sh'), [ca], { stdio: 'inherit' });
  const t0 = Date.now();
  execFileSync(path.join(root, 'image/build.sh'), ['--board', 'amd64', '--keyring', path.join(ca, 'ca.cert.pem')], { stdio: 'inherit' });
  results.buildSeconds = (Date.now() - t0) / 1000;
}

/** The self-test's lines on the serial console, by check. */
function selftest(serial) {
  const out = {};
  for (const match of serial.matchAll(/PRINTYARD-SELFTEST (\{.*\})\r?$/gm)) {
    const report = JSON.parse(match[1]);
    out[report.check] = report;
  }
  return out;
}

async function getJson(port, route) {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, { signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
}

function checkInside(report, imageDataBytes) {
  const { units } = report.units;
  for (const unit of units.filter((u) => u.load === 'loaded')) {
    const expected = /slicer|dashboard|node-red/.test(unit.unit) ? 'running' : 'exited';
    assert.equal(`${unit.active}/${unit.sub}`, `active/${expected}`, `${unit.unit}: ${JSON.stringify(unit)}`);
  }
  pass('units active (READY)', Object.fromEntries(units.map((u) => [u.unit, u.readySecondsAfterStart])));
  const sys = report.system;
  assert.match(sys.root, /(^|[\s,])ro([\s,]|$)/, `root mounted read-only: ${sys.root}`);
  assert.match(sys.data, /rw/, `data mounted read-write: ${sys.data}`);
  assert.ok(sys.dataPartitionBytes > imageDataBytes + 512 * 1024 * 1024, `data partition grown: ${sys.dataPartitionBytes}`);
  assert.match(sys.boxId, /^[0-9a-f]{32}$/);
  assert.equal(sys.hostname, `printyard-${sys.boxId.slice(0, 4)}`);
  assert.notEqual(sys.ssh, 'active', 'SSH is off without a ssh file');
  assert.match(sys.node, /^v20\./);
  pass('system', { hostname: sys.hostname, dataPartitionBytes: sys.dataPartitionBytes, node: sys.node, cmdline: sys.cmdline });
  const mine = report.mdns.found.filter((s) => s.txt?.box_id === sys.boxId);
  assert.ok(mine.length > 0, `the box's own mDNS announcement: ${JSON.stringify(report.mdns)}`);
  pass('mDNS announcement', { services: mine.map((s) => `${s.name} ${s.type} ${s.host}:${s.port}`) });
  if (report.gpio.available) {
    assert.deepEqual(report.gpio.levels, [1, 0]);
    pass('GPIO through onoff (gpio-mockup)', report.gpio);
  } else {
    results.checks.gpio = { ok: null, skipped: report.gpio.reason ?? report.gpio.error };
    log(`skip GPIO: ${results.checks.gpio.skipped}`);
  }
  results.security = report.security.scores;
  results.bootTime = report['boot-time'].analyze;
}

async function checkOutside(port) {
  const health = await getJson(port, '/api/health');
  assert.equal(health.status, 200, JSON.stringify(health));
  const setup = await getJson(port, '/api/auth/setup');
  assert.deepEqual(setup.body, { needed: true, setup_code_required: false }, 'the first-run setup is waiting');
  const page = await getJson(port, '/');
  assert.equal(page.status, 200);
  assert.match(String(page.body), /<html/i);
  pass('dashboard through hostfwd', { health: health.body, setup: setup.body });
}

/** A good update: installed through the dashboard, rebooted, booted from the other slot and committed. */
async function updateTwin(vm, port) {
  const bundle = makeBundle({
    root,
    rootfs: path.join(path.dirname(opts.image), 'rootfs.ext4'),
    version: '0.1.1',
    out: path.join(work, 'update-0.1.1.raucb'),
  });
  const token = await adminToken(port);
  const before = await updateState(port, token);
  const { installSeconds } = await installAndReboot(port, token, bundle);
  const rebootAt = Date.now();
  const reports = () => vm.serial().match(/PRINTYARD-SELFTEST \{"check":"done"/g)?.length ?? 0;
  while (reports() < 2) {
    if (Date.now() - rebootAt > 40 * 60_000) throw new Error(`no report after the update's reboot\n${vm.serial().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  const rebootSeconds = (Date.now() - rebootAt) / 1000;
  let after = await updateState(port, token);
  // The health gate commits the slot after both services answer (it polls every 10 s).
  for (let i = 0; i < 60 && after.slots.find((s) => s.bootname === after.booted)?.boot_status !== 'good'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    after = await updateState(port, token);
  }
  assert.notEqual(after.booted, before.booted, `booted the other slot: ${JSON.stringify(after)}`);
  assert.equal(after.running_version, '0.1.1');
  assert.equal(after.slots.find((s) => s.bootname === after.booted)?.boot_status, 'good', JSON.stringify(after.slots));
  pass('update through the dashboard, committed', { from: before.booted, to: after.booted, installSeconds, rebootSeconds });
}

async function bootTwin() {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const disk = path.join(work, 'disk.img');
  execFileSync('cp', ['--sparse=always', opts.image, disk]);
  const imageDataBytes = partitions(disk).data.sectors * 512;
  // A bigger disk than the image, as an SD card is: the first boot grows the data partition.
  execFileSync('truncate', ['--size=+1G', disk]);
  const port = await freePort();
  const vm = new TwinVm({ disk, dir: work, accel: results.accel, dashboardPort: port });
  log(`booting ${disk} (${results.accel}); serial console in ${vm.serialLog}`);
  vm.start();
  try {
    const done = await vm.waitForSerial(/PRINTYARD-SELFTEST \{"check":"done"/, 40 * 60_000);
    results.firstBootReportSeconds = done.seconds;
    const report = selftest(vm.serial());
    results.selftest = report;
    checkInside(report, imageDataBytes);
    await checkOutside(port);
    if (!opts['no-update']) await updateTwin(vm, port);
  } catch (err) {
    // Logged before QEMU is stopped: a stop that goes wrong must not hide the failure.
    log(`FAIL ${err instanceof Error ? err.stack : String(err)}${err?.cause ? `\ncause: ${err.cause.stack ?? err.cause}` : ''}`);
    throw err;
  } finally {
    if (!opts.keep) await vm.stop();
  }
}

let failed = false;
try {
  if (opts.build || !existsSync(opts.image)) buildTwin();
  await bootTwin();
  if (existsSync(opts['rpi-image'])) {
    pass('Raspberry Pi image (built, not booted)', checkRpiImage(opts['rpi-image']));
    const keyring = path.join(root, 'build/rauc-dev-ca/ca.cert.pem');
    pass('Raspberry Pi arm64 root (qemu-user)', await checkRpiRoot(opts['rpi-image'], existsSync(keyring) ? { keyring } : {}));
  } else results.checks.rpi = { ok: null, skipped: `no ${opts['rpi-image']} (image/build.sh --board rpi)` };
} catch (err) {
  failed = true;
  results.error = err instanceof Error ? err.stack : String(err);
  log(`FAIL ${results.error}`);
} finally {
  results.finished = new Date().toISOString();
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`results in ${path.join(work, 'results.json')}`);
}
process.exit(failed ? 1 : 0);
