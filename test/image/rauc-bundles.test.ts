/**
 * The update bundles (image/rauc/): made by make-bundle.sh with a development CA from
 * make-dev-ca.sh and checked by RAUC itself (`rauc info` with the keyring, the box's system
 * configs). A damaged bundle, one signed by another CA and one for another board are refused. A
 * Pi bundle carries the slot's boot image too, and RAUC writes it to the boot partition (child slot)
 * of the root slot it installs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  makeBootImage,
  makeBundle,
  makeDevCa,
  makeRootfs,
  RAUC_DIR,
  raucInstallMissing,
  raucMissing,
  readBootVersion,
  startRaucSystem,
  type DevCa,
} from '../fixtures/rauc.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function rauc(args: string[], env?: NodeJS.ProcessEnv): Run {
  const r = spawnSync('rauc', args, { encoding: 'utf8', ...(env ? { env } : {}) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function info(bundle: string, keyring: string): Run {
  return rauc(['info', `--keyring=${keyring}`, '--output-format=json', bundle]);
}

/** A copy of `bundle` with bytes overwritten at `offset` (negative: from the end). */
function tampered(bundle: string, offset: number, out: string): string {
  copyFileSync(bundle, out);
  const at = offset >= 0 ? offset : statSync(out).size + offset;
  const fd = openSync(out, 'r+');
  writeSync(fd, Buffer.from([0xde, 0xad, 0xbe, 0xef]), 0, 4, at);
  closeSync(fd);
  return out;
}

describe('RAUC bundles', { skip: raucMissing() }, () => {
  let dir: string;
  let ca: DevCa;
  let otherCa: DevCa;
  let rootfs: string;
  let bundle: string;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-bundles-'));
    ca = makeDevCa(path.join(dir, 'ca'));
    otherCa = makeDevCa(path.join(dir, 'other-ca'));
    rootfs = makeRootfs(dir, '1.4.0');
    bundle = makeBundle({ version: '1.4.0', ca, rootfs, out: path.join(dir, 'update.raucb') });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('make-dev-ca.sh makes a different CA on every call', () => {
    assert.notEqual(readFileSync(ca.caCert, 'utf8'), readFileSync(otherCa.caCert, 'utf8'));
    const subject = (cert: string) => spawnSync('openssl', ['x509', '-noout', '-subject', '-in', cert], { encoding: 'utf8' }).stdout;
    assert.notEqual(subject(ca.caCert), subject(otherCa.caCert));
  });

  test('a verity bundle for amd64 verifies with its CA and carries the compatible and the version', () => {
    const r = info(bundle, ca.caCert);
    assert.equal(r.status, 0, r.stderr);
    const manifest = JSON.parse(r.stdout);
    assert.equal(manifest.compatible, 'printyard-amd64');
    assert.equal(manifest.version, '1.4.0');
    assert.equal(manifest.images[0].rootfs.filename, 'rootfs.ext4');
    assert.equal(manifest.images[0].rootfs.size, statSync(rootfs).size);
    assert.match(r.stderr, /Verified inline signature/, 'verity bundles carry the manifest inside the signature');
  });

  test('a bundle for the Pi says printyard-rpi and carries the boot image for the boot slots', () => {
    const boot = makeBootImage(dir, '1.4.0');
    const rpi = makeBundle({ version: '1.4.0', board: 'rpi', ca, rootfs, boot, out: path.join(dir, 'rpi.raucb') });
    const r = info(rpi, ca.caCert);
    assert.equal(r.status, 0, r.stderr);
    const manifest = JSON.parse(r.stdout);
    assert.equal(manifest.compatible, 'printyard-rpi');
    const images = Object.assign({}, ...manifest.images);
    assert.deepEqual(Object.keys(images).sort(), ['boot', 'rootfs']);
    assert.equal(images.boot.filename, 'boot.vfat');
    assert.equal(images.boot.size, statSync(boot).size);
  });

  test("make-bundle.sh wants the Pi's boot image (by default boot-slot.vfat beside the root) and refuses one for the twin", () => {
    const images = mkdtempSync(path.join(dir, 'images-'));
    const root = path.join(images, 'rootfs.ext4');
    copyFileSync(rootfs, root);
    const run = (board: string, extra: string[] = []) =>
      spawnSync(
        path.join(RAUC_DIR, 'make-bundle.sh'),
        [
          '--board',
          board,
          '--version',
          '1.4.0',
          '--rootfs',
          root,
          '--cert',
          ca.signingCert,
          '--key',
          ca.signingKey,
          ...extra,
          '--out',
          path.join(images, 'b.raucb'),
        ],
        { encoding: 'utf8' },
      );
    const missing = run('rpi');
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /no boot image at .*boot-slot\.vfat/);
    copyFileSync(makeBootImage(dir, '1.4.1'), path.join(images, 'boot-slot.vfat'));
    const found = run('rpi');
    assert.equal(found.status, 0, found.stderr);
    assert.equal(JSON.parse(info(path.join(images, 'b.raucb'), ca.caCert).stdout).images.length, 2);
    assert.match(run('amd64', ['--boot', path.join(images, 'boot-slot.vfat')]).stderr, /--boot is for --board rpi/);
  });

  test('make-bundle.sh refuses a version that is no version number and an unknown board', () => {
    assert.throws(() => makeBundle({ version: 'latest', ca, rootfs, out: path.join(dir, 'x.raucb') }), /--version must look like/);
    assert.throws(() => makeBundle({ version: '1.0', board: 'x86' as 'amd64', ca, rootfs, out: path.join(dir, 'x.raucb') }), /--board/);
  });

  test('a bundle signed by another CA is refused', () => {
    const r = info(bundle, otherCa.caCert);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /signature verification failed.*unable to get local issuer certificate/);
  });

  test('a damaged signature is refused', () => {
    const r = info(tampered(bundle, -300, path.join(dir, 'bad-signature.raucb')), ca.caCert);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /signature|CMS/i);
  });

  test("a verity bundle's damaged payload fails RAUC's payload check (dm-verity checks it again while installing)", () => {
    const damaged = tampered(bundle, 20_000, path.join(dir, 'bad-payload.raucb'));
    // The signature covers the manifest with the verity root hash, so `info` still reads it…
    assert.equal(info(damaged, ca.caCert).status, 0);
    // …and every read of the payload is checked against that hash.
    const r = rauc(['extract', `--keyring=${ca.caCert}`, damaged, path.join(dir, 'extracted')]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /payload is corrupted/);
  });

  test("a plain bundle's damaged payload is refused by rauc info (its signature covers the whole image)", () => {
    const plain = makeBundle({ version: '1.4.0', format: 'plain', ca, rootfs, out: path.join(dir, 'plain.raucb') });
    assert.equal(info(plain, ca.caCert).status, 0);
    const r = info(tampered(plain, 20_000, path.join(dir, 'bad-plain.raucb')), ca.caCert);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /signature verification failed/);
  });

  test("the box's system configs verify with the keyring, check the code-signing purpose and refuse plain bundles", () => {
    const plain = makeBundle({ version: '1.4.0', format: 'plain', ca, rootfs, out: path.join(dir, 'plain-for-conf.raucb') });
    for (const board of ['amd64', 'rpi']) {
      const conf = readFileSync(path.join(RAUC_DIR, `system-${board}.conf`), 'utf8');
      assert.match(conf, /^path=\/etc\/rauc\/keyring\.pem$/m);
      assert.match(conf, new RegExp(`^compatible=printyard-${board}$`, 'm'));
      const local = path.join(dir, `system-${board}.conf`);
      writeFileSync(local, conf.replace('/etc/rauc/keyring.pem', ca.caCert));
      assert.equal(rauc([`--conf=${local}`, 'info', bundle]).status, 0, `${board}: the verity bundle`);
      assert.match(rauc([`--conf=${local}`, 'info', plain]).stderr, /Bundle format 'plain' not allowed/);
      writeFileSync(local, conf.replace('/etc/rauc/keyring.pem', otherCa.caCert));
      assert.notEqual(rauc([`--conf=${local}`, 'info', bundle]).status, 0, `${board}: another CA's keyring`);
    }
  });
});

