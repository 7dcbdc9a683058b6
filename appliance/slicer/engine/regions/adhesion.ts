/**
 * Skirt and brim. The brim grows outward from the first layer's outlines (and, for
 * `inner_only`/`outer_and_inner`, inward into holes); the skirt runs around everything the first
 * layer prints at `skirt_distance`, with more loops when needed to reach `min_skirt_length`.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { offsetEx, unionExs } from '../geometry/clipper.js';
import { closeLoop, exArea, polygonLength, reversed } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import { crossSection, spacingOf } from './flow.js';

export interface ObjectFootprint {
  /** First-layer islands of the object. */
  islands: ExPolygon[];
  /** Height of the object (for the automatic brim). */
  height: number;
}

const AUTO_BRIM_SLENDERNESS = 4;

function loop(ring: Polygon, role: 'skirt' | 'brim', width: number, height: number): Extrusion {
  return { role, points: closeLoop(ring), loop: true, width, height, mm3PerMm: crossSection(width, height) };
}

/**
 * The automatic brim (OrcaSlicer's `auto_brim`): only for objects that are tall for their
 * footprint and would tip or peel, judged by height over the footprint's equivalent diameter
 * (more than four times: a pen holder gets one, a screw standing on its head does not).
 */
function wantsBrim(obj: ObjectFootprint, type: PrintConfig['brim_type']): boolean {
  if (type === 'no_brim') return false;
  if (type !== 'auto_brim') return true;
  const area = obj.islands.reduce((a, ex) => a + exArea(ex), 0);
  const diameter = 2 * Math.sqrt(area / Math.PI);
  return diameter > 0 && obj.height / diameter > AUTO_BRIM_SLENDERNESS;
}

/** Brim loops, outermost first (printing inward ends next to the part). */
export function brimLoops(objects: ObjectFootprint[], c: PrintConfig, width: number, height: number): Extrusion[] {
  if (c.brim_width <= 0) return [];
  const spacing = spacingOf(width, height);
  const count = Math.max(1, Math.floor((c.brim_width + 1e-9) / spacing));
  const out: Extrusion[] = [];
  const outer = c.brim_type === 'outer_only' || c.brim_type === 'outer_and_inner' || c.brim_type === 'auto_brim';
  const inner = c.brim_type === 'inner_only' || c.brim_type === 'outer_and_inner';
  const parts = objects.filter((o) => wantsBrim(o, c.brim_type));
  if (parts.length === 0) return [];
  const all = unionExs(parts.flatMap((o) => o.islands));
  if (outer) {
    const rings: Extrusion[] = [];
    for (let k = 0; k < count; k++) {
      const grown = offsetEx(
        all.map((ex) => ({ contour: ex.contour, holes: [] })),
        c.brim_object_gap + spacing / 2 + k * spacing,
        'round',
      );
      for (const ex of grown) rings.push(loop(ex.contour, 'brim', width, height));
    }
    out.push(...rings.reverse());
  }
  if (inner) {
    for (const ex of all) {
      for (const hole of ex.holes) {
        for (let k = 0; k < count; k++) {
          const shrunk = offsetEx([{ contour: reversed(hole), holes: [] }], -(c.brim_object_gap + spacing / 2 + k * spacing), 'round');
          if (shrunk.length === 0) break;
          for (const s of shrunk) out.push(loop(s.contour, 'brim', width, height));
        }
      }
    }
  }
  return out;
}

/** Skirt loops around the first layer (including its brim), innermost first. */
export function skirtLoops(firstLayer: ExPolygon[], brim: Extrusion[], c: PrintConfig, width: number, height: number): Extrusion[] {
  if (c.skirt_loops <= 0 || firstLayer.length === 0) return [];
  const spacing = spacingOf(width, height);
  const brimOutline = brim.length
    ? offsetEx(
        brim.map((b) => ({ contour: b.points.subarray(0, b.points.length - 2), holes: [] })),
        width / 2,
      )
    : [];
  const base = unionExs([...firstLayer.map((ex) => ({ contour: ex.contour, holes: [] })), ...brimOutline]);
  // One skirt around everything: close the gaps between parts by growing and shrinking back.
  const hull = offsetEx(offsetEx(base, c.skirt_distance + spacing / 2 + 10, 'round'), -10, 'round');
  const out: Extrusion[] = [];
  let length = 0;
  for (let k = 0; k < 100; k++) {
    if (k >= c.skirt_loops && length >= c.min_skirt_length) break;
    const ring = k === 0 ? hull : offsetEx(hull, k * spacing, 'round');
    for (const ex of ring) {
      out.push(loop(ex.contour, 'skirt', width, height));
      length += polygonLength(ex.contour);
    }
  }
  return out;
}
