/**
 * BCM numbers to the kernel's sysfs GPIO numbers. Raspberry Pi OS kernels from 6.6 on number
 * the lines of each chip from the chip's base (512 for the SoC's pins on many Pis; another base
 * on a Pi 5, whose header sits on the RP1 chip), so the number is read, never assumed: each
 * `gpiochip<N>` folder under the sysfs root has a `base`, an `ngpio` and a `label`, and the
 * header's chip is found by its label. The root is a parameter so a test can hand in a fake
 * tree, and the image's VM test a kernel GPIO simulator (whose chip has a label of its own).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChipDescription } from './chip.js';

export const DEFAULT_SYSFS_ROOT = '/sys/class/gpio';

/**
 * Labels of the chips that drive the 40-pin header's GPIO 0–27, most specific first: the Pi 5's
 * RP1 (its SoC's own `pinctrl-bcm2712` chips do not reach the header), the Pi 4's BCM2711, and
 * the BCM2835 pin controller of the Pi 1–3 and Zero.
 */
export const HEADER_CHIP_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2711', 'pinctrl-bcm2835'] as const;

/** BCM GPIOs on the 40-pin header. */
export const HEADER_PINS = 28;

export interface FoundChip extends ChipDescription {
  /** The chip's folder under the sysfs root. */
  path: string;
}

async function readChip(root: string, name: string): Promise<FoundChip | null> {
  const dir = path.join(root, name);
  try {
    const [base, ngpio, label] = await Promise.all(['base', 'ngpio', 'label'].map((file) => readFile(path.join(dir, file), 'utf8')));
    const numbers = [Number.parseInt(base, 10), Number.parseInt(ngpio, 10)];
    if (!numbers.every(Number.isInteger)) return null;
    return { label: label.trim(), base: numbers[0], ngpio: numbers[1], path: dir };
  } catch {
    return null; // a chip folder without its attributes is not one we can use
  }
}

/** Every chip under the sysfs root; an empty list when there is no such folder. */
export async function listChips(root: string): Promise<FoundChip[]> {
  let names: string[];
  try {
    names = (await readdir(root)).filter((name) => /^gpiochip\d+$/.test(name));
  } catch {
    return [];
  }
  const chips = await Promise.all(names.map((name) => readChip(root, name)));
  return chips.filter((chip): chip is FoundChip => chip !== null).sort((a, b) => a.base - b.base);
}

/**
 * The chip of the header: the one with `wantedLabel` when given, else the first of
 * HEADER_CHIP_LABELS present. Throws saying what was found when there is none.
 */
export async function findHeaderChip(root: string, wantedLabel = ''): Promise<FoundChip> {
  const chips = await listChips(root);
  if (chips.length === 0) throw new Error(`no GPIO chips under ${root} (no sysfs GPIO on this machine)`);
  const labels = wantedLabel === '' ? HEADER_CHIP_LABELS : [wantedLabel];
  for (const label of labels) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return chip;
  }
  const found = chips.map((c) => `${c.label} (base ${c.base})`).join(', ');
  throw new Error(`no GPIO chip labelled ${labels.join(' or ')} under ${root}; found ${found}`);
}

/** The sysfs number of a BCM line on `chip`; throws when the chip has no such line. */
export function kernelNumber(chip: ChipDescription, pin: number): number {
  if (!Number.isInteger(pin) || pin < 0 || pin >= chip.ngpio) throw new Error(`GPIO ${pin} is not a line of ${chip.label} (0–${chip.ngpio - 1})`);
  return chip.base + pin;
}
