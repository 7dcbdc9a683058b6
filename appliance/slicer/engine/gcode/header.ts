/**
 * Lines of a Marlin, Klipper or RepRapFirmware file's header after its thumbnails: the Cura-style
 * summary that several printer displays and OctoPrint plugins read, and Klipper's object
 * definitions (EXCLUDE_OBJECT_DEFINE), which let a failed part be skipped mid-print.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { convexHullXY } from '../mesh/footprint.js';
import type { PlacedModel } from '../mesh/types.js';
import type { LabelledObject } from './writer.js';

/** Cura-style summary lines that several printer displays and OctoPrint plugins read. */
export function headerSummary(
  c: PrintConfig,
  totalS: number,
  mm: number[],
  layers: number,
  b: [number, number, number, number, number, number],
): string {
  const metres = mm.reduce((a, v) => a + v, 0) / 1000;
  return [
    `;FLAVOR:${c.gcode_flavor === 'klipper' ? 'Klipper' : 'Marlin'}`,
    `;TIME:${Math.round(totalS)}`,
    `;Filament used: ${metres.toFixed(5)}m`,
    `;Layer height: ${c.layer_height}`,
    `;MINX:${b[0].toFixed(3)}`,
    `;MINY:${b[1].toFixed(3)}`,
    `;MINZ:${b[2].toFixed(3)}`,
    `;MAXX:${b[3].toFixed(3)}`,
    `;MAXY:${b[4].toFixed(3)}`,
    `;MAXZ:${b[5].toFixed(3)}`,
    `;LAYER_COUNT:${layers}`,
    '',
  ].join('\n');
}

export function excludeObjectDefinitions(placed: PlacedModel, objects: LabelledObject[]): string {
  const lines = placed.objects.map((o, k) => {
    const hull = convexHullXY(o.mesh);
    const pts: string[] = [];
    let cx = 0;
    let cy = 0;
    const n = hull.length >> 1;
    for (let p = 0; p < n; p++) {
      pts.push(`[${hull[p * 2].toFixed(3)},${hull[p * 2 + 1].toFixed(3)}]`);
      cx += hull[p * 2] / n;
      cy += hull[p * 2 + 1] / n;
    }
    return `EXCLUDE_OBJECT_DEFINE NAME=${objects[k].label} CENTER=${cx.toFixed(3)},${cy.toFixed(3)} POLYGON=[${pts.join(',')}]`;
  });
  return `${lines.join('\n')}\n`;
}
