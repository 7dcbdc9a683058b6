/** The generators the box offers, in the order GET /api/ai-model/generators lists them. */
import { boxGenerator } from './box.js';
import { gearGenerator } from './gear.js';
import type { Generator } from './generator.js';
import { imageGenerator } from './image.js';
import { sketchGenerator } from './sketch.js';
import { temperatureTowerGenerator } from './temperature-tower.js';
import { textGenerator } from './text.js';

export const GENERATORS: readonly Generator[] = [
  textGenerator,
  boxGenerator,
  gearGenerator,
  temperatureTowerGenerator,
  imageGenerator,
  sketchGenerator,
];

export function generatorById(id: string): Generator | undefined {
  return GENERATORS.find((g) => g.id === id);
}
