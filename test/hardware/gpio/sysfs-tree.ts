/**
 * A fake `/sys/class/gpio` in a temp folder: `gpiochip<base>` folders with `base`, `ngpio` and
 * `label`, as the kernels of the Raspberry Pi models lay them out.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FakeChip {
  base: number;
  ngpio: number;
  label: string;
}

/** Pi 4 on a 6.6 kernel: the SoC's pins from 512, the firmware's expander after them. */
export const PI4_KERNEL_6_6: FakeChip[] = [
  { base: 512, ngpio: 58, label: 'pinctrl-bcm2711' },
  { base: 570, ngpio: 8, label: 'raspberrypi-exp-gpio' },
];

/** Pi 5 on a 6.6 kernel: the BCM2712's own chips first; the header is on the RP1 at 571. */
export const PI5_KERNEL_6_6: FakeChip[] = [
  { base: 512, ngpio: 32, label: 'pinctrl-bcm2712' },
  { base: 544, ngpio: 17, label: 'pinctrl-bcm2712' },
  { base: 561, ngpio: 10, label: 'raspberrypi-exp-gpio' },
  { base: 571, ngpio: 54, label: 'pinctrl-rp1' },
];

/** A Pi 3 on a kernel before 6.6: numbered from 0. */
export const PI3_OLD_KERNEL: FakeChip[] = [
  { base: 0, ngpio: 54, label: 'pinctrl-bcm2835' },
  { base: 504, ngpio: 8, label: 'raspberrypi-exp-gpio' },
];

export function fakeSysfs(chips: readonly FakeChip[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-sysfs-gpio-'));
  writeFileSync(path.join(root, 'export'), '');
  writeFileSync(path.join(root, 'unexport'), '');
  for (const chip of chips) {
    const dir = path.join(root, `gpiochip${chip.base}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'base'), `${chip.base}\n`);
    writeFileSync(path.join(dir, 'ngpio'), `${chip.ngpio}\n`);
    writeFileSync(path.join(dir, 'label'), `${chip.label}\n`);
  }
  return root;
}
