/**
 * The lines around each object's moves in a layer that let a printer skip one object of a plate:
 * Marlin's `M486`, Klipper's `EXCLUDE_OBJECT_START/END`, Bambu's `M624`/`M625`. Which ids the
 * objects get is the pipeline's choice (`LabelledObject.id`); this module only writes them.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import type { Flavour } from './flavour.js';

export interface LabelledObject {
  /** M486 / EXCLUDE_OBJECT id; for Bambu printers the object's `identify_id`, never 0. */
  id: number;
  /** Label without spaces, unique (Klipper EXCLUDE_OBJECT names). */
  label: string;
  name: string;
}

/** Bambu printers take at most 64 labelled objects: an M624 mask is one 64-bit word. */
export const BAMBU_MAX_LABELS = 64;

/**
 * `M624` arguments, as Bambu Studio writes them: a 64-bit little-endian mask, in base64, with the
 * bit of the object's place among the ascending ids (the header's `; model label id:` list) set.
 */
export function bambuSkipMasks(ids: readonly number[]): Map<number, string> {
  const sorted = [...ids].sort((a, b) => a - b);
  const masks = new Map<number, string>();
  sorted.forEach((id, place) => {
    if (place >= BAMBU_MAX_LABELS) return;
    const mask = Buffer.alloc(8);
    mask[place >> 3] = 1 << (place & 7);
    masks.set(id, mask.toString('base64'));
  });
  return masks;
}

export class ObjectLabels {
  private readonly skipMasks: Map<number, string>;

  constructor(
    private readonly c: PrintConfig,
    private readonly f: Flavour,
    objects: readonly LabelledObject[],
  ) {
    this.skipMasks = f.bambu ? bambuSkipMasks(objects.map((o) => o.id)) : new Map();
  }

  get enabled(): boolean {
    return this.c.gcode_label_objects;
  }

  start(obj: LabelledObject): string[] {
    if (!this.enabled) return [];
    if (this.f.klipper) return this.c.exclude_object ? [`EXCLUDE_OBJECT_START NAME=${obj.label}`] : [];
    if (this.f.bambu) {
      const mask = this.skipMasks.get(obj.id);
      const head = `; start printing object, unique label id: ${obj.id}`;
      return mask === undefined ? [head] : [head, `M624 ${mask}`];
    }
    // Stock Marlin reads any capital T/S/P/C/U in the line as a parameter, so a name on the M486
    // line could reset or cancel objects; the name goes in a comment, as PrusaSlicer writes it.
    return [`; printing object ${obj.name.replace(/[\r\n]+/g, ' ')}`, `M486 S${obj.id}`];
  }

  end(obj: LabelledObject): string[] {
    if (!this.enabled) return [];
    if (this.f.klipper) return this.c.exclude_object ? [`EXCLUDE_OBJECT_END NAME=${obj.label}`] : [];
    if (this.f.bambu) {
      const tail = `; stop printing object, unique label id: ${obj.id}`;
      return this.skipMasks.has(obj.id) ? [tail, 'M625'] : [tail];
    }
    return ['M486 S-1'];
  }
}
