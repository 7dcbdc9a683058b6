/**
 * The time of one layer's moves, for the G-code writer's cooling decisions: a short list that
 * starts and ends at rest, planned exactly as the whole file will be.
 *
 * Moves are a Float64Array of records of MOVE_STRIDE numbers:
 *   [x, y, z, e, feedrate]  x, y, z: absolute target in mm; e: filament this move pushes in mm
 *                           (negative retracts); feedrate: requested speed in mm/s.
 * Record 0 is where the layer starts (the nozzle at rest there); its e and feedrate are ignored.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { MachineLimits } from './limits.js';
import { MotionPlanner, type AccelerationSettings } from './planner.js';

export const MOVE_STRIDE = 5;

const MAX_LOOKAHEAD = 1024;
const MIN_LOOKAHEAD = 16;

/**
 * Seconds to run the moves. `accel` sets the accelerations in force (the writer's M204 values);
 * when `moveTimes` (one entry per record) is given, each move's own duration is written to it.
 */
export function estimateMoves(
  moves: Float64Array, limits: MachineLimits, accel: AccelerationSettings = {}, moveTimes?: Float64Array,
): number {
  const records = moves.length / MOVE_STRIDE;
  if (!Number.isInteger(records)) {
    throw new AppError(ErrorCode.badRequest, 400, `moves must hold ${MOVE_STRIDE} numbers per move, got ${moves.length}`);
  }
  if (moveTimes && moveTimes.length < records) {
    throw new AppError(ErrorCode.badRequest, 400, `moveTimes needs ${records} entries, has ${moveTimes.length}`);
  }
  if (records < 2) {
    moveTimes?.fill(0, 0, records);
    return 0;
  }
  let lookahead = MIN_LOOKAHEAD;
  while (lookahead < records && lookahead < MAX_LOOKAHEAD) lookahead <<= 1;
  const blockMove = moveTimes ? new Int32Array(records) : undefined;
  if (moveTimes) moveTimes.fill(0, 0, records);
  const planner = new MotionPlanner(limits, {
    lookahead,
    onBlockTime: moveTimes && blockMove ? (block, t) => { moveTimes[blockMove[block]] = t; } : undefined,
  });
  planner.setAccelerations(accel);
  planner.setPosition(moves[0], moves[1], moves[2], 0);
  let e = 0;
  let blocks = 0;
  for (let k = 1; k < records; k++) {
    const o = k * MOVE_STRIDE;
    e += moves[o + 3];
    if (planner.move(moves[o], moves[o + 1], moves[o + 2], e, moves[o + 4]) && blockMove) blockMove[blocks++] = k;
  }
  return planner.finish().totalS;
}
