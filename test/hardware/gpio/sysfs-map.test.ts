/**
 * BCM numbers through the chip base of fake /sys trees laid out as the Raspberry Pi kernels do:
 * never a fixed offset, the header's chip found by its label.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { openChip } from '../../../appliance/hardware/gpio/open-chip.js';
import { findHeaderChip, kernelNumber, listChips } from '../../../appliance/hardware/gpio/sysfs-map.js';
import { fakeSysfs, PI3_OLD_KERNEL, PI4_KERNEL_6_6, PI5_KERNEL_6_6 } from './sysfs-tree.js';

const roots: string[] = [];
const tree = (...args: Parameters<typeof fakeSysfs>) => {
  const root = fakeSysfs(...args);
  roots.push(root);
  return root;
};
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

test('a Pi 4 on kernel 6.6: the pinctrl-bcm2711 chip at base 512, GPIO 17 is sysfs 529', async () => {
  const chip = await findHeaderChip(tree(PI4_KERNEL_6_6));
  assert.deepEqual({ label: chip.label, base: chip.base, ngpio: chip.ngpio }, { label: 'pinctrl-bcm2711', base: 512, ngpio: 58 });
  assert.equal(kernelNumber(chip, 17), 529);
  assert.equal(kernelNumber(chip, 0), 512);
});

test('a Pi 5: the header is on pinctrl-rp1 (base 571), not on the first chip at 512', async () => {
  const root = tree(PI5_KERNEL_6_6);
  assert.equal((await listChips(root))[0].base, 512);
  const chip = await findHeaderChip(root);
  assert.equal(chip.label, 'pinctrl-rp1');
  assert.equal(kernelNumber(chip, 17), 588);
});

test('an older kernel numbering from 0 maps GPIO 17 to 17', async () => {
  assert.equal(kernelNumber(await findHeaderChip(tree(PI3_OLD_KERNEL)), 17), 17);
});

test('a chip label given in the settings wins (a kernel GPIO simulator in the VM test)', async () => {
  const root = tree([...PI4_KERNEL_6_6, { base: 600, ngpio: 16, label: 'gpio-sim.0-node0' }]);
  const chip = await findHeaderChip(root, 'gpio-sim.0-node0');
  assert.equal(kernelNumber(chip, 5), 605);
  await assert.rejects(findHeaderChip(root, 'no-such-chip'), /no GPIO chip labelled no-such-chip .*found pinctrl-bcm2711 \(base 512\)/);
});

test('a line beyond the chip is refused, naming the chip', async () => {
  const chip = await findHeaderChip(tree(PI4_KERNEL_6_6));
  assert.throws(() => kernelNumber(chip, 58), /GPIO 58 is not a line of pinctrl-bcm2711 \(0–57\)/);
  assert.throws(() => kernelNumber(chip, -1), /GPIO -1/);
});

test('no GPIO (a PC, CI): no chip and the reason, no exception', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'printyard-no-gpio-'));
  roots.push(empty);
  for (const root of [empty, path.join(empty, 'missing')]) {
    const opened = await openChip({ type: 'onoff', sysfsRoot: root, chipLabel: '' });
    assert.equal(opened.chip, null);
    assert.match(opened.problem ?? '', /no GPIO chips under/);
  }
  const other = tree([{ base: 0, ngpio: 8, label: 'some-usb-gpio' }]);
  const opened = await openChip({ type: 'onoff', sysfsRoot: other, chipLabel: '' });
  assert.match(opened.problem ?? '', /no GPIO chip labelled pinctrl-rp1 or pinctrl-bcm2711 or pinctrl-bcm2835/);
});

test('the onoff chip opens on a fake Pi 4 tree with its base, and exporting fails with the kernel error here', async () => {
  const opened = await openChip({ type: 'onoff', sysfsRoot: tree(PI4_KERNEL_6_6), chipLabel: '' });
  assert.ok(opened.chip, opened.problem ?? '');
  assert.deepEqual(opened.chip.description, { label: 'pinctrl-bcm2711', base: 512, ngpio: 58 });
  // onoff writes the real /sys/class/gpio, which this machine lacks: the export fails, it does not hang.
  await assert.rejects(opened.chip.exportOutput(17, { activeLow: false, initial: 0 }), /ENOENT|EACCES|EINVAL/);
  await opened.chip.close();
});
