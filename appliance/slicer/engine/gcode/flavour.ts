/**
 * What differs between the G-code dialects we write. Marlin 2 and Klipper files follow
 * PrusaSlicer's comment conventions (read by Moonraker, OctoPrint and G-code viewers); Bambu Lab
 * files follow Bambu Studio's (read by the printer and Bambu's tools).
 */
import type { PrintConfig } from '../../profiles/schema.js';
import type { ExtrusionRole } from '../toolpath/types.js';

export type FlavourName = PrintConfig['gcode_flavor'];

const PRUSA_TYPES: Record<ExtrusionRole, string> = {
  'outer-wall': 'External perimeter',
  'inner-wall': 'Perimeter',
  'overhang-wall': 'Overhang perimeter',
  'thin-wall': 'External perimeter',
  'gap-fill': 'Gap fill',
  'sparse-infill': 'Internal infill',
  'solid-infill': 'Solid infill',
  'top-surface': 'Top solid infill',
  'bottom-surface': 'Solid infill',
  bridge: 'Bridge infill',
  skirt: 'Skirt/Brim',
  brim: 'Skirt/Brim',
  support: 'Support material',
  'support-interface': 'Support material interface',
};

const BAMBU_FEATURES: Record<ExtrusionRole, string> = {
  'outer-wall': 'Outer wall',
  'inner-wall': 'Inner wall',
  'overhang-wall': 'Overhang wall',
  'thin-wall': 'Outer wall',
  'gap-fill': 'Gap infill',
  'sparse-infill': 'Sparse infill',
  'solid-infill': 'Internal solid infill',
  'top-surface': 'Top surface',
  'bottom-surface': 'Bottom surface',
  bridge: 'Bridge',
  skirt: 'Skirt',
  brim: 'Brim',
  support: 'Support',
  'support-interface': 'Support interface',
};

export interface Flavour {
  name: FlavourName;
  bambu: boolean;
  klipper: boolean;
  /** Machine limits (M201/M203/M204/M205) may be written; never for Klipper, whose config owns them. */
  mayEmitLimits: boolean;
  featureComment(role: ExtrusionRole): string;
  widthComment(width: number): string;
  layerChangeComments(z: number, height: number): string[];
  fan(speed255: number): string;
}

const num3 = (v: number) => String(Math.round(v * 1000) / 1000);

/** Distinct widths remembered before the memory of width comments starts again (a model has a few dozen to a few thousand). */
const WIDTH_COMMENTS_KEPT = 4096;

export function flavourOf(name: FlavourName): Flavour {
  const bambu = name === 'bambu';
  const klipper = name === 'klipper';
  // Two comments per extrusion: each made once rather than built anew for every extrusion.
  const features = new Map(
    (Object.keys(PRUSA_TYPES) as ExtrusionRole[]).map((role) => [role, bambu ? `; FEATURE: ${BAMBU_FEATURES[role]}` : `;TYPE:${PRUSA_TYPES[role]}`]),
  );
  const widths = new Map<number, string>();
  return {
    name,
    bambu,
    klipper,
    mayEmitLimits: !klipper,
    featureComment: (role) => features.get(role) as string,
    widthComment: (w) => {
      let comment = widths.get(w);
      if (comment === undefined) {
        if (widths.size >= WIDTH_COMMENTS_KEPT) widths.clear();
        comment = bambu ? `; LINE_WIDTH: ${num3(w)}` : `;WIDTH:${num3(w)}`;
        widths.set(w, comment);
      }
      return comment;
    },
    layerChangeComments: (z, h) =>
      bambu ? ['; CHANGE_LAYER', `; Z_HEIGHT: ${num3(z)}`, `; LAYER_HEIGHT: ${num3(h)}`] : [';LAYER_CHANGE', `;Z:${num3(z)}`, `;HEIGHT:${num3(h)}`],
    fan: (s) => {
      const v = Math.max(0, Math.min(255, Math.round(s)));
      if (bambu) return `M106 P1 S${v}`;
      return v === 0 ? 'M107' : `M106 S${v}`;
    },
  };
}
