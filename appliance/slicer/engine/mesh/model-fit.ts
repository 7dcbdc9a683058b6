/**
 * Printer and filament settings that act on the model before slicing: filament shrinkage
 * compensation (XY scale) and the bed's excluded areas, which no part may cover.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { PrintConfig } from '../../profiles/schema.js';
import { intersectionEx } from '../geometry/clipper.js';
import { signedArea, reversed, totalArea } from '../geometry/polygon.js';
import { pick } from '../toolpath/speeds.js';
import { convexHullXY } from './footprint.js';
import type { ModelObject, PlacedModel } from './types.js';

/** Scales each object in XY by 100 / filament_shrink of its filament (Orca: a part that shrinks to 98 % prints at 102 %). */
export function compensateShrinkage(objects: ModelObject[], c: PrintConfig): ModelObject[] {
  return objects.map((o) => {
    const shrink = pick(c.filament_shrink, o.filament - 1);
    if (shrink === 100) return o;
    const f = 100 / shrink;
    const v = Float32Array.from(o.mesh.vertices);
    for (let k = 0; k < v.length; k += 3) {
      v[k] *= f;
      v[k + 1] *= f;
    }
    return { ...o, mesh: { vertices: v, indices: o.mesh.indices } };
  });
}

/** Refuses a placement that covers any of the printer's excluded bed areas. */
export function checkExcludedAreas(placed: PlacedModel, c: PrintConfig): void {
  const area = c.bed_exclude_area;
  if (area.length < 3) return;
  let ring: Float64Array = Float64Array.from(area.flat());
  if (signedArea(ring) < 0) ring = reversed(ring);
  const excluded = [{ contour: ring, holes: [] }];
  for (const o of placed.objects) {
    let hull: Float64Array = convexHullXY(o.mesh);
    if (signedArea(hull) < 0) hull = reversed(hull);
    const overlap = totalArea(intersectionEx([{ contour: hull, holes: [] }], excluded));
    if (overlap > 0.01) {
      throw new AppError(ErrorCode.modelOutsideBed, 422, `object "${o.name}" covers the printer's excluded bed area (${overlap.toFixed(1)} mm²)`);
    }
  }
}
