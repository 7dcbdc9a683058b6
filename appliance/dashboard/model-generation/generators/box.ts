/**
 * A box with a lid, side by side on the plate: the box open at the top, and the lid upside down
 * (its top on the bed) with a lip that fits inside the box's walls with the given clearance.
 */
import { disposing, solidMesh } from '../geometry/manifold.js';
import { roundedRectangle } from '../geometry/shapes.js';
import { type Generator, numberParam } from './generator.js';

interface BoxParams {
  width: number;
  depth: number;
  height: number;
  wall: number;
  floor: number;
  corner_radius: number;
  lid_thickness: number;
  lip_height: number;
  clearance: number;
}

/** Space between the box and its lid on the plate (mm). */
const GAP = 10;

export const boxGenerator: Generator = {
  id: 'box',
  title: 'Box with lid',
  description: 'An open box and a lid whose lip slips inside its walls, printed side by side. Sizes are outside dimensions.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      width: numberParam('Outside width (mm).', 10, 300, 60),
      depth: numberParam('Outside depth (mm).', 10, 300, 40),
      height: numberParam('Outside height of the box without its lid (mm).', 5, 300, 30),
      wall: numberParam('Wall thickness (mm).', 0.8, 10, 2),
      floor: numberParam('Floor thickness (mm).', 0.6, 10, 2),
      corner_radius: numberParam('Outside corner radius (mm).', 0, 50, 3),
      lid_thickness: numberParam('Thickness of the lid plate (mm).', 0.6, 10, 2),
      lip_height: numberParam('How deep the lid lip reaches into the box (mm).', 1, 50, 5),
      clearance: numberParam('Gap between the lip and the box walls, per side (mm).', 0, 1, 0.2),
    },
  },
  check(params) {
    const p = params as unknown as BoxParams;
    if (p.floor >= p.height) return 'the floor must be thinner than the box is high';
    if (p.lip_height >= p.height - p.floor) return 'the lip must be shorter than the inside of the box is deep';
    const lipWall = Math.min(p.width, p.depth) / 2 - p.wall - p.clearance;
    return lipWall < 2 * p.wall ? 'the walls and clearance leave no room for the lid lip' : null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as BoxParams;
    return disposing((keep) => {
      const inner = Math.max(0, p.corner_radius - p.wall);
      const outline = keep(roundedRectangle(kernel, p.width, p.depth, p.corner_radius));
      const cavity = keep(roundedRectangle(kernel, p.width - 2 * p.wall, p.depth - 2 * p.wall, inner));
      const box = keep(keep(outline.extrude(p.height)).subtract(keep(keep(cavity.extrude(p.height)).translate([0, 0, p.floor]))));
      progress(0.4);
      const lipOuter = keep(roundedRectangle(kernel, p.width - 2 * (p.wall + p.clearance), p.depth - 2 * (p.wall + p.clearance), inner));
      const lipRing = keep(lipOuter.subtract(keep(lipOuter.offset(-p.wall, 'Round'))));
      const lid = keep(keep(outline.extrude(p.lid_thickness)).add(keep(keep(lipRing.extrude(p.lip_height)).translate([0, 0, p.lid_thickness]))));
      const both = keep(kernel.Manifold.union([keep(box.translate([-(p.width + GAP) / 2, 0, 0])), keep(lid.translate([(p.width + GAP) / 2, 0, 0]))]));
      return { mesh: solidMesh(both) };
    });
  },
};
