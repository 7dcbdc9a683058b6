/**
 * A retraction test: two or more round towers on a thin base, far enough apart that the nozzle
 * retracts on every travel between them, in bands of equal height marked by a V-groove. Each band
 * prints with its own retraction length (or speed): the band with the least stringing between
 * the towers gives the value to use. The result's notes give each band's value and height, and
 * `height_changes` that a slice request applies as it goes (the slicer's `height_changes`).
 */
import type { HeightChange } from '../../../slicer/index.js';
import { disposing, type Manifold, solidMesh } from '../geometry/manifold.js';
import { roundedRectangle } from '../geometry/shapes.js';
import { type Generator, integerParam, numberParam } from './generator.js';

interface RetractionTestParams {
  towers: number;
  tower_diameter: number;
  tower_distance: number;
  bands: number;
  band_height: number;
  vary: 'length' | 'speed';
  start_length: number;
  length_step: number;
  start_speed: number;
  speed_step: number;
}

const BASE_THICKNESS = 1;
const BASE_MARGIN = 4;
const SEGMENTS = 64;
/** The V-groove between bands: this deep, twice as high (its flanks at 45°, printable). */
const GROOVE_DEPTH = 0.5;
const MAX_LENGTH = 15;
const MAX_SPEED = 200;

export interface RetractionBand {
  from_z_mm: number;
  retraction_length_mm?: number;
  retraction_speed_mm_s?: number;
}

/** Each band's start height and value, rounded to what G-code carries (0.01 mm, 0.1 mm/s). */
export function retractionBands(p: RetractionTestParams): RetractionBand[] {
  return Array.from({ length: p.bands }, (_, i) => {
    const from_z_mm = BASE_THICKNESS + i * p.band_height;
    return p.vary === 'length'
      ? { from_z_mm, retraction_length_mm: Math.round((p.start_length + i * p.length_step) * 100) / 100 }
      : { from_z_mm, retraction_speed_mm_s: Math.round((p.start_speed + i * p.speed_step) * 10) / 10 };
  });
}

export function retractionChanges(bands: readonly RetractionBand[]): HeightChange[] {
  return bands.map((band) =>
    band.retraction_length_mm === undefined
      ? { z_from: band.from_z_mm, setting: 'retraction_speed', value: band.retraction_speed_mm_s ?? 0 }
      : { z_from: band.from_z_mm, setting: 'retraction_length', value: band.retraction_length_mm },
  );
}

export const retractionTestGenerator: Generator = {
  id: 'retraction-test',
  title: 'Retraction test',
  description:
    'Round towers on a base, in bands that each print with another retraction length (or speed); ' +
    'the bands’ values and heights are in the result, ready for the slicer.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      towers: integerParam('Number of towers in a row.', 2, 4, 2),
      tower_diameter: numberParam('Diameter of each tower (mm).', 4, 20, 8),
      tower_distance: numberParam('Distance between neighbouring towers, centre to centre (mm).', 15, 100, 40),
      bands: integerParam('Number of bands, one value each.', 2, 12, 6),
      band_height: numberParam('Height of each band (mm).', 3, 20, 5),
      vary: { type: 'string', enum: ['length', 'speed'], description: 'What changes from band to band.', default: 'length' },
      start_length: numberParam('Retraction length of the bottom band (mm), when the length varies.', 0, 10, 0.4),
      length_step: numberParam('Change of the retraction length from one band to the next (mm).', 0.05, 3, 0.4),
      start_speed: numberParam('Retraction speed of the bottom band (mm/s), when the speed varies.', 5, 150, 20),
      speed_step: numberParam('Change of the retraction speed from one band to the next (mm/s).', 1, 50, 10),
    },
  },
  check(params) {
    const p = params as unknown as RetractionTestParams;
    if (p.tower_distance < p.tower_diameter + 10) return 'the towers must stand at least 10 mm apart, so the nozzle retracts between them';
    const last = retractionBands(p)[p.bands - 1];
    if ((last.retraction_length_mm ?? 0) > MAX_LENGTH) return `the top band would retract ${last.retraction_length_mm} mm; at most ${MAX_LENGTH}`;
    if ((last.retraction_speed_mm_s ?? 0) > MAX_SPEED)
      return `the top band would retract at ${last.retraction_speed_mm_s} mm/s; at most ${MAX_SPEED}`;
    return null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as RetractionTestParams;
    const { Manifold } = kernel;
    const bands = retractionBands(p);
    const r = p.tower_diameter / 2;
    const height = p.bands * p.band_height;
    return disposing((keep) => {
      const row = (p.towers - 1) * p.tower_distance;
      const base = keep(roundedRectangle(kernel, row + p.tower_diameter + 2 * BASE_MARGIN, p.tower_diameter + 2 * BASE_MARGIN, BASE_MARGIN));
      // One groove cutter: a ring around the tower minus a double cone that narrows by GROOVE_DEPTH.
      const vee = keep(
        Manifold.union([
          keep(Manifold.cylinder(GROOVE_DEPTH, r + 0.01, r - GROOVE_DEPTH, SEGMENTS)),
          keep(keep(Manifold.cylinder(GROOVE_DEPTH, r - GROOVE_DEPTH, r + 0.01, SEGMENTS)).translate([0, 0, GROOVE_DEPTH])),
        ]),
      );
      const groove = keep(keep(Manifold.cylinder(2 * GROOVE_DEPTH, r + 1, r + 1, SEGMENTS)).subtract(vee));
      let tower = keep(keep(Manifold.cylinder(height, r, r, SEGMENTS)).translate([0, 0, BASE_THICKNESS]));
      for (const band of bands.slice(1)) tower = keep(tower.subtract(keep(groove.translate([0, 0, band.from_z_mm - GROOVE_DEPTH]))));
      progress(0.5);
      const parts: Manifold[] = [keep(base.extrude(BASE_THICKNESS))];
      for (let i = 0; i < p.towers; i++) parts.push(keep(tower.translate([-row / 2 + i * p.tower_distance, 0, 0])));
      const solid = keep(Manifold.union(parts));
      return { mesh: solidMesh(solid), notes: { retraction_bands: bands, height_changes: retractionChanges(bands) } };
    });
  },
};
