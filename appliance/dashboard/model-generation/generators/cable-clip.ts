/**
 * A cable clip for one or more cables side by side: a ring per cable on a flat base, each ring
 * open at the top by a slot narrower than the cable, so the cable snaps in and stays. The base
 * carries a screw tab at each end, or is a wider pad for an adhesive strip. The profile lies on
 * the bed and the clip is printed standing up to its width: no overhangs, and the rings' layers
 * run around the cable, which makes the snap springy rather than brittle. Screw holes lie
 * horizontal in print and are teardrops.
 */
import { disposing, solidMesh } from '../geometry/manifold.js';
import { screwHoleCutter } from '../geometry/holes.js';
import { type Generator, integerParam, numberParam } from './generator.js';

interface CableClipParams {
  cable_diameter: number;
  cable_count: number;
  wall: number;
  width: number;
  snap_opening: number;
  mount: 'screw' | 'adhesive';
  screw_diameter: number;
}

const SEGMENTS = 96;
/** Material around a screw hole in the tab, each side (mm). */
const TAB_MARGIN = 2.5;
/** How far an adhesive pad reaches past the outer rings (mm). */
const PAD_OVERHANG = 4;

export interface CableClipLayout {
  /** x of each cable's centre; the base's top is at y = wall, each cable centre at wall + radius. */
  centres: number[];
  /** Length of the base along x (mm). */
  length: number;
  /** Length of each screw tab past the outer rings (0 for an adhesive pad). */
  tab: number;
}

export function cableClipLayout(p: CableClipParams): CableClipLayout {
  const pitch = p.cable_diameter + p.wall;
  const centres = Array.from({ length: p.cable_count }, (_, i) => (i - (p.cable_count - 1) / 2) * pitch);
  const rings = (p.cable_count - 1) * pitch + p.cable_diameter + 2 * p.wall;
  const tab = p.mount === 'screw' ? p.screw_diameter + 2 * TAB_MARGIN : PAD_OVERHANG;
  return { centres, length: rings + 2 * tab, tab };
}

export const cableClipGenerator: Generator = {
  id: 'cable-clip',
  title: 'Cable clip',
  description:
    'A snap-in clip for one or more cables side by side, with screw tabs or a flat pad for an adhesive strip. ' +
    'Printed standing on its profile, without supports.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      cable_diameter: numberParam('Diameter of each cable (mm).', 2, 30, 6),
      cable_count: integerParam('Number of cables side by side.', 1, 12, 1),
      wall: numberParam('Thickness of the rings and the base (mm).', 1.2, 6, 2.5),
      width: numberParam('Width of the clip along the cable (mm).', 4, 60, 10),
      snap_opening: numberParam('Width of the opening each cable snaps through, as a fraction of its diameter.', 0.5, 0.95, 0.8),
      mount: { type: 'string', enum: ['screw', 'adhesive'], description: 'A screw tab at each end, or a pad for adhesive.', default: 'screw' },
      screw_diameter: numberParam('Diameter of the screw holes in the tabs (mm).', 2, 6, 3.5),
    },
  },
  check(params) {
    const p = params as unknown as CableClipParams;
    if (p.mount === 'screw' && p.screw_diameter + 2 > p.width)
      return `the clip must be at least 2 mm wider than its screw holes (${p.screw_diameter + 2} mm)`;
    return cableClipLayout(p).length > 300 ? 'the clip would be longer than 300 mm (fewer or thinner cables)' : null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as CableClipParams;
    const { CrossSection } = kernel;
    const layout = cableClipLayout(p);
    const r = p.cable_diameter / 2;
    const centreY = p.wall + r;
    return disposing((keep) => {
      const base = keep(keep(CrossSection.square([layout.length, p.wall])).translate([-layout.length / 2, 0]));
      const rings = layout.centres.map((x) => keep(keep(CrossSection.circle(r + p.wall, SEGMENTS)).translate([x, centreY])));
      const cavities = layout.centres.flatMap((x) => {
        const opening = p.snap_opening * p.cable_diameter;
        return [
          keep(keep(CrossSection.circle(r, SEGMENTS)).translate([x, centreY])),
          keep(keep(CrossSection.square([opening, r + p.wall + 1])).translate([x - opening / 2, centreY])),
        ];
      });
      const sharp = keep(keep(CrossSection.union([base, ...rings])).subtract(keep(CrossSection.union(cavities))));
      // Rounded lip tips and filleted valleys: no thin wedges the nozzle cannot fill, and no notches to crack from.
      const round = p.wall / 4;
      const filleted = keep(keep(sharp.offset(round, 'Round')).offset(-round, 'Round'));
      const profile = keep(keep(filleted.offset(-round, 'Round')).offset(round, 'Round'));
      progress(0.5);
      let clip = keep(profile.extrude(p.width));
      if (p.mount === 'screw') {
        // The hole goes through the base along y; turned so that its teardrop points up in print (+z).
        const cutter = screwHoleCutter(kernel, { shank: p.screw_diameter, head: 0, depth: p.wall, teardrop: true }, keep);
        const upright = keep(cutter.rotate([90, 0, 0]));
        for (const side of [-1, 1]) {
          const x = side * (layout.length / 2 - layout.tab / 2);
          clip = keep(clip.subtract(keep(upright.translate([x, p.wall, p.width / 2]))));
        }
      }
      return {
        mesh: solidMesh(clip),
        notes: { print_orientation: 'as laid out: the profile on the bed, the clip standing to its width', length_mm: layout.length },
      };
    });
  },
};
