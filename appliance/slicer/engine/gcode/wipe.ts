/**
 * Where a wipe goes: back along the path just printed, from the nozzle, for up to `distance` mm,
 * so the ooze of the retraction made during it is wiped onto the part.
 */
import { length2 } from '../geometry/polygon.js';

/**
 * The wipe's points as triples (x, y, length of the step to it), walking the first `n` numbers of
 * `path` back from its end (from its start when it was printed `backwards`); empty when there is
 * nothing to walk.
 */
export function wipeSteps(path: Float64Array, n: number, backwards: boolean, fromX: number, fromY: number, distance: number): number[] {
  const steps: number[] = [];
  let remaining = distance;
  let px = fromX;
  let py = fromY;
  for (let k = n - 4; k >= 0 && remaining > 0; k -= 2) {
    const at = backwards ? n - 2 - k : k;
    const x = path[at];
    const y = path[at + 1];
    const seg = length2(x - px, y - py);
    if (seg < 1e-9) continue;
    const t = Math.min(1, remaining / seg);
    px += (x - px) * t;
    py += (y - py) * t;
    steps.push(px, py, seg * t);
    remaining -= seg * t;
  }
  return steps;
}
