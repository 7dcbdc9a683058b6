/**
 * Support areas, found top-down as the classic generators do: an overhang is the part of a layer
 * that the layer below, grown by what the threshold angle allows, does not carry. Its column
 * reaches down to the bed (or to the part, unless `build plate only`), kept `support_top_z_distance`
 * under the overhang and `support_object_xy_distance` away from the part; the layers right under an
 * overhang are the dense interface.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { differenceEx, intersectionEx, offsetEx, unionExs } from '../geometry/clipper.js';
import { exArea } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';

export interface SupportParams {
  thresholdDeg: number;
  topGapLayers: number;
  bottomGapLayers: number;
  xyDistance: number;
  buildPlateOnly: boolean;
  interfaceLayers: number;
  /** Dense layers where a column stands on the part (0: none). */
  bottomInterfaceLayers: number;
  expansion: number;
  /** Overhangs smaller than this (mm²) need no support. */
  minArea: number;
}

export interface SupportLayer {
  base: ExPolygon[];
  iface: ExPolygon[];
}

export function supportParams(c: PrintConfig, lineWidth: number): SupportParams {
  const h = c.layer_height;
  return {
    thresholdDeg: c.support_threshold_angle > 0 ? c.support_threshold_angle : 30,
    topGapLayers: Math.max(0, Math.round(c.support_top_z_distance / h)),
    bottomGapLayers: Math.max(0, Math.round(c.support_bottom_z_distance / h)),
    xyDistance: c.support_object_xy_distance,
    buildPlateOnly: c.support_on_build_plate_only,
    interfaceLayers: c.support_interface_top_layers,
    // -1 means "as many as the top", as in OrcaSlicer.
    bottomInterfaceLayers: c.support_interface_bottom_layers < 0 ? c.support_interface_top_layers : c.support_interface_bottom_layers,
    expansion: c.support_expansion,
    minArea: lineWidth * lineWidth * 4,
  };
}

/**
 * @param slices the union of every object's islands per layer.
 * @param heights layer heights.
 * @param getSlice lazily decodes a layer (the caller keeps outlines encoded).
 */
export function planSupport(
  count: number,
  getSlice: (layer: number) => ExPolygon[],
  heights: Float64Array,
  p: SupportParams,
  onLayer?: (done: number) => void,
): SupportLayer[] {
  const out: SupportLayer[] = Array.from({ length: count }, () => ({ base: [], iface: [] }));
  if (count < 2) return out;
  const tan = Math.tan((p.thresholdDeg * Math.PI) / 180);
  // Overhangs per layer: area not carried by the layer below grown by h / tan(threshold).
  const overhang: ExPolygon[][] = new Array(count).fill(null).map(() => []);
  let below = getSlice(0);
  for (let i = 1; i < count; i++) {
    const here = getSlice(i);
    if (here.length) {
      const carried = below.length ? offsetEx(below, heights[i] / tan) : [];
      const raw = carried.length ? differenceEx(here, carried) : here;
      overhang[i] = raw.filter((ex) => exArea(ex) >= p.minArea);
      if (p.expansion > 0 && overhang[i].length) overhang[i] = intersectionEx(offsetEx(overhang[i], p.expansion), offsetEx(here, p.expansion));
    }
    below = here;
  }
  // With "build plate only", nothing may stand on the part: every layer loses the footprint of
  // all the layers under it (its shadow).
  const shadow: ExPolygon[][] = [];
  if (p.buildPlateOnly) {
    let acc: ExPolygon[] = [];
    for (let i = 0; i < count; i++) {
      const here = getSlice(i);
      if (here.length) acc = acc.length ? unionExs([...acc, ...here]) : here;
      shadow.push(acc);
    }
  }
  // Columns from the top down. `column` is what must be supported at the current layer.
  let column: ExPolygon[] = [];
  const pendingIface: ExPolygon[][] = [];
  for (let i = count - 1; i >= 0; i--) {
    // The overhang of layer i + gap + 1 starts its column at layer i.
    const source = i + p.topGapLayers + 1;
    const fresh = source < count ? overhang[source] : [];
    if (fresh.length) column = column.length ? unionExs([...column, ...fresh]) : fresh;
    pendingIface.unshift(fresh);
    if (pendingIface.length > p.interfaceLayers) pendingIface.pop();
    if (column.length === 0) {
      onLayer?.(count - i);
      continue;
    }
    if (p.buildPlateOnly && shadow[i].length) column = differenceEx(column, shadow[i]);
    const part = getSlice(i);
    let area = part.length ? differenceEx(column, offsetEx(part, p.xyDistance)) : column;
    // Keep the bottom Z gap above the part's top surfaces.
    for (let k = 1; k <= p.bottomGapLayers && i - k >= 0 && area.length; k++) {
      const lower = getSlice(i - k);
      if (lower.length) area = differenceEx(area, lower);
    }
    // Below this layer the column continues only beside the part.
    if (part.length) column = differenceEx(column, part);
    assign(out[i], area, pendingIface);
    if (p.bottomInterfaceLayers > 0 && out[i].base.length) addBottomInterface(out[i], i, p, getSlice);
    onLayer?.(count - i);
  }
  return out;
}

function assign(layer: SupportLayer, area: ExPolygon[], recentOverhangs: ExPolygon[][]): void {
  if (area.length === 0) return;
  const near = recentOverhangs.flat();
  if (near.length === 0) {
    layer.base = area;
    return;
  }
  const iface = intersectionEx(area, near.length > 1 ? unionExs(near) : near);
  layer.iface = iface;
  layer.base = iface.length ? differenceEx(area, iface) : area;
}

/** Makes dense the support that stands on the part: the layers just above its top surfaces. */
function addBottomInterface(layer: SupportLayer, i: number, p: SupportParams, getSlice: (layer: number) => ExPolygon[]): void {
  const under: ExPolygon[] = [];
  for (let k = 1; k <= p.bottomInterfaceLayers; k++) {
    const j = i - p.bottomGapLayers - k;
    if (j >= 0) under.push(...getSlice(j));
  }
  if (under.length === 0) return;
  const resting = intersectionEx(layer.base, unionExs(under));
  if (resting.length === 0) return;
  layer.iface = layer.iface.length ? unionExs([...layer.iface, ...resting]) : resting;
  layer.base = differenceEx(layer.base, resting);
}
