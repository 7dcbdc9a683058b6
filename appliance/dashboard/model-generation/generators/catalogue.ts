/** The generators the box offers, in the order GET /api/ai-model/generators lists them. */
import { boxGenerator } from './box.js';
import { cableClipGenerator } from './cable-clip.js';
import { gearGenerator } from './gear.js';
import type { Generator } from './generator.js';
import { imageGenerator } from './image.js';
import { sketchGenerator } from './sketch.js';
import { hookGenerator } from './hook.js';
import { retractionTestGenerator } from './retraction-test.js';
import { spoolHolderGenerator } from './spool-holder.js';
import { temperatureTowerGenerator } from './temperature-tower.js';
import { textGenerator } from './text.js';

export const GENERATORS: readonly Generator[] = [
  textGenerator,
  boxGenerator,
  gearGenerator,
  temperatureTowerGenerator,
  imageGenerator,
  sketchGenerator,
  cableClipGenerator,
  hookGenerator,
  spoolHolderGenerator,
  retractionTestGenerator,
];

export function generatorById(id: string): Generator | undefined {
  return GENERATORS.find((g) => g.id === id);
}
