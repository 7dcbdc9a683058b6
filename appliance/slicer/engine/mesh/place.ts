/**
 * Puts a loaded model on the bed: each object dropped to z = 0; XY kept when a 3MF build
 * already places everything inside the printable area, otherwise the model is centred as a
 * whole on the area (keeping the objects' relative positions). Then checks that it fits.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { Polygon } from '../geometry/types.js';
import { bboxSize, meshBounds, unionBBox3 } from './bounds.js';
import { badModel } from './errors.js';
import { convexHullXY, footprintFits } from './footprint.js';
import type { BBox3, IndexedMesh, Model, PlacedModel } from './types.js';

export interface BedShape {
  /** The printable area's outline on the bed, in mm. */
  printableArea: [number, number][];
  printableHeight: number;
}

function translated(mesh: IndexedMesh, dx: number, dy: number, dz: number): IndexedMesh {
  const vertices = new Float32Array(mesh.vertices.length);
  for (let k = 0; k < vertices.length; k += 3) {
    vertices[k] = mesh.vertices[k] + dx;
    vertices[k + 1] = mesh.vertices[k + 1] + dy;
    vertices[k + 2] = mesh.vertices[k + 2] + dz;
  }
  return { vertices, indices: mesh.indices };
}

function formatBedMm(value: number): string {
  return String(Number(value.toFixed(1)));
}

function areaPolygon(bed: BedShape): Polygon {
  if (bed.printableArea.length < 3) {
    throw new AppError(ErrorCode.invalidSetting, 400, 'printable_area needs at least 3 points');
  }
  return Float64Array.from(bed.printableArea.flat());
}

export function placeModel(model: Model, bed: BedShape): PlacedModel {
  const area = areaPolygon(bed);
  let areaMinX = Infinity,
    areaMinY = Infinity,
    areaMaxX = -Infinity,
    areaMaxY = -Infinity;
  for (const [x, y] of bed.printableArea) {
    areaMinX = Math.min(areaMinX, x);
    areaMaxX = Math.max(areaMaxX, x);
    areaMinY = Math.min(areaMinY, y);
    areaMaxY = Math.max(areaMaxY, y);
  }

  for (const o of model.objects) {
    if (o.mesh.indices.length === 0) throw badModel(`object "${o.name}" has no triangles left to print`);
  }
  const bounds = model.objects.map((o) => meshBounds(o.mesh));
  const hulls = model.objects.map((o) => convexHullXY(o.mesh));
  const all = bounds.reduce(unionBBox3);

  let dx = 0;
  let dy = 0;
  const keepPositions = model.positioned && hulls.every((hull) => footprintFits(hull, 0, 0, area));
  if (!keepPositions) {
    dx = (areaMinX + areaMaxX) / 2 - (all.min[0] + all.max[0]) / 2;
    dy = (areaMinY + areaMaxY) / 2 - (all.min[1] + all.max[1]) / 2;
    if (model.positioned) {
      model.warnings.push('the 3MF places its objects outside the printable area; the model was centred on the bed');
    }
  }

  const objects = model.objects.map((o, k) => ({ ...o, mesh: translated(o.mesh, dx, dy, -bounds[k].min[2]) }));
  const placedBounds = bounds
    .map(
      (b): BBox3 => ({
        min: [b.min[0] + dx, b.min[1] + dy, 0],
        max: [b.max[0] + dx, b.max[1] + dy, b.max[2] - b.min[2]],
      }),
    )
    .reduce(unionBBox3);

  const tooTall = placedBounds.max[2] > bed.printableHeight + 1e-6;
  if (tooTall || !hulls.every((hull) => footprintFits(hull, dx, dy, area))) {
    const [sx, sy, sz] = bboxSize(placedBounds);
    throw new AppError(
      ErrorCode.modelOutsideBed,
      422,
      `model is ${sx.toFixed(1)} x ${sy.toFixed(1)} x ${sz.toFixed(1)} mm; the printable area is ` +
        `${formatBedMm(areaMaxX - areaMinX)} x ${formatBedMm(areaMaxY - areaMinY)} x ${formatBedMm(bed.printableHeight)} mm`,
      { model: [sx, sy, sz], printableArea: bed.printableArea, printableHeight: bed.printableHeight },
    );
  }
  return { objects, bounds: placedBounds };
}
