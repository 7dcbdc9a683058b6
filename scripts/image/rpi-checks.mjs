// The Raspberry Pi image is built, not booted (no Pi here): its partition table and the files of
// its boot partition, for scripts/test-image.mjs.
import assert from 'node:assert/strict';
import { listFiles, partitions, readFile } from './disk.mjs';

export function checkRpiImage(image) {
  const parts = partitions(image);
  assert.deepEqual(Object.keys(parts), ['boot', 'boot-a', 'boot-b', 'rootfs-a', 'rootfs-b', 'data'], 'partition names');
  // The firmware reads autoboot.txt on partition 1; tryboot_a_b switches whole partitions (2 = A, 3 = B).
  const autoboot = readFile(image, 'boot', 'autoboot.txt');
  assert.match(autoboot, /\[all\][^[]*tryboot_a_b=1[^[]*boot_partition=2/);
  assert.match(autoboot, /\[tryboot\][^[]*boot_partition=3/);
  const slots = {};
  for (const slot of ['a', 'b']) {
    const files = listFiles(image, `boot-${slot}`);
    const wanted = ['config.txt', 'cmdline.txt', 'vmlinuz', 'initrd.img', 'start4.elf', 'fixup4.dat', 'bcm2711-rpi-4-b.dtb', 'bcm2712-rpi-5-b.dtb'];
    for (const name of wanted) assert.ok(files.includes(name), `${name} on boot-${slot} (has ${files.join(' ')})`);
    assert.match(readFile(image, `boot-${slot}`, 'config.txt'), /arm_64bit=1/);
    const cmdline = readFile(image, `boot-${slot}`, 'cmdline.txt');
    assert.match(cmdline, new RegExp(`root=PARTLABEL=rootfs-${slot}\\b`));
    assert.match(cmdline, new RegExp(`rauc\\.slot=${slot.toUpperCase()}\\b`));
    slots[slot] = { files: files.length, cmdline: cmdline.trim() };
  }
  return { partitions: Object.keys(parts), autoboot, slots };
}
