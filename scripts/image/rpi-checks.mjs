// The Raspberry Pi image is built, not booted (no Pi here): its partition table and the files of
// its boot partition, for scripts/test-image.mjs.
import assert from 'node:assert/strict';
import { listFiles, partitions, readFile } from './disk.mjs';

export function checkRpiImage(image) {
  const parts = partitions(image);
  assert.deepEqual(Object.keys(parts), ['boot', 'rootfs-a', 'rootfs-b', 'data'], 'partition names');
  const files = listFiles(image, 'boot');
  for (const name of ['config.txt', 'cmdline.txt', 'autoboot.txt', 'start4.elf', 'fixup4.dat', 'bcm2711-rpi-4-b.dtb', 'bcm2712-rpi-5-b.dtb']) {
    assert.ok(files.includes(name), `${name} on the boot partition (has ${files.join(' ')})`);
  }
  const slots = {};
  for (const slot of ['a', 'b']) {
    const slotFiles = listFiles(image, 'boot', `slot-${slot}`);
    assert.ok(slotFiles.some((f) => f.startsWith('vmlinuz')) || slot === 'b', `slot-${slot}/ holds the kernel (${slotFiles})`);
    slots[slot] = slotFiles;
  }
  const config = readFile(image, 'boot', 'config.txt');
  assert.match(config, /arm_64bit=1/);
  assert.match(config, /\[tryboot\]/);
  const cmdline = readFile(image, 'boot', 'slot-a/cmdline.txt');
  assert.match(cmdline, /root=PARTLABEL=rootfs-a\b/);
  assert.match(cmdline, /rauc\.slot=A\b/);
  return { partitions: parts, bootFiles: files, slots, autoboot: readFile(image, 'boot', 'autoboot.txt') };
}
