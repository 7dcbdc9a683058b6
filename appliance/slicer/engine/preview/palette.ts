/**
 * Feature colours of the toolpath preview, close to PrusaSlicer's G-code preview so users read
 * them without a legend: orange outer walls, yellow inner walls, dark red sparse infill, purple
 * solid infill, red top surfaces, blue bridges, green support, teal skirt and brim.
 */
import type { ExtrusionRole } from '../toolpath/types.js';

export type Rgb = readonly [number, number, number];

export const ROLE_COLORS: Readonly<Record<ExtrusionRole, Rgb>> = {
  'outer-wall': [255, 125, 56],
  'inner-wall': [255, 230, 77],
  'overhang-wall': [0, 0, 255],
  'thin-wall': [255, 176, 0],
  'gap-fill': [255, 255, 255],
  'sparse-infill': [176, 48, 41],
  'solid-infill': [150, 84, 204],
  'top-surface': [240, 64, 64],
  'bottom-surface': [110, 100, 220],
  bridge: [77, 128, 186],
  skirt: [0, 135, 110],
  brim: [0, 135, 110],
  support: [0, 255, 0],
  'support-interface': [0, 128, 0],
};
