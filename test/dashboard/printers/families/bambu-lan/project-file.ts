/**
 * `.gcode.3mf` projects for the driver tests, shaped like BambuStudio's: the plate's G-code plus
 * `Metadata/slice_info.config` naming the filaments the plate uses (what the driver maps to trays).
 */
import { strToU8, zipSync } from 'fflate';
import { bambuGcode } from '../../../../fixtures/virtual-bambu.js';

export interface SlicedFilament {
  id: number;
  type: string;
  /** `#RRGGBB`. */
  color: string;
}

export function sliceInfo(filaments: readonly SlicedFilament[], plate = 1): string {
  const lines = filaments.map(
    (f) => `    <filament id="${f.id}" tray_info_idx="GFA00" type="${f.type}" color="${f.color}" used_m="1.20" used_g="3.60" />`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<config>',
    '  <header>',
    '    <header_item key="X-BBL-Client-Type" value="slicer"/>',
    '  </header>',
    '  <plate>',
    `    <metadata key="index" value="${plate}"/>`,
    '    <metadata key="prediction" value="240"/>',
    ...lines,
    '  </plate>',
    '</config>',
    '',
  ].join('\n');
}

/** A project whose plate 1 prints `layers` layers in `minutes`, switching to filament 2 halfway. */
export function project(filaments: readonly SlicedFilament[], layers = 4, minutes = 4): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><Types/>'),
    'Metadata/plate_1.gcode': strToU8(bambuGcode(layers, minutes)),
    'Metadata/slice_info.config': strToU8(sliceInfo(filaments)),
    'Metadata/project_settings.config': strToU8(
      JSON.stringify({ filament_type: filaments.map((f) => f.type), filament_colour: filaments.map((f) => f.color) }),
    ),
  });
}

/** Black PLA and red PETG: trays 1 and 2 of the simulator's default AMS. */
export const TWO_FILAMENTS: readonly SlicedFilament[] = [
  { id: 1, type: 'PLA', color: '#101010' },
  { id: 2, type: 'PETG', color: '#F02020' },
];
