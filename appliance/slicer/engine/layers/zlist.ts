/** Layer heights: where each layer's top sits and where the mesh is cut for it. */

export interface LayerSpec {
  /** Top of the layer: the nozzle height when printing it. */
  printZ: number;
  height: number;
  /** The plane the mesh is cut at: the middle of the layer, as PrusaSlicer does. */
  sliceZ: number;
}

/**
 * Slice planes sit this far above the middle of their layer, so a horizontal face exactly at a
 * mid-layer height (common: features on a 0.1 mm grid) falls consistently below the plane.
 */
const PLANE_NUDGE = 1e-5;

/**
 * Uniform layers after a first layer of its own height, up to the object's height. A residue
 * thinner than half a layer at the top is dropped, otherwise it gets a full layer (whose mid-plane
 * still cuts the mesh), so the print never ends more than half a layer short or over.
 */
export function layerSpecs(objectHeight: number, firstLayerHeight: number, layerHeight: number): LayerSpec[] {
  const out: LayerSpec[] = [];
  if (objectHeight <= 0) return out;
  const first = Math.min(firstLayerHeight, objectHeight);
  out.push({ printZ: first, height: first, sliceZ: first / 2 + PLANE_NUDGE });
  let z = first;
  for (;;) {
    const remaining = objectHeight - z;
    if (remaining < layerHeight * 0.5 - 1e-9) break;
    const top = z + layerHeight;
    out.push({ printZ: roundZ(top), height: layerHeight, sliceZ: Math.min(z + layerHeight / 2 + PLANE_NUDGE, objectHeight - 1e-4) });
    z = top;
  }
  return out;
}

/** Z values in G-code are printed to 3 decimals: keep the stored values identical to what is printed. */
function roundZ(z: number): number {
  return Math.round(z * 1e6) / 1e6;
}
