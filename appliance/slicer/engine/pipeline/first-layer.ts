/**
 * The first layer, planned before any toolpath: its outlines, the brim around the objects, the
 * skirt around everything, and the box they fill (the templates' first_layer_print_min/max). The
 * skirt and brim are then printed with the layers they belong to.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { unionExs } from '../geometry/clipper.js';
import { bboxOfEx } from '../geometry/polygon.js';
import type { BBox2, ExPolygon } from '../geometry/types.js';
import type { OutlineResult } from '../layers/slice-outlines.js';
import type { LayerSpec } from '../layers/zlist.js';
import type { PlacedModel } from '../mesh/types.js';
import { brimLoops, skirtLoops } from '../regions/adhesion.js';
import { crossSection, widthFor } from '../regions/flow.js';
import type { RegionParams } from '../regions/params.js';
import type { Extrusion, LayerPaths } from '../toolpath/types.js';
import { F64Reader } from '../workers/f64-stream.js';

export interface FirstLayer {
  /** Island outlines, per object. */
  outlines: ExPolygon[][];
  brim: Extrusion[];
  skirt: Extrusion[];
  /** XY box of the outlines, brim and skirt. */
  box: BBox2;
}

/** Top of each object (`auto_brim` asks how tall a part is for its footprint). */
function objectHeights(placed: PlacedModel): number[] {
  return placed.objects.map((o) => {
    let top = 0;
    for (let k = 2; k < o.mesh.vertices.length; k += 3) top = Math.max(top, o.mesh.vertices[k]);
    return top;
  });
}

export function planFirstLayer(outlines: OutlineResult, placed: PlacedModel, c: PrintConfig, p: RegionParams, spec0: LayerSpec): FirstLayer {
  const first = outlines.objects.map((o) => new F64Reader(o.layers[0]).exPolygons());
  const heights = objectHeights(placed);
  const width = widthFor('brim', p.widths, true);
  const brim = brimLoops(
    first.map((islands, k) => ({ islands, height: heights[k] })),
    c,
    width,
    spec0.height,
  );
  const skirt = skirtLoops(first.flat(), brim, c, width, spec0.height);
  const box = bboxOfEx(unionExs([...first.flat(), ...[...brim, ...skirt].map((e) => ({ contour: e.points, holes: [] }))]));
  return { outlines: first, brim, skirt, box };
}

/** Puts the skirt and brim on the first layer, and the skirt again on the layers below `skirt_height`. */
export function addAdhesion(layer: LayerPaths, first: FirstLayer, skirtHeight: number): void {
  if (layer.index === 0) layer.adhesion = [...first.skirt, ...first.brim];
  else if (layer.index < skirtHeight) layer.adhesion = skirtAt(first.skirt, layer.height);
}

/** The skirt of layer 0 reprinted at a higher layer's height. */
function skirtAt(skirt: Extrusion[], height: number): Extrusion[] {
  return skirt.map((e) => ({ ...e, height, mm3PerMm: crossSection(e.width, height) }));
}
