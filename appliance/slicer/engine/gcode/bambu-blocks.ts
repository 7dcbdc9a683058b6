/**
 * The comment blocks Bambu Studio and OrcaSlicer put in G-code for Bambu printers:
 * `; HEADER_BLOCK_START` ... `_END` at the very top (time, layers, filament totals, max Z) and
 * `; CONFIG_BLOCK_START` ... `_END` with the flattened configuration. The printer's screen and the
 * slicers that reopen a `.gcode.3mf` read them; the print itself starts from EXECUTABLE_BLOCK.
 */
import { SETTINGS, formatSetting, type PrintConfig, type SettingKey } from '../../profiles/schema.js';
import type { FilamentUsage } from '../api.js';
import { formatDuration } from './duration.js';
import { generatedByLine } from './identity.js';

export interface BambuHeaderInput {
  version: string;
  date: Date;
  config: PrintConfig;
  /** Time printing the model. */
  printTimeS: number;
  /** Everything, including the start sequence (homing, levelling, purge); defaults to printTimeS. */
  totalTimeS?: number;
  layers: number;
  filament: FilamentUsage;
  /** Top of the highest layer, mm. */
  maxZ: number;
  /** The objects' ids (`identify_id`) when objects are labelled: the printer's skip list. */
  labelIds?: readonly number[];
}

function total(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * `model printing time` is the model's alone, `total estimated time` adds the preparation before it
 * (homing, levelling, purging), as Bambu Studio writes them. The `model label id` list, in
 * ascending order, is what the bits of each `M624` mask refer to.
 * Bambu Studio labels the volume "[cm^3]" but writes mm³; we write true cm³, which is what the
 * label says and what OrcaSlicer writes.
 */
export function bambuHeaderBlock(input: BambuHeaderInput): string {
  const { config, filament } = input;
  return [
    '; HEADER_BLOCK_START',
    generatedByLine(input.version, input.date),
    `; model printing time: ${formatDuration(input.printTimeS)}; total estimated time: ${formatDuration(input.totalTimeS ?? input.printTimeS)}`,
    `; total layer number: ${input.layers}`,
    `; total filament length [mm] : ${total(filament.mm).toFixed(2)}`,
    `; total filament volume [cm^3] : ${total(filament.cm3).toFixed(2)}`,
    `; total filament weight [g] : ${total(filament.g).toFixed(2)}`,
    ...(input.labelIds && input.labelIds.length > 0 ? [`; model label id: ${[...input.labelIds].sort((a, b) => a - b).join(',')}`] : []),
    `; filament_density: ${config.filament_density.join(',')}`,
    `; filament_diameter: ${config.filament_diameter.join(',')}`,
    `; max_z_height: ${input.maxZ.toFixed(2)}`,
    '; HEADER_BLOCK_END',
    '',
  ].join('\n');
}

export function bambuConfigBlock(config: PrintConfig): string {
  const keys = (Object.keys(SETTINGS) as SettingKey[]).sort();
  return ['; CONFIG_BLOCK_START', ...keys.map((key) => `; ${key} = ${formatSetting(key, config[key])}`), '; CONFIG_BLOCK_END', ''].join('\n');
}
