/**
 * The height changes a scene's slice carries: a calibration piece's result (the temperature
 * tower's blocks, the retraction test's bands) has `notes.height_changes` in its own frame; in a
 * scene each `z_from` moves with the object's placement (its z scale and its sink). A printer has
 * one nozzle temperature and one retraction at a time, so two objects whose changes differ cannot
 * share a plate: 409 naming both. Objects without changes print under the others' changes.
 * A slice request's own `height_changes` replaces all this (heights above the bed, as given).
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { type HeightChange, heightChangesProblem } from '../../../slicer/index.js';
import type { HeightMap } from './placement.js';

/** One scene object as its changes need it. */
export interface ObjectChanges {
  name: string;
  /** Its job result's `notes.height_changes`, in the model's own frame; empty when it has none. */
  changes: readonly HeightChange[];
  /** The placement's height map; null when the object is tipped over or upside down. */
  heights: HeightMap | null;
}

/** Heights are compared and sent to the micrometre: finer is float residue of the scale. */
const roundZ = (z: number): number => Math.round(z * 1000) / 1000;

/** A job result's `notes.height_changes`, checked as the slice form checks it; empty when there are none. */
export function notedHeightChanges(notes: Record<string, unknown> | undefined): HeightChange[] {
  const listed = notes?.height_changes;
  if (listed === undefined) return [];
  const problem = heightChangesProblem(listed);
  if (problem !== null) throw new Error(`a generation job's notes.height_changes are not valid: ${problem}`);
  return listed as HeightChange[];
}

/**
 * One object's changes at heights above the bed. A change that the sink puts at or below the bed
 * applies from the first layer; of several such for one setting only the last (the one in force
 * at the bed) is kept.
 */
export function placedHeightChanges(object: ObjectChanges): HeightChange[] {
  if (object.changes.length === 0) return [];
  if (object.heights === null) {
    throw new AppError(
      ErrorCode.conflict,
      409,
      `object "${object.name}" carries height changes (a calibration piece) but is tipped over or upside down in the scene, ` +
        'so its heights no longer follow the printed height; stand it upright or give the slice its own height_changes',
      { object: object.name },
    );
  }
  const { scale, shift } = object.heights;
  const moved = object.changes.map((c) => ({ ...c, z_from: Math.max(0, roundZ(c.z_from * scale + shift)) }));
  return moved.filter((c, i) => c.z_from > 0 || !moved.slice(i + 1).some((later) => later.z_from === 0 && later.setting === c.setting));
}

const sameChanges = (a: readonly HeightChange[], b: readonly HeightChange[]): boolean =>
  a.length === b.length && a.every((c, i) => c.z_from === b[i].z_from && c.setting === b[i].setting && c.value === b[i].value);

/**
 * The changes of the whole plate: those of the objects that have any, when they agree (two copies
 * of one tower side by side, sunk alike); 409 naming the first two that disagree.
 */
export function sceneHeightChanges(objects: readonly ObjectChanges[]): HeightChange[] {
  let first: { name: string; changes: HeightChange[] } | null = null;
  for (const object of objects) {
    const changes = placedHeightChanges(object);
    if (changes.length === 0) continue;
    if (first === null) first = { name: object.name, changes };
    else if (!sameChanges(first.changes, changes)) {
      throw new AppError(
        ErrorCode.conflict,
        409,
        `objects "${first.name}" and "${object.name}" change settings at different heights (a printer has one nozzle temperature ` +
          'and one retraction at a time): slice them in separate scenes, or give the slice its own height_changes',
        { objects: [first.name, object.name] },
      );
    }
  }
  return first?.changes ?? [];
}
