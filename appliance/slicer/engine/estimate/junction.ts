/**
 * Junction speeds: how fast the toolhead may pass from one move into the next under each
 * firmware's rule. Vectors are Float64Array(4) in x, y, z, e order; speeds in mm/s.
 */

/** Marlin's floor for a junction it has to stop at (MINIMUM_PLANNER_SPEED). */
export const MARLIN_MINIMUM_PLANNER_SPEED = 0.05;

/* Marlin treats cosines beyond these as a full reversal or a straight line. */
const REVERSAL_COS = 0.999999;
const STRAIGHT_COS = -0.999999;

/**
 * Classic jerk: the speed a move may start at from standstill, or stop from, by jumping every axis
 * to (or from) zero within its jerk. Marlin 2's `safe_speed`.
 */
export function jerkSafeSpeed(axisSpeed: Float64Array, nominal: number, jerk: Float64Array): number {
  let safe = nominal;
  for (let a = 0; a < 4; a++) {
    const v = Math.abs(axisSpeed[a]);
    if (v > jerk[a]) {
      const limited = (nominal * jerk[a]) / v;
      if (limited < safe) safe = limited;
    }
  }
  return safe;
}

/**
 * Where a move's nominal and safe speeds sit in the arrays `jerkJunctionSpeed` reads, after its four
 * axis speeds. Arrays rather than arguments: the call is not always inlined into the planner, and a
 * number passed to a call that is not was allocated for it, a few per move of every slice.
 */
export const JERK_NOMINAL = 4;
export const JERK_SAFE = 5;

/**
 * Classic jerk between two moves, as Marlin 2 computes `vmax_junction`: the smaller nominal speed,
 * scaled down until each axis' speed change (coasting, or reversal measured from zero) fits its
 * jerk; when both moves could start from standstill at least as fast, the safe speed is used.
 * `prev` and `cur` hold per-axis speeds at each move's nominal speed, then its nominal and safe
 * speeds (at `JERK_NOMINAL`, `JERK_SAFE`).
 */
export function jerkJunctionSpeed(prev: Float64Array, cur: Float64Array, jerk: Float64Array): number {
  const prevNominal = prev[JERK_NOMINAL];
  const curNominal = cur[JERK_NOMINAL];
  let junction: number;
  let smallerFactor = 1;
  if (curNominal < prevNominal) {
    junction = curNominal;
    smallerFactor = curNominal / prevNominal;
  } else {
    junction = prevNominal;
  }
  let factor = 1;
  let limited = false;
  for (let a = 0; a < 4; a++) {
    let exit = prev[a] * smallerFactor;
    let entry = cur[a];
    if (limited) {
      exit *= factor;
      entry *= factor;
    }
    let change: number;
    if (exit > entry) change = entry > 0 || exit < 0 ? exit - entry : Math.max(exit, -entry);
    else change = entry < 0 || exit > 0 ? entry - exit : Math.max(-exit, entry);
    if (change > jerk[a]) {
      factor *= jerk[a] / change;
      limited = true;
    }
  }
  if (limited) junction *= factor;
  const threshold = junction * 0.99;
  const curSafe = cur[JERK_SAFE];
  if (prev[JERK_SAFE] > threshold && curSafe > threshold) junction = curSafe;
  return junction;
}

/**
 * Marlin 2 junction deviation: the squared speed at which the centripetal acceleration of a circle
 * tangent to both moves, `deviation` mm inside the corner, stays within the move's acceleration
 * (itself limited per axis along the junction direction). Unit vectors include E.
 */
export function deviationJunctionSpeed2(
  prevUnit: Float64Array,
  curUnit: Float64Array,
  accel: number,
  maxAccel: Float64Array,
  deviation: number,
  prevNominal2: number,
  curNominal2: number,
): number {
  let cosTheta = -(prevUnit[0] * curUnit[0] + prevUnit[1] * curUnit[1] + prevUnit[2] * curUnit[2] + prevUnit[3] * curUnit[3]);
  if (cosTheta > REVERSAL_COS) return MARLIN_MINIMUM_PLANNER_SPEED * MARLIN_MINIMUM_PLANNER_SPEED;
  if (cosTheta < STRAIGHT_COS) cosTheta = STRAIGHT_COS;
  const jx = curUnit[0] - prevUnit[0];
  const jy = curUnit[1] - prevUnit[1];
  const jz = curUnit[2] - prevUnit[2];
  const je = curUnit[3] - prevUnit[3];
  const norm = Math.sqrt(jx * jx + jy * jy + jz * jz + je * je);
  let junctionAccel = accel;
  if (norm > 0) {
    junctionAccel = limitAlong(junctionAccel, jx / norm, maxAccel[0]);
    junctionAccel = limitAlong(junctionAccel, jy / norm, maxAccel[1]);
    junctionAccel = limitAlong(junctionAccel, jz / norm, maxAccel[2]);
    junctionAccel = limitAlong(junctionAccel, je / norm, maxAccel[3]);
  }
  const sinHalf = Math.sqrt(0.5 * (1 - cosTheta));
  const v2 = (junctionAccel * deviation * sinHalf) / (1 - sinHalf);
  return Math.min(v2, prevNominal2, curNominal2);
}

function limitAlong(value: number, component: number, axisMax: number): number {
  if (component === 0 || axisMax <= 0) return value;
  const along = Math.abs(component);
  return value * along > axisMax ? axisMax / along : value;
}

/** What Klipper needs to know about each side of a junction. */
export interface KlipperSide {
  /** XYZ unit vector (first three entries used). */
  unit: Float64Array;
  /** E travel per mm of XYZ travel. */
  eRatio: number;
  /** Junction deviation times the move's acceleration (mm²/s²). */
  deviationAccel: number;
  /** 2 × acceleration × length: the squared-speed change the move allows. */
  delta2: number;
  cruise2: number;
}

/**
 * Klipper's junction: the approximated centripetal speed with a deviation derived from
 * square_corner_velocity, also kept below what a circle touching each move no further than its
 * midpoint allows, and below the extruder's instantaneous corner velocity when the E ratio changes.
 */
export function klipperJunctionSpeed2(prev: KlipperSide, cur: KlipperSide, extruderCornerVelocity: number): number {
  let v2 = Math.min(prev.cruise2, cur.cruise2);
  const eChange = Math.abs(cur.eRatio - prev.eRatio);
  if (eChange > 0) {
    const extruderLimit = extruderCornerVelocity / eChange;
    v2 = Math.min(v2, extruderLimit * extruderLimit);
  }
  const cosTheta = -(cur.unit[0] * prev.unit[0] + cur.unit[1] * prev.unit[1] + cur.unit[2] * prev.unit[2]);
  const sinHalf = Math.sqrt(Math.max(0.5 * (1 - cosTheta), 0));
  const cosHalf = Math.sqrt(Math.max(0.5 * (1 + cosTheta), 0));
  const oneMinusSin = 1 - sinHalf;
  if (oneMinusSin > 0 && cosHalf > 0) {
    const ratio = sinHalf / oneMinusSin;
    const quarterTan = (0.25 * sinHalf) / cosHalf;
    v2 = Math.min(v2, ratio * cur.deviationAccel, ratio * prev.deviationAccel, cur.delta2 * quarterTan, prev.delta2 * quarterTan);
  }
  return v2;
}
