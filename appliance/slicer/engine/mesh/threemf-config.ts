/**
 * Per-object extruder assignments that slicers keep beside the 3MF core model:
 * PrusaSlicer in `Metadata/Slic3r_PE_model.config`, Bambu Studio and OrcaSlicer in
 * `Metadata/model_settings.config`. Both are `<config><object id=..><metadata key=.. value=../>`,
 * where the object id is the id of the build item's object in the start model part.
 */
import type { Package } from './opc.js';
import { XmlScanner } from './xml.js';

const CONFIG_PARTS = ['Metadata/model_settings.config', 'Metadata/Slic3r_PE_model.config'];

/** Object id → 1-based extruder, for the objects whose config names one. */
export function readObjectExtruders(pkg: Package): Map<string, number> {
  const extruders = new Map<string, number>();
  for (const partName of CONFIG_PARTS) {
    const bytes = pkg.read(partName);
    if (bytes === undefined) continue;
    const s = new XmlScanner(bytes, partName);
    let objectId: string | null = null;
    while (s.next()) {
      if (s.name === 'object' && s.depth === 1) {
        objectId = s.kind === 'open' ? (s.attr('id') ?? null) : null;
      } else if (objectId !== null && s.name === 'metadata' && s.kind !== 'close' && s.depth === 2) {
        // Volume- and part-level settings sit deeper; an object's own settings are its direct children.
        const type = s.attr('type');
        if (s.attr('key') !== 'extruder' || (type !== undefined && type !== 'object')) continue;
        const extruder = Number(s.attr('value'));
        if (Number.isInteger(extruder) && extruder >= 1 && !extruders.has(objectId)) extruders.set(objectId, extruder);
      }
    }
  }
  return extruders;
}
