#!/usr/bin/env node
// `npm run test:image` (slow, not part of `npm test`; image/README.md): builds the amd64 twin (or
// takes --image), boots a copy of it under QEMU with a disk 1 GiB bigger than the image, and checks
// from inside (the self-test report on the serial console) and from outside (the dashboard through
// a hostfwd to 127.0.0.1): every Printyard unit active (READY), the data partition made and grown,
// the read-only root, host name from the box id, SSH off, the box announced over mDNS, GPIO through
// onoff when the kernel has a GPIO simulator, the dashboard answering with its first-run setup
// waiting. Then, through the dashboard's API (--no-update skips them), each in scripts/image/: a
// good update committed by the health gate, a bundle whose dashboard fails the gate rolled back,
// and a power cut in the middle of an install. Then the Raspberry Pi image's partitions and boot
// files when one was built, and its arm64 root under qemu-user (scripts/image/check-rpi.mjs runs
// these alone). Results in build/test-image/results.json.
//   node scripts/test-image.mjs [--image IMG] [--build] [--rpi-image IMG] [--kvm] [--keep] [--no-update]
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { partitions } from './image/disk.mjs';
import { checkRpiImage } from './image/rpi-checks.mjs';
import { checkRpiRoot } from './image/rpi-root-checks.mjs';
import { brokenRootfs, failingGate } from './image/failing-gate.mjs';
import { updateAndCommit } from './image/good-update.mjs';
import { powerCut } from './image/power-cut.mjs';
import { adminToken, assertUnitsReady, makeBundle } from './image/update-checks.mjs';
import { selftestReports, TwinVm, freePort } from './image/vm.mjs';

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

/** results.json after every check too: a run stopped by hand keeps what it found. */
function save() {
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
}

function pass(name, detail) {
  results.checks[name] = { ok: true, ...detail };
  log(`ok   ${name}${detail ? ` ${JSON.stringify(detail)}` : ''}`);
  save();
}

function buildTwin() {
  const ca = path.join(root, 'build/rauc-dev-ca');
  if (!existsSync(path.join(ca, 'ca.cert.pem'))) execFileSync(path.join(root, 'image/rauc/make-dev-ca.sh'), [ca], { stdio: 'inherit' });
  const t0 = Date.now();
  execFileSync(path.join(root, 'image/build.sh'), ['--board', 'amd64', '--keyring', path.join(ca, 'ca.cert.pem')], { stdio: 'inherit' });
  results.buildSeconds = (Date.now() - t0) / 1000;
}

async function getJson(port, route) {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, { signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
}

function checkInside(report, imageDataBytes) {
  pass('units active (READY)', assertUnitsReady(report));
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

/**
 * The bundles of the update checks, made one after the other while the VM boots: 0.1.1 and 0.1.3
 * of the image's own slot image, 0.1.2 of a copy whose dashboard cannot start.
 */
function makeBundles() {
  const rootfs = path.join(path.dirname(opts.image), 'rootfs.ext4');
  const bundle = (version, from = rootfs) => makeBundle({ root, rootfs: from, version, out: path.join(work, `update-${version}.raucb`) });
  const good = bundle('0.1.1');
  const broken = good.then(() => bundle('0.1.2', brokenRootfs(rootfs, path.join(work, 'rootfs-broken.ext4'))));
  const powerCut = broken.then(() => bundle('0.1.3'));
  // Awaited one by one later: a failure meanwhile must not end the process as an unhandled rejection.
  for (const promise of [good, broken, powerCut]) promise.catch(() => {});
  return { good, broken, powerCut };
}

/** One update check: its figures in results.json under `name`, or its error. */
async function updateCheck(name, run) {
  try {
    pass(name, await run());
  } catch (err) {
    results.checks[name] = { ok: false, error: err instanceof Error ? err.message : String(err) };
    throw err;
  }
}

async function updateChecks(vm, port, report, bundles) {
  const ctx = { vm, port, token: await adminToken(port), firstSystem: report.system };
  await updateCheck('update: installed, rebooted into the other slot, committed', async () => updateAndCommit(ctx, await bundles.good, '0.1.1'));
  await updateCheck('failing health gate: trial slot marked bad, old slot booted, rolled_back', async () =>
    failingGate(ctx, await bundles.broken, '0.1.2'),
  );
  await updateCheck('power cut mid-install: old slot booted, API not stuck, new install committed', async () =>
    powerCut(ctx, await bundles.powerCut, '0.1.3'),
  );
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
  vm.start();
  log(`booting ${disk} (${results.accel}); serial console in ${vm.serialLog}`);
  const bundles = opts['no-update'] ? null : makeBundles();
  try {
    const done = await vm.waitForSerial(/PRINTYARD-SELFTEST \{"check":"done"/, 40 * 60_000);
    results.firstBootReportSeconds = done.seconds;
    const report = selftestReports(vm.serial());
    results.selftest = report;
    checkInside(report, imageDataBytes);
    await checkOutside(port);
    if (!opts['no-update']) await updateChecks(vm, port, report, bundles);
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
  save();
  log(`results in ${path.join(work, 'results.json')}`);
}
process.exit(failed ? 1 : 0);
