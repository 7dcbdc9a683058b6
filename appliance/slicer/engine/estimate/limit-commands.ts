/**
 * The commands that change machine limits mid-file, read the way the file's firmware reads them:
 * M201 (max acceleration), M203 (max speed), M204 (accelerations), M205 (jerk, minimum feedrates,
 * junction deviation), M566 (RepRapFirmware jerk in mm/min) and Klipper's SET_VELOCITY_LIMIT.
 * Klipper has no M201/M203/M205; they are ignored for it.
 */
import { Letter, type GcodeWords } from './gcode-reader.js';
import type { AxisValues, CommandDialect } from './limits.js';
import type { AccelerationSettings, LimitsPatch, MotionPlanner } from './planner.js';

const MM_PER_MIN = 1 / 60;

/** Per-axis values from X/Y/Z/E words, each scaled; undefined when none is given. */
function axisWords(w: GcodeWords, scale: number, nonNegative = true): Partial<AxisValues> | undefined {
  const out: Partial<AxisValues> = {};
  let any = false;
  for (const [axis, letter] of [
    ['x', Letter.X],
    ['y', Letter.Y],
    ['z', Letter.Z],
    ['e', Letter.E],
  ] as const) {
    const v = w.number(letter);
    if (v === undefined || (nonNegative && v < 0)) continue;
    out[axis] = v * scale;
    any = true;
  }
  return any ? out : undefined;
}

function positive(w: GcodeWords, letter: number): number | undefined {
  const v = w.number(letter);
  return v !== undefined && v > 0 ? v : undefined;
}

/**
 * Applies M201/M203/M204/M205/M566 when `code` is one of them. `unit` is 25.4 after G20, which
 * Marlin applies to M201/M203 values too.
 */
export function applyLimitCommand(code: number, w: GcodeWords, unit: number, planner: MotionPlanner): void {
  const dialect = planner.currentLimits.dialect;
  const lengthScale = dialect === 'marlin' ? unit : 1;
  switch (code) {
    case 201: {
      if (dialect === 'klipper') return;
      const maxAccel = axisWords(w, lengthScale);
      if (maxAccel) planner.setLimits({ maxAccel });
      return;
    }
    case 203: {
      if (dialect === 'klipper') return;
      const maxSpeed = axisWords(w, dialect === 'reprap' ? MM_PER_MIN : lengthScale);
      if (maxSpeed) planner.setLimits({ maxSpeed });
      return;
    }
    case 204:
      planner.setAccelerations(accelerations(w, dialect));
      return;
    case 205: {
      if (dialect === 'klipper') return;
      const patch: LimitsPatch = {};
      const maxJerk = axisWords(w, 1);
      if (maxJerk) patch.maxJerk = maxJerk;
      if (dialect === 'marlin') {
        const minExtrude = w.number(Letter.S);
        const minTravel = w.number(Letter.T);
        if (minExtrude !== undefined && minExtrude >= 0) patch.minExtrudeRate = minExtrude;
        if (minTravel !== undefined && minTravel >= 0) patch.minTravelRate = minTravel;
        // A file that sets a junction deviation was written for firmware that plans with one.
        const deviation = positive(w, Letter.J);
        if (deviation !== undefined) {
          patch.junctionDeviation = deviation;
          patch.junction = 'junction-deviation';
        }
      }
      planner.setLimits(patch);
      return;
    }
    case 566: {
      if (dialect !== 'reprap') return;
      const maxJerk = axisWords(w, MM_PER_MIN);
      if (maxJerk) planner.setLimits({ maxJerk });
      return;
    }
  }
}

/**
 * M204 as each firmware reads it. Marlin: P print, R retract, T travel; the legacy `S` sets print
 * and travel, and with it `T` is the retract acceleration (Marlin 1 / Prusa MK3). RepRapFirmware:
 * P print, T travel. Klipper: S, or else the smaller of P and T, for every toolhead move.
 */
function accelerations(w: GcodeWords, dialect: CommandDialect): AccelerationSettings {
  const s = positive(w, Letter.S);
  const p = positive(w, Letter.P);
  const t = positive(w, Letter.T);
  if (dialect === 'klipper') {
    const accel = s ?? (p !== undefined && t !== undefined ? Math.min(p, t) : undefined);
    return { print: accel, travel: accel };
  }
  if (dialect === 'reprap') return { print: p, travel: t };
  if (s !== undefined) return { print: s, travel: s, retract: t };
  return { print: p, retract: positive(w, Letter.R), travel: t };
}

/**
 * Klipper's SET_VELOCITY_LIMIT: VELOCITY, ACCEL, SQUARE_CORNER_VELOCITY, MINIMUM_CRUISE_RATIO and
 * the older ACCEL_TO_DECEL (turned into the equivalent cruise ratio). Other extended commands are
 * macros whose motion we cannot know.
 */
export function applyExtendedCommand(line: string, planner: MotionPlanner): void {
  const parts = line.split(/\s+/);
  if (parts[0].toUpperCase() !== 'SET_VELOCITY_LIMIT') return;
  const params = new Map<string, number>();
  for (const part of parts.slice(1)) {
    const eq = part.indexOf('=');
    const value = Number(part.slice(eq + 1));
    if (eq > 0 && Number.isFinite(value) && value >= 0) params.set(part.slice(0, eq).toUpperCase(), value);
  }
  const patch: LimitsPatch = {};
  const velocity = params.get('VELOCITY');
  const accel = params.get('ACCEL');
  const scv = params.get('SQUARE_CORNER_VELOCITY');
  const ratio = params.get('MINIMUM_CRUISE_RATIO');
  const accelToDecel = params.get('ACCEL_TO_DECEL');
  if (velocity !== undefined && velocity > 0) patch.maxVelocity = velocity;
  if (accel !== undefined && accel > 0) {
    patch.printAccel = accel;
    patch.travelAccel = accel;
  }
  if (scv !== undefined) patch.squareCornerVelocity = scv;
  if (ratio !== undefined && ratio < 1) patch.minimumCruiseRatio = ratio;
  else if (accelToDecel !== undefined) {
    const base = accel ?? planner.currentLimits.printAccel;
    patch.minimumCruiseRatio = Math.max(0, 1 - Math.min(accelToDecel, base) / base);
  }
  planner.setLimits(patch);
}
