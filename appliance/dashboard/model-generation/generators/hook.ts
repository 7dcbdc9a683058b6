/**
 * A J-shaped wall hook: a back plate against the wall with countersunk screw holes above the
 * hook, an arm out from its foot and a lip rising at the arm's end. The J profile lies on the bed
 * and the hook stands to its width, so it prints without supports and its layers run along the
 * J, the way the load bends it. The holes, horizontal in print, are teardrops; inner corners are
 * filleted and outer ones rounded.
 */
import { screwHoleCutter } from '../geometry/holes.js';
import { disposing, solidMesh } from '../geometry/manifold.js';
import { type Generator, integerParam, numberParam } from './generator.js';

interface HookParams {
  width: number;
  thickness: number;
  plate_height: number;
  arm_length: number;
  hook_depth: number;
  screw_count: number;
  screw_diameter: number;
  screw_head_diameter: number;
}

/** Room between a screw head and the lip below it, and to the plate's top (mm). */
const HEAD_CLEARANCE = 2;

/** Where screw centres may go on the back plate: above the lip with room for a screwdriver, below the top. */
function screwRange(p: HookParams): { lowest: number; highest: number } {
  return {
    lowest: p.thickness + p.hook_depth + p.screw_head_diameter / 2 + HEAD_CLEARANCE,
    highest: p.plate_height - p.screw_head_diameter / 2 - HEAD_CLEARANCE,
  };
}

/** Heights of the screw holes' centres, bottom up, spread over their range. */
export function hookScrewHeights(p: HookParams): number[] {
  const { lowest, highest } = screwRange(p);
  if (p.screw_count === 1) return [(lowest + highest) / 2];
  return Array.from({ length: p.screw_count }, (_, i) => lowest + ((highest - lowest) * i) / (p.screw_count - 1));
}

export const hookGenerator: Generator = {
  id: 'hook',
  title: 'Wall hook',
  description:
    'A J-shaped wall hook: a back plate with countersunk screw holes above the hook, an arm and a rising lip. ' +
    'Printed on its side, without supports.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      width: numberParam('Width of the hook (mm).', 8, 80, 20),
      thickness: numberParam('Thickness of the plate, arm and lip (mm).', 3, 12, 5),
      plate_height: numberParam('Height of the back plate (mm).', 20, 200, 60),
      arm_length: numberParam('Inside reach of the arm, from the plate to the lip (mm).', 5, 150, 25),
      hook_depth: numberParam('Height of the lip above the arm (mm).', 3, 100, 12),
      screw_count: integerParam('Number of screw holes, one above the other.', 1, 3, 2),
      screw_diameter: numberParam('Shank diameter of the screws (mm).', 2, 6, 4),
      screw_head_diameter: numberParam('Head diameter of the countersunk screws (mm).', 4, 12, 8),
    },
  },
  check(params) {
    const p = params as unknown as HookParams;
    if (p.screw_head_diameter <= p.screw_diameter) return 'the screw head must be wider than its shank';
    if ((p.screw_head_diameter - p.screw_diameter) / 2 > p.thickness - 1) {
      return 'the countersink must leave 1 mm of plate: a thicker plate or a smaller head';
    }
    if (p.screw_head_diameter + 2 > p.width) return `the hook must be at least 2 mm wider than the screw heads (${p.screw_head_diameter + 2} mm)`;
    const { lowest, highest } = screwRange(p);
    const spread = (p.screw_count - 1) * (p.screw_head_diameter + 1);
    if (highest - lowest < spread) {
      const needed = lowest + spread + p.screw_head_diameter / 2 + HEAD_CLEARANCE;
      return `the back plate must rise above the lip far enough for the screws: at least ${needed.toFixed(1)} mm`;
    }
    return null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as HookParams;
    const { CrossSection } = kernel;
    const t = p.thickness;
    const reach = t + p.arm_length + t;
    return disposing((keep) => {
      const rectangle = (x: number, y: number, w: number, h: number) => keep(keep(CrossSection.square([w, h])).translate([x, y]));
      // x: out from the wall; y: up the wall.
      const j = keep(
        CrossSection.union([rectangle(0, 0, t, p.plate_height), rectangle(0, 0, reach, t), rectangle(reach - t, 0, t, t + p.hook_depth)]),
      );
      // Closing fillets the inner corners; opening then rounds the outer ones (strips stay t wide).
      const fillet = Math.min(t / 2, p.arm_length / 4);
      const round = 0.4 * t;
      const filleted = keep(keep(j.offset(fillet, 'Round')).offset(-fillet, 'Round'));
      const profile = keep(keep(filleted.offset(-round, 'Round')).offset(round, 'Round'));
      progress(0.4);
      let hook = keep(profile.extrude(p.width));
      // Each hole along x through the plate, the head at the front face (x = t), the teardrop up in print (+z).
      const cutter = screwHoleCutter(kernel, { shank: p.screw_diameter, head: p.screw_head_diameter, depth: t, teardrop: true }, keep);
      const turned = keep(keep(cutter.rotate([0, 0, 90])).rotate([0, 90, 0]));
      for (const y of hookScrewHeights(p)) hook = keep(hook.subtract(keep(turned.translate([0, y, p.width / 2]))));
      return {
        mesh: solidMesh(hook),
        notes: { print_orientation: 'as laid out: the J profile on the bed', screw_heights_mm: hookScrewHeights(p) },
      };
    });
  },
};
