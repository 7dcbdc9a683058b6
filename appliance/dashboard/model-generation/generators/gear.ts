/**
 * A spur gear with involute teeth: the flanks follow the involute of the base circle from the
 * root (radial below the base circle) to the addendum circle, so two gears of the same module and
 * pressure angle mesh at a centre distance of module × (teeth₁ + teeth₂) / 2.
 */
import type { Point } from '../geometry/font.js';
import { disposing, solidMesh } from '../geometry/manifold.js';
import { type Generator, integerParam, numberParam } from './generator.js';

interface GearParams {
  teeth: number;
  module: number;
  pressure_angle: number;
  thickness: number;
  bore_diameter: number;
}

/** Points along each flank between the root and the tip. */
const FLANK_STEPS = 10;

const involute = (angle: number): number => Math.tan(angle) - angle;

/** The gear's outline, counter-clockwise. */
export function gearOutline(teeth: number, module: number, pressureAngleDegrees: number): Point[] {
  const alpha = (pressureAngleDegrees * Math.PI) / 180;
  const pitch = (module * teeth) / 2;
  const base = pitch * Math.cos(alpha);
  const tip = pitch + module;
  const root = pitch - 1.25 * module;
  /** Half the tooth's angular width at radius r (measured at the tooth's centre line). */
  const halfWidth = (r: number): number => Math.PI / (2 * teeth) + involute(alpha) - involute(Math.acos(base / Math.max(r, base)));
  const polar = (r: number, angle: number): Point => [r * Math.cos(angle), r * Math.sin(angle)];
  const flankStart = Math.max(base, root);
  const radii = Array.from({ length: FLANK_STEPS + 1 }, (_, s) => flankStart + ((tip - flankStart) * s) / FLANK_STEPS);
  const outline: Point[] = [];
  for (let tooth = 0; tooth < teeth; tooth++) {
    const centre = (2 * Math.PI * tooth) / teeth;
    if (root < base) outline.push(polar(root, centre - halfWidth(base)));
    for (const r of radii) outline.push(polar(r, centre - halfWidth(r)));
    for (const r of [...radii].reverse()) outline.push(polar(r, centre + halfWidth(r)));
    if (root < base) outline.push(polar(root, centre + halfWidth(base)));
  }
  return outline;
}

export const gearGenerator: Generator = {
  id: 'gear',
  title: 'Spur gear (involute)',
  description: 'A spur gear with involute teeth and a round bore. Gears of one module and pressure angle mesh with each other.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      teeth: integerParam('Number of teeth.', 8, 150, 20),
      module: numberParam('Module: pitch diameter ÷ teeth (mm).', 0.5, 10, 2),
      pressure_angle: numberParam('Pressure angle (degrees).', 14.5, 25, 20),
      thickness: numberParam('Face width (mm).', 1, 100, 6),
      bore_diameter: numberParam('Diameter of the shaft hole (mm); 0 for none.', 0, 200, 5),
    },
  },
  check(params) {
    const p = params as unknown as GearParams;
    const root = (p.module * p.teeth) / 2 - 1.25 * p.module;
    return p.bore_diameter / 2 > root - p.module
      ? `the bore must leave at least one module of material below the teeth (at most ${(2 * (root - p.module)).toFixed(2)} mm)`
      : null;
  },
  generate(kernel, raw, progress) {
    const p = raw as unknown as GearParams;
    return disposing((keep) => {
      let section = keep(new kernel.CrossSection([gearOutline(p.teeth, p.module, p.pressure_angle)], 'Positive'));
      if (p.bore_diameter > 0) section = keep(section.subtract(keep(kernel.CrossSection.circle(p.bore_diameter / 2, 64))));
      progress(0.5);
      const solid = keep(section.extrude(p.thickness));
      return { mesh: solidMesh(solid), notes: { pitch_diameter_mm: p.module * p.teeth, outside_diameter_mm: p.module * (p.teeth + 2) } };
    });
  },
};
