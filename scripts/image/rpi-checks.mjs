// The Raspberry Pi image is built, not booted (no Pi here): its partition table and the files of
// its boot partitions, for scripts/test-image.mjs and scripts/image/check-rpi.mjs (its arm64 root:
// rpi-root-checks.mjs).
import assert from 'node:assert/strict';
import { listFiles, partitions, readFile } from './disk.mjs';

export function checkRpiImage(image) {
  const parts = partitions(image);
  assert.deepEqual(Object.keys(parts), ['boot', 'boot-a', 'boot-b', 'rootfs-a', 'rootfs-b', 'data'], 'partition names');
  // The firmware reads autoboot.txt on partition 1; tryboot_a_b switches whole partitions (2 = A, 3 = B).
  const autoboot = readFile(image, 'boot', 'autoboot.txt');
  assert.match(autoboot, /\[all\][^[]*tryboot_a_b=1[^[]*boot_partition=2/);
  assert.match(autoboot, /\[tryboot\][^[]*boot_partition=3/);
  // Both boot partitions start as the same image (what an update bundle's boot.vfat holds): its
  // config.txt picks cmdline-a.txt on partition 2 and cmdline-b.txt on partition 3.
  const files = listFiles(image, 'boot-a');
  assert.deepEqual(listFiles(image, 'boot-b'), files, 'boot-a and boot-b hold the same files');
  const wanted = [
    'config.txt',
    'cmdline-a.txt',
    'cmdline-b.txt',
    'vmlinuz',
    'initrd.img',
    'start4.elf',
    'fixup4.dat',
    'bcm2711-rpi-4-b.dtb',
    'bcm2712-rpi-5-b.dtb',
  ];
  for (const name of wanted) assert.ok(files.includes(name), `${name} on the boot partitions (has ${files.join(' ')})`);
  const config = readFile(image, 'boot-a', 'config.txt');
  assert.match(config, /arm_64bit=1/);
  assert.match(config, /\[boot_partition=2\]\s+cmdline=cmdline-a\.txt\s+\[boot_partition=3\]\s+cmdline=cmdline-b\.txt/);
  assert.equal(readFile(image, 'boot-b', 'config.txt'), config);
  const cmdlines = {};
  for (const slot of ['a', 'b']) {
    const cmdline = readFile(image, 'boot-a', `cmdline-${slot}.txt`);
    assert.match(cmdline, new RegExp(`root=PARTLABEL=rootfs-${slot}\\b`));
    assert.match(cmdline, new RegExp(`rauc\\.slot=${slot.toUpperCase()}\\b`));
    assert.match(cmdline, /\bro\b/, 'the root mounted read-only');
    cmdlines[slot] = cmdline.trim();
  }
  const mib = (name) => (parts[name].sectors * 512) / 2 ** 20;
  return { partitions: Object.keys(parts), bootMiB: mib('boot-a'), rootMiB: mib('rootfs-a'), autoboot, bootFiles: files.length, cmdlines };
}
