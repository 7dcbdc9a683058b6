/**
 * The PrusaSlicer-compatible footer: print statistics, then the configuration between
 * `; prusaslicer_config = begin` and `= end`. Moonraker reads these lines from the last MiB of the
 * file (time, filament, layer count, temperatures, nozzle, filament type and names), and Prusa
 * firmware checks `; printer_model = ` against the printer. README.md lists the exact lines.
 */
import { SETTINGS, formatSetting, type PrintConfig, type SettingKey } from '../../profiles/schema.js';
import type { FilamentUsage } from '../api.js';
import { bedTemperatures } from './bed-temperature.js';
import { formatDuration } from './duration.js';

export interface PrintStatistics {
  filament: FilamentUsage;
  layers: number;
  estimatedTimeS: number;
  firstLayerTimeS?: number;
  totalToolchanges: number;
}

/** Preset names, as PrusaSlicer's `*_settings_id` keys (Moonraker shows the filament one). */
export interface SettingsIds {
  print?: string;
  printer?: string;
  filament?: string[];
}

function amounts(values: readonly number[]): string {
  return values.map((v) => v.toFixed(2)).join(', ');
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function statisticsBlock(stats: PrintStatistics): string {
  const lines = [
    `; filament used [mm] = ${amounts(stats.filament.mm)}`,
    `; filament used [cm3] = ${amounts(stats.filament.cm3)}`,
    `; filament used [g] = ${amounts(stats.filament.g)}`,
    `; filament cost = ${amounts(stats.filament.cost)}`,
    `; total filament used [g] = ${sum(stats.filament.g).toFixed(2)}`,
    `; total filament cost = ${sum(stats.filament.cost).toFixed(2)}`,
    `; total toolchanges = ${stats.totalToolchanges}`,
    `; total layers count = ${stats.layers}`,
    `; estimated printing time (normal mode) = ${formatDuration(stats.estimatedTimeS)}`,
  ];
  if (stats.firstLayerTimeS !== undefined) {
    lines.push(`; estimated first layer printing time (normal mode) = ${formatDuration(stats.firstLayerTimeS)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** PrusaSlicer names of our settings that G-code consumers look for in the config block. */
function prusaNamedKeys(config: PrintConfig, ids: SettingsIds): Array<[string, string]> {
  const temps = bedTemperatures(config);
  const list = (values: readonly number[]): string => values.join(',');
  const filamentIds = ids.filament ?? config.filament_type.map(() => '');
  return [
    ['first_layer_height', String(config.initial_layer_print_height)],
    ['first_layer_temperature', list(config.nozzle_temperature_initial_layer)],
    ['temperature', list(config.nozzle_temperature)],
    ['first_layer_bed_temperature', list(temps.firstLayer)],
    ['bed_temperature', list(temps.bed)],
    ['chamber_temperature', list(config.chamber_temperatures)],
    ['filament_settings_id', filamentIds.map((id) => `"${id.replace(/"/g, '\\"')}"`).join(';')],
    ['print_settings_id', ids.print ?? ''],
    ['printer_settings_id', ids.printer ?? ''],
  ];
}

/** `; key = value` for every setting (formatSetting) plus the PrusaSlicer-named keys, sorted. */
export function configLines(config: PrintConfig, ids: SettingsIds = {}): string[] {
  const entries = new Map<string, string>();
  for (const key of Object.keys(SETTINGS) as SettingKey[]) entries.set(key, formatSetting(key, config[key]));
  for (const [key, value] of prusaNamedKeys(config, ids)) if (!entries.has(key)) entries.set(key, value);
  return [...entries.keys()].sort().map((key) => `; ${key} = ${entries.get(key)}`);
}

export function prusaConfigBlock(config: PrintConfig, ids: SettingsIds = {}): string {
  return `${['; prusaslicer_config = begin', ...configLines(config, ids), '; prusaslicer_config = end'].join('\n')}\n`;
}

/** The whole footer, placed after the end G-code. */
export function prusaFooter(config: PrintConfig, stats: PrintStatistics, ids: SettingsIds = {}): string {
  return `${statisticsBlock(stats)}\n${prusaConfigBlock(config, ids)}`;
}
