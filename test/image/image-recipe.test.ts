/**
 * The image recipe's parts agree with each other, checked without building (image/README.md;
 * `npm run test:image` builds and boots): the partition names of genimage's layouts are the ones
 * fstab, RAUC's system configs, the Pi's cmdline.txt and autoboot.txt use; the twin's GRUB files
 * parse (grub-script-check); the build scripts parse (bash -n); every unit of the overlay that the
 * build enables exists.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../appliance/common/paths.js';

const IMAGE = path.join(repoRoot(), 'image');
const read = (file: string) => readFileSync(path.join(IMAGE, file), 'utf8');

/** The partitions of a genimage layout, in order, by name. */
function layout(board: string): string[] {
  return [...read(`genimage/${board}.cfg`).matchAll(/^\s*partition ([\w-]+) \{/gm)].map((m) => m[1] as string);
}

/** PARTLABEL=… devices of an fstab, by mount point. */
function fstabLabels(board: string): Record<string, string> {
  const lines = read(`rootfs/${board}/etc/fstab`)
    .split('\n')
    .filter((l) => l.startsWith('PARTLABEL='));
  return Object.fromEntries(lines.map((l) => l.split(/\s+/)).map(([dev, mount]) => [mount as string, (dev as string).slice(10)]));
}

test('the twin: EFI partition 1, slots 2 and 3 (where rauc/grub.cfg looks), data last', () => {
  assert.deepEqual(layout('amd64'), ['efi', 'rootfs-a', 'rootfs-b', 'data']);
  assert.match(read('rauc/grub.cfg'), /slot_A_partition=\(hd0,gpt2\)[\s\S]*slot_B_partition=\(hd0,gpt3\)/);
  assert.deepEqual(fstabLabels('amd64'), { '/boot/efi': 'efi', '/var/lib/printyard': 'data' });
  assert.match(read('rauc/system-amd64.conf'), /grubenv=\/boot\/efi\/EFI\/BOOT\/grubenv/);
  assert.match(read('build/boot-amd64.sh'), /\$parts\/efi\/EFI\/BOOT\/grubenv\b/);
});

test('the Pi: autoboot.txt partition 1, boot partitions 2 and 3 (tryboot_a_b), slots, data last', () => {
  assert.deepEqual(layout('rpi'), ['boot', 'boot-a', 'boot-b', 'rootfs-a', 'rootfs-b', 'data']);
  const autoboot = read('rpi/autoboot.txt');
  assert.match(autoboot, /\[all\]\s+tryboot_a_b=1\s+boot_partition=2\s+\[tryboot\]\s+boot_partition=3/);
  assert.match(read('rauc/tryboot-backend'), /A:2 B:3/);
  assert.deepEqual(fstabLabels('rpi'), { '/boot/autoboot': 'boot', '/var/lib/printyard': 'data' });
  assert.match(read('rauc/tryboot-backend'), /PRINTYARD_TRYBOOT_DIR:-\/boot\/autoboot/);
  assert.match(read('rpi/cmdline.txt'), /root=PARTLABEL=@PARTLABEL@ .*rauc\.slot=@SLOT@/);
});

test("the Pi: one slot boot image for both boot partitions, its config.txt picks the slot's command line", () => {
  const genimage = read('genimage/rpi.cfg');
  for (const name of ['boot-a', 'boot-b']) {
    assert.match(genimage, new RegExp(`partition ${name} \\{\\s*image = "boot-slot\\.vfat"`), name);
  }
  const config = read('rpi/config.txt');
  // autoboot.txt's partitions 2 and 3 are slots A and B; boot-rpi.sh writes cmdline-a.txt and cmdline-b.txt.
  assert.match(config, /\[boot_partition=2\]\s+cmdline=cmdline-a\.txt\s+\[boot_partition=3\]\s+cmdline=cmdline-b\.txt\s+\[all\]/);
  assert.match(read('build/boot-rpi.sh'), /for slot in a b; do[\s\S]*"\$dir\/cmdline-\$slot\.txt"/);
  // RAUC's boot slots are those partitions, each the child of the root slot it boots.
  const conf = read('rauc/system-rpi.conf');
  assert.match(conf, /\[slot\.boot\.0\]\s+device=\/dev\/disk\/by-partlabel\/boot-a\s+type=vfat\s+parent=rootfs\.0/);
  assert.match(conf, /\[slot\.boot\.1\]\s+device=\/dev\/disk\/by-partlabel\/boot-b\s+type=vfat\s+parent=rootfs\.1/);
  assert.match(read('rauc/make-bundle.sh'), /\[image\.boot\]\\nfilename=boot\.vfat/);
});

test("RAUC's slots are the layouts' root (and on the Pi boot) partitions, and its status lives on the data partition", () => {
  const slots = { amd64: ['rootfs-a', 'rootfs-b'], rpi: ['rootfs-a', 'rootfs-b', 'boot-a', 'boot-b'] };
  for (const board of ['amd64', 'rpi'] as const) {
    const conf = read(`rauc/system-${board}.conf`);
    const devices = [...conf.matchAll(/^device=\/dev\/disk\/by-partlabel\/(\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(devices, slots[board], board);
    for (const name of devices) assert.ok(layout(board).includes(name as string));
    assert.match(conf, /^data-directory=\/var\/lib\/printyard\/rauc$/m);
  }
});

test("GRUB accepts the twin's grub.cfg and the slot choice it sources", (t) => {
  const check = spawnSync('grub-script-check', ['--version']);
  if (check.error) return t.skip('grub-script-check is not installed (Debian grub-common)');
  for (const file of ['grub/grub.cfg', 'rauc/grub.cfg']) {
    const r = spawnSync('grub-script-check', [path.join(IMAGE, file)], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${file}: ${r.stdout}${r.stderr}`);
  }
  assert.match(read('grub/grub.cfg'), /source \$\{prefix\}\/slot\.cfg/);
});

test('the build scripts and the first-boot scripts parse', () => {
  const scripts = [
    'build.sh',
    ...readdirSync(path.join(IMAGE, 'build'))
      .filter((f) => f.endsWith('.sh'))
      .map((f) => `build/${f}`),
  ];
  scripts.push('rootfs/common/usr/lib/printyard/data-partition', 'rootfs/common/usr/lib/printyard/first-boot');
  for (const script of scripts) {
    const r = spawnSync('bash', ['-n', path.join(IMAGE, script)], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${script}: ${r.stderr}`);
  }
});

test('every unit the build enables is in the image', () => {
  const enable = /in_root systemctl enable ((?:[^\n\\]|\\\n)*)/.exec(read('build/customize.sh'));
  assert.ok(enable);
  const units = (enable[1] as string)
    .replace(/\\\n/g, ' ')
    .split(/\s+/)
    .filter((u) => u.startsWith('printyard'));
  const overlay = readdirSync(path.join(IMAGE, 'rootfs/common/usr/lib/systemd/system'));
  const ours = readdirSync(path.join(IMAGE, 'systemd'));
  for (const unit of units) assert.ok(overlay.includes(unit) || ours.includes(unit), `${unit} exists`);
  assert.ok(units.includes('printyard-first-boot.service') && units.includes('printyard.target'));
});
