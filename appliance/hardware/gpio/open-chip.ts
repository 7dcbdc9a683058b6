/**
 * The chip a `type` names: `onoff` (sysfs GPIO, the box) or `simulated` (in memory). A box
 * without GPIO gets no chip and the reason, never an exception: everything else runs on.
 */
import type { GpioChip } from './chip.js';
import { OnoffChip } from './onoff-chip.js';
import { SimulatedChip } from './simulated-chip.js';

export const CHIP_TYPES = ['onoff', 'simulated'] as const;
export type ChipType = (typeof CHIP_TYPES)[number];

export interface ChipChoice {
  type: ChipType;
  sysfsRoot: string;
  chipLabel: string;
}

export type OpenedChip = { chip: GpioChip; problem: null } | { chip: null; problem: string };

export async function openChip(choice: ChipChoice): Promise<OpenedChip> {
  if (choice.type === 'simulated') return { chip: new SimulatedChip(), problem: null };
  try {
    return { chip: await OnoffChip.open(choice), problem: null };
  } catch (err) {
    return { chip: null, problem: err instanceof Error ? err.message : String(err) };
  }
}
