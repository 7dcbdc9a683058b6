/**
 * Bed temperatures per filament for the plate in use. OrcaSlicer keeps one pair of keys per plate
 * type (`hot_plate_temp`, `hot_plate_temp_initial_layer`, ...) and picks by `curr_bed_type`;
 * PrusaSlicer-style consumers (templates, footers) want plain `bed_temperature` values.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { PrintConfig } from '../../profiles/schema.js';

type PlateKey = 'cool_plate_temp' | 'eng_plate_temp' | 'hot_plate_temp' | 'textured_plate_temp';

const PLATE_KEYS: Readonly<Record<string, PlateKey>> = {
  'Cool Plate': 'cool_plate_temp',
  'Engineering Plate': 'eng_plate_temp',
  'High Temp Plate': 'hot_plate_temp',
  'Textured PEI Plate': 'textured_plate_temp',
};

/** Bambu's plate names in plate_N.json (`bed_type`). */
const BAMBU_BED_TYPES: Readonly<Record<PlateKey, string>> = {
  cool_plate_temp: 'cool_plate',
  eng_plate_temp: 'eng_plate',
  hot_plate_temp: 'hot_plate',
  textured_plate_temp: 'textured_plate',
};

export interface BedTemperatures {
  /** Per filament, for layers after the first. */
  bed: number[];
  /** Per filament, for the first layer. */
  firstLayer: number[];
}

function plateKey(config: PrintConfig): PlateKey {
  const key = PLATE_KEYS[config.curr_bed_type];
  if (!key) {
    throw new AppError(ErrorCode.invalidSetting, 400, `invalid value for setting "curr_bed_type": "${config.curr_bed_type}"`, {
      key: 'curr_bed_type',
    });
  }
  return key;
}

export function bedTemperatures(config: PrintConfig): BedTemperatures {
  const key = plateKey(config);
  return { bed: [...config[key]], firstLayer: [...config[`${key}_initial_layer`]] };
}

export function bambuBedType(config: PrintConfig): string {
  return BAMBU_BED_TYPES[plateKey(config)];
}
