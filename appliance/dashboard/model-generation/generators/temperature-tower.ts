/**
 * A temperature tower: one block per temperature, from the start temperature at the bottom to the
 * end temperature at the top, each block two legs joined by a bridge, with its temperature
 * engraved on the front. The heights where each temperature starts are in the job's notes, as
 * `height_changes` a slice request applies (the slicer's `height_changes`).
 */
import type { HeightChange } from '../../../slicer/index.js';
import { textContours } from '../geometry/font.js';
import { disposing, type Manifold, solidMesh } from '../geometry/manifold.js';
import { type Generator, integerParam, numberParam } from './generator.js';

interface TowerParams {
  start_temperature: number;
  end_temperature: number;
  step: number;
  block_height: number;
}

const BASE = { width: 55, depth: 16, thickness: 1 };
/** Left leg (carries the label), bridge span, right leg, and the block's depth (mm). */
const LEFT_LEG = 17;
const SPAN = 15;
const RIGHT_LEG = 13;
const BLOCK_DEPTH = 10;
const BRIDGE = 2;
const LABEL_HEIGHT = 4;
const ENGRAVE_DEPTH = 0.6;
const MAX_BLOCKS = 16;

export function towerTemperatures(p: TowerParams): number[] {
  const direction = p.end_temperature >= p.start_temperature ? 1 : -1;
  const count = Math.floor(Math.abs(p.end_temperature - p.start_temperature) / p.step) + 1;
  return Array.from({ length: count }, (_, i) => p.start_temperature + direction * i * p.step);
}

export const temperatureTowerGenerator: Generator = {
  id: 'temperature-tower',
  title: 'Temperature tower',
  description: 'A calibration tower: one bridged block per temperature step, labelled, with the height where each temperature starts.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      start_temperature: integerParam('Nozzle temperature of the bottom block (°C).', 150, 350, 220),
      end_temperature: integerParam('Nozzle temperature of the top block (°C).', 150, 350, 190),
      step: integerParam('Change from one block to the next (°C).', 1, 50, 5),
      block_height: numberParam('Height of each block (mm).', 7, 30, 10),
    },
  },
  check(params) {
    const count = towerTemperatures(params as unknown as TowerParams).length;
    return count > MAX_BLOCKS ? `${count} blocks; at most ${MAX_BLOCKS} (use a larger step)` : null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as TowerParams;
    const { Manifold, CrossSection } = kernel;
    const temperatures = towerTemperatures(p);
    const width = LEFT_LEG + SPAN + RIGHT_LEG;
    return disposing((keep) => {
      const parts: Manifold[] = [
        keep(
          Manifold.cube([BASE.width, BASE.depth, BASE.thickness], false).translate([-(BASE.width - width) / 2, -(BASE.depth - BLOCK_DEPTH) / 2, 0]),
        ),
      ];
      temperatures.forEach((temperature, i) => {
        const bottom = BASE.thickness + i * p.block_height;
        const block = keep(keep(Manifold.cube([width, BLOCK_DEPTH, p.block_height])).translate([0, 0, bottom]));
        const tunnel = keep(keep(Manifold.cube([SPAN, BLOCK_DEPTH + 2, p.block_height - BRIDGE])).translate([LEFT_LEG, -1, bottom]));
        const label = keep(new CrossSection(textContours(String(temperature), LABEL_HEIGHT), 'NonZero'));
        const labelBox = label.bounds();
        const engraving = keep(
          keep(keep(label.extrude(ENGRAVE_DEPTH + 1)).rotate([90, 0, 0])).translate([
            (LEFT_LEG - (labelBox.max[0] - labelBox.min[0])) / 2 - labelBox.min[0],
            ENGRAVE_DEPTH,
            bottom + (p.block_height - BRIDGE - LABEL_HEIGHT) / 2,
          ]),
        );
        parts.push(keep(keep(block.subtract(tunnel)).subtract(engraving)));
        progress((0.8 * (i + 1)) / temperatures.length);
      });
      const tower = keep(Manifold.union(parts));
      const notes = {
        temperature_changes: temperatures.map((temperature, i) => ({ from_z_mm: BASE.thickness + i * p.block_height, temperature_c: temperature })),
        height_changes: temperatures.map(
          (temperature, i): HeightChange => ({ z_from: BASE.thickness + i * p.block_height, setting: 'nozzle_temperature', value: temperature }),
        ),
      };
      return { mesh: solidMesh(tower), notes };
    });
  },
};
