/** Test areas and measurements shared by the infill tests. */
import { intersectionEx, offsetEx, thickenPolylines } from '../../../../../appliance/slicer/engine/geometry/clipper.js';
import { pointInExPolygon, polylineLength, totalArea } from '../../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../../appliance/slicer/engine/geometry/types.js';
import type { FillRequest } from '../../../../../appliance/slicer/engine/regions/infill/types.js';
import type { Extrusion } from '../../../../../appliance/slicer/engine/toolpath/types.js';

/** Axis-aligned rectangle, counter-clockwise (an outline) or clockwise (a hole). */
export function rect(x0: number, y0: number, x1: number, y1: number, hole = false): Float64Array {
  return hole ? Float64Array.of(x0, y0, x0, y1, x1, y1, x1, y0) : Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);
}

/** The four test areas of the brief, `size` mm across, placed off the origin so nothing lines up with it by chance. */
export function testAreas(size = 40): Record<string, ExPolygon[]> {
  const s = size;
  const ox = 3.3;
  const oy = 7.1;
  const r = (x0: number, y0: number, x1: number, y1: number, hole = false) => rect(ox + x0 * s, oy + y0 * s, ox + x1 * s, oy + y1 * s, hole);
  return {
    square: [{ contour: r(0, 0, 1, 1), holes: [] }],
    'square with hole': [{ contour: r(0, 0, 1, 1), holes: [r(0.3, 0.35, 0.7, 0.65, true)] }],
    'concave L': [
      {
        contour: Float64Array.of(ox, oy, ox + s, oy, ox + s, oy + 0.4 * s, ox + 0.4 * s, oy + 0.4 * s, ox + 0.4 * s, oy + s, ox, oy + s),
        holes: [],
      },
    ],
    'two islands': [
      { contour: r(0, 0, 0.45, 1), holes: [] },
      { contour: r(0.55, 0.1, 1, 0.9), holes: [] },
    ],
  };
}

export function request(area: ExPolygon[], pattern: FillRequest['pattern'], density: number, extra: Partial<FillRequest> = {}): FillRequest {
  const width = 0.45;
  const height = 0.2;
  const spacing = width - height * (1 - Math.PI / 4);
  return {
    area,
    pattern,
    density,
    spacing,
    angle: 45,
    layerIndex: 0,
    z: 0.6,
    role: density >= 1 ? 'solid-infill' : 'sparse-infill',
    width,
    height,
    mm3PerMm: spacing * height,
    ...extra,
  };
}

/** Extruded volume (mm³). */
export function volume(paths: readonly Extrusion[]): number {
  let v = 0;
  for (const e of paths) v += polylineLength(e.points) * e.mm3PerMm;
  return v;
}

/** Points (vertices and segment midpoints) of the paths that are outside the area grown by 1 µm. */
export function pointsOutside(paths: readonly Extrusion[], area: readonly ExPolygon[]): number[][] {
  const grown = offsetEx(area, 0.001);
  const inside = (x: number, y: number) => grown.some((ex) => pointInExPolygon(x, y, ex));
  const bad: number[][] = [];
  for (const e of paths) {
    const p = e.points;
    for (let k = 0; k < p.length; k += 2) {
      if (!inside(p[k], p[k + 1])) bad.push([p[k], p[k + 1]]);
      if (k + 2 < p.length) {
        const mx = (p[k] + p[k + 2]) / 2;
        const my = (p[k + 1] + p[k + 3]) / 2;
        if (!inside(mx, my)) bad.push([mx, my]);
      }
    }
  }
  return bad;
}

/** Share of the area covered by the paths thickened to their width. */
export function coverage(paths: readonly Extrusion[], area: ExPolygon[]): number {
  const covered = intersectionEx(
    thickenPolylines(
      paths.map((e) => e.points),
      paths[0].width,
    ),
    area,
  );
  return totalArea(covered) / totalArea(area);
}

/** The straight segments of the paths that run along `angle` (degrees), as [x0', x1', y'] in the frame rotated by -angle. */
export function segmentsAlong(
  paths: readonly Extrusion[],
  angle: number,
  minLength: number,
): { lo: number; hi: number; y: number; order: number; forward: boolean }[] {
  const c = Math.cos((angle * Math.PI) / 180);
  const s = Math.sin((angle * Math.PI) / 180);
  const out: { lo: number; hi: number; y: number; order: number; forward: boolean }[] = [];
  for (const e of paths) {
    const p = e.points;
    for (let k = 0; k + 2 < p.length; k += 2) {
      const xa = p[k] * c + p[k + 1] * s;
      const ya = p[k + 1] * c - p[k] * s;
      const xb = p[k + 2] * c + p[k + 3] * s;
      const yb = p[k + 3] * c - p[k + 2] * s;
      if (Math.abs(ya - yb) > 1e-6 || Math.abs(xb - xa) < minLength) continue;
      out.push({ lo: Math.min(xa, xb), hi: Math.max(xa, xb), y: (ya + yb) / 2, order: out.length, forward: xb > xa });
    }
  }
  return out;
}
