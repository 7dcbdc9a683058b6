/**
 * A scene being edited: each object's name and transform as the fields' texts, turned back into
 * the API's scene body (the rotations about X and Y, which the page does not edit, kept as stored).
 */
import type { Scene, SceneInput } from './store';

export const NUMBER_FIELDS = ['tx', 'ty', 'tz', 'rz', 'sx', 'sy', 'sz'] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];
export type Axis = 'x' | 'y' | 'z';

export interface DraftObject {
  job_id: string;
  name: string;
  missing: string | null;
  numbers: Record<NumberField, string>;
  mirror: Record<Axis, boolean>;
  rotateXY: { x: number; y: number };
}

export interface Draft {
  id: string;
  name: string;
  objects: DraftObject[];
}

export function draftOf(scene: Scene): Draft {
  return {
    id: scene.id,
    name: scene.name,
    objects: scene.objects.map((o) => {
      const { translate, rotate, scale, mirror } = o.transform;
      return {
        job_id: o.job_id,
        name: o.name,
        missing: o.missing,
        numbers: {
          tx: String(translate.x),
          ty: String(translate.y),
          tz: String(translate.z),
          rz: String(rotate.z),
          sx: String(scale.x),
          sy: String(scale.y),
          sz: String(scale.z),
        },
        mirror: { x: mirror.x === true, y: mirror.y === true, z: mirror.z === true },
        rotateXY: { x: rotate.x, y: rotate.y },
      };
    }),
  };
}

export interface Profiles {
  printer_id: string | null;
  filament_ids: string[] | null;
  process_id: string | null;
}

/** The body of PUT, or the first field whose text is not a number (`objects/0/tx`). */
export function inputOf(draft: Draft, profiles: Profiles): SceneInput | { invalid: string } {
  const objects: SceneInput['objects'] = [];
  for (const [index, o] of draft.objects.entries()) {
    const n = {} as Record<NumberField, number>;
    for (const field of NUMBER_FIELDS) {
      const value = Number(o.numbers[field]);
      if (o.numbers[field].trim() === '' || !Number.isFinite(value)) return { invalid: `${o.name} (${index + 1})` };
      n[field] = value;
    }
    objects.push({
      job_id: o.job_id,
      name: o.name,
      transform: {
        translate: { x: n.tx, y: n.ty, z: n.tz },
        rotate: { x: o.rotateXY.x, y: o.rotateXY.y, z: n.rz },
        scale: { x: n.sx, y: n.sy, z: n.sz },
        mirror: o.mirror,
      },
    });
  }
  return { name: draft.name, objects, ...profiles };
}