describe("RAUC's own install", { skip: raucInstallMissing() }, () => {
  test('refuses a bundle for another board and installs one for this board into the other slot', async () => {
    // The Pi's slots (boot partitions as child slots), so the Pi bundle differs only by its compatible.
    const system = await startRaucSystem({ bootSlots: true });
    try {
      const rootfs = makeRootfs(system.dir, '2.0.0');
      const rpi = makeBundle({ version: '2.0.0', board: 'rpi', format: 'plain', ca: system.ca, rootfs, out: path.join(system.dir, 'rpi.raucb') });
      const refused = rauc(['install', rpi], system.env);
      assert.notEqual(refused.status, 0);
      assert.match(refused.stdout + refused.stderr, /Compatible mismatch/i);
      const amd64 = makeBundle({ version: '2.0.0', format: 'plain', ca: system.ca, rootfs, out: path.join(system.dir, 'amd64.raucb') });
      const installed = rauc(['install', amd64], system.env);
      assert.equal(installed.status, 0, installed.stdout + installed.stderr);
      assert.deepEqual(readFileSync(system.slots.b).subarray(0, statSync(rootfs).size), readFileSync(rootfs));
      const status = JSON.parse(rauc(['status', '--detailed', '--output-format=json'], system.env).stdout);
      assert.equal(status.booted, 'A');
      assert.equal(status.boot_primary, 'rootfs.1');
    } finally {
      await system.stop();
    }
  });

  test("a Pi bundle writes the other slot's root and its boot partition, and leaves the booted slot's alone", async () => {
    const system = await startRaucSystem({ compatible: 'printyard-rpi', bootSlots: true });
    try {
      const boots = system.bootSlots as { a: string; b: string };
      const rootfs = makeRootfs(system.dir, '2.1.0');
      const bundle = makeBundle({ version: '2.1.0', board: 'rpi', format: 'plain', ca: system.ca, rootfs, out: path.join(system.dir, 'rpi.raucb') });
      const installed = rauc(['install', bundle], system.env);
      assert.equal(installed.status, 0, installed.stdout + installed.stderr);
      assert.deepEqual(readFileSync(system.slots.b).subarray(0, statSync(rootfs).size), readFileSync(rootfs));
      assert.equal(readBootVersion(boots.b), '2.1.0', "boot-b holds the bundle's boot image");
      assert.ok(
        readFileSync(boots.a).every((byte) => byte === 0),
        'boot-a (the booted slot A) is not written',
      );
      const status = JSON.parse(rauc(['status', '--detailed', '--output-format=json'], system.env).stdout);
      const slots = Object.assign({}, ...status.slots);
      assert.equal(slots['boot.1'].parent, 'rootfs.1');
      assert.equal(slots['boot.1'].slot_status.bundle.version, '2.1.0');
      assert.equal(slots['rootfs.1'].slot_status.bundle.version, '2.1.0');
      assert.equal(status.boot_primary, 'rootfs.1');
      // The tryboot backend names B's boot partition (3) for the one trial boot.
      assert.match(readFileSync(path.join(system.bootDir, 'autoboot.txt'), 'utf8'), /\[tryboot\]\s*boot_partition=3/);
    } finally {
      await system.stop();
    }
  });
});
