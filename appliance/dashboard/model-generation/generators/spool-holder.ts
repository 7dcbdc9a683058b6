/**
 * A spool holder as print farms mount them on a wall or a shelf: a square base plate with a
 * countersunk screw hole in each corner and a hollow spindle rising from it, sized to the spool's
 * bore with some play (52–55 mm for Bambu and most 1 kg spools, 73 mm and more for some), as long
 * as the spool is wide, with an optional lip at its end so the spool cannot walk off. The base
 * lies on the bed and the spindle stands up from it; the lip flares out at 45° and the holes
 * widen upwards, so it prints in one part without supports.
 */
import { screwHoleCutter } from '../geometry/holes.js';
import { disposing, type Manifold, solidMesh } from '../geometry/manifold.js';
import { roundedRectangle } from '../geometry/shapes.js';
import { type Generator, numberParam } from './generator.js';

interface SpoolHolderParams {
  bore_diameter: number;
  clearance: number;
  length: number;
  spindle_wall: number;
  lip: number;
  base_size: number;
  base_thickness: number;
  screw_diameter: number;
  screw_head_diameter: number;
}

const SEGMENTS = 128;
/** Height of the lip's rim above its 45° flare (mm). */
const LIP_RIM = 2;
/** Material from a screw head to the plate's edge (mm). */
const EDGE_MARGIN = 2;

export interface SpoolHolderLayout {
  spindleDiameter: number;
  /** Radius of the lip's rim, or of the spindle when there is no lip. */
  outerRadius: number;
  /** Distance of each screw centre from the plate's centre, along x and along y. */
  screwOffset: number;
  height: number;
}

export function spoolHolderLayout(p: SpoolHolderParams): SpoolHolderLayout {
  const spindleDiameter = p.bore_diameter - p.clearance;
  return {
    spindleDiameter,
    outerRadius: spindleDiameter / 2 + p.lip,
    screwOffset: p.base_size / 2 - EDGE_MARGIN - p.screw_head_diameter / 2,
    height: p.base_thickness + p.length + (p.lip > 0 ? p.lip + LIP_RIM : 0),
  };
}

export const spoolHolderGenerator: Generator = {
  id: 'spool-holder',
  title: 'Spool holder',
  description:
    'A hollow spindle for a spool’s bore on a square base with four countersunk screw holes, with an optional lip at its end. ' +
    'Printed standing on its base, without supports.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      bore_diameter: numberParam('Diameter of the spool’s bore (mm): 52–55 for most 1 kg spools, 73 or more for some.', 20, 110, 55),
      clearance: numberParam('How much narrower the spindle is than the bore (mm), so the spool turns freely.', 0.5, 10, 2),
      length: numberParam('Length of the spindle for the spool: its width plus some play (mm).', 20, 150, 72),
      spindle_wall: numberParam('Wall thickness of the hollow spindle (mm).', 2, 10, 3),
      lip: numberParam('How far the lip at the spindle’s end stands out (mm); 0 for none.', 0, 15, 3),
      base_size: numberParam('Side of the square base plate (mm).', 40, 200, 90),
      base_thickness: numberParam('Thickness of the base plate (mm).', 3, 15, 5),
      screw_diameter: numberParam('Shank diameter of the screws (mm).', 2, 6, 4),
      screw_head_diameter: numberParam('Head diameter of the countersunk screws (mm).', 4, 12, 8),
    },
  },
  check(params) {
    const p = params as unknown as SpoolHolderParams;
    const layout = spoolHolderLayout(p);
    if (layout.spindleDiameter < 2 * p.spindle_wall + 4) return 'the bore less the clearance leaves no room for a hollow spindle';
    if (p.screw_head_diameter <= p.screw_diameter) return 'the screw head must be wider than its shank';
    if ((p.screw_head_diameter - p.screw_diameter) / 2 > p.base_thickness - 1) {
      return 'the countersink must leave 1 mm of plate: a thicker base or a smaller head';
    }
    // A screwdriver comes straight down at each hole: the head must clear the lip (or the spindle).
    const reach = Math.SQRT2 * layout.screwOffset - p.screw_head_diameter / 2;
    if (reach < layout.outerRadius + 1) {
      const needed = 2 * ((layout.outerRadius + 1 + p.screw_head_diameter / 2) / Math.SQRT2 + EDGE_MARGIN + p.screw_head_diameter / 2);
      return `the base is too small for screw holes outside the spindle and its lip: at least ${Math.ceil(needed)} mm`;
    }
    return null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as SpoolHolderParams;
    const { CrossSection, Manifold } = kernel;
    const layout = spoolHolderLayout(p);
    const r = layout.spindleDiameter / 2;
    const top = p.base_thickness + p.length;
    return disposing((keep) => {
      const circle = (radius: number) => keep(CrossSection.circle(radius, SEGMENTS));
      const parts: Manifold[] = [
        keep(keep(roundedRectangle(kernel, p.base_size, p.base_size, 6)).extrude(p.base_thickness)),
        keep(keep(circle(r).extrude(p.length + 0.01)).translate([0, 0, p.base_thickness - 0.01])),
      ];
      if (p.lip > 0) {
        const ratio = (r + p.lip) / r;
        parts.push(keep(keep(circle(r).extrude(p.lip, 0, 0, [ratio, ratio])).translate([0, 0, top])));
        parts.push(keep(keep(circle(r + p.lip).extrude(LIP_RIM)).translate([0, 0, top + p.lip])));
      }
      let holder = keep(Manifold.union(parts));
      progress(0.4);
      // Hollow from 1 mm above the plate to the open top, to save filament and time.
      const hollow = keep(circle(r - p.spindle_wall).extrude(layout.height - p.base_thickness));
      holder = keep(holder.subtract(keep(hollow.translate([0, 0, p.base_thickness + 1]))));
      const cutter = screwHoleCutter(
        kernel,
        { shank: p.screw_diameter, head: p.screw_head_diameter, depth: p.base_thickness, teardrop: false },
        keep,
      );
      for (const [sx, sy] of [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
      ]) {
        holder = keep(holder.subtract(keep(cutter.translate([sx * layout.screwOffset, sy * layout.screwOffset, 0]))));
      }
      return {
        mesh: solidMesh(holder),
        notes: { spindle_diameter_mm: layout.spindleDiameter, usable_length_mm: p.length },
      };
    });
  },
};
