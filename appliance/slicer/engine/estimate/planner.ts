/**
 * The motion planner: turns a stream of absolute moves into time, the way the firmware's planner
 * would move the machine. Each move becomes a block with a cruise speed and an acceleration
 * limited per axis (Marlin's projection of the per-axis limits onto the move), a junction speed
 * with the previous move (classic jerk, junction deviation or Klipper's model), and a trapezoidal
 * speed profile once the look-ahead passes have run. Numbers are mm, mm/s and s.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { BlockQueue } from './block-queue.js';
import {
  deviationJunctionSpeed2,
  JERK_NOMINAL,
  JERK_SAFE,
  jerkJunctionSpeed,
  jerkSafeSpeed,
  klipperJunctionSpeed2,
  type KlipperSide,
} from './junction.js';
import { copyLimits, type AxisValues, type MachineLimits } from './limits.js';

export interface AccelerationSettings {
  print?: number;
  retract?: number;
  travel?: number;
}

/** A change to some limits; per-axis values may be given one axis at a time. */
export type LimitsPatch = {
  [K in keyof MachineLimits]?: MachineLimits[K] extends AxisValues ? Partial<AxisValues> : MachineLimits[K];
};

export interface PlannerMarker {
  tag: string;
  timeS: number;
}

export interface PlannerResult {
  totalS: number;
  /** Markers in stream order; empty when the planner was given `onMarker`. */
  markers: PlannerMarker[];
}

export interface PlannerOptions {
  /** Blocks held for look-ahead (a power of two, at least 16). Memory is fixed by it. Default 1024. */
  lookahead?: number;
  /** Receives each marker as soon as its time is known, instead of keeping it for `finish()`. */
  onMarker?: (tag: string, timeS: number) => void;
}

const DEFAULT_LOOKAHEAD = 1024;
const SQRT2_MINUS_1 = Math.SQRT2 - 1;

function invalid(message: string): AppError {
  return new AppError(ErrorCode.invalidSetting, 400, message);
}

function checkPositive(name: string, value: number): void {
  if (!(value > 0) || !Number.isFinite(value)) throw invalid(`${name} must be a positive number, got ${value}`);
}

export class MotionPlanner {
  private limits: MachineLimits;
  private readonly maxSpeed = new Float64Array(4);
  private readonly maxAccel = new Float64Array(4);
  private readonly maxJerk = new Float64Array(4);

  private readonly queue: BlockQueue;
  private readonly times: Float64Array;
  private readonly onMarker: ((tag: string, timeS: number) => void) | undefined;

  private readonly request = new Float64Array(5);
  private readonly position = new Float64Array(4);
  private readonly delta = new Float64Array(4);

  /* The previous block, as the junction rules need it (axis speeds, then the jerk model's nominal and safe speed). */
  private hasPrevious = false;
  private previousSpeed = new Float64Array(6);
  private currentSpeed = new Float64Array(6);
  private previousUnit = new Float64Array(4);
  private currentUnit = new Float64Array(4);
  private previousNominal = 0;
  private previousExtruderOnly = false;
  private previousSide: KlipperSide = newKlipperSide();
  private currentSide: KlipperSide = newKlipperSide();

  private totalS = 0;
  private pushed = 0;
  private committed = 0;
  private readonly markerBlock: number[] = [];
  private readonly markerTag: string[] = [];
  private markerHead = 0;
  private readonly resolved: PlannerMarker[] = [];

  constructor(limits: MachineLimits, options: PlannerOptions = {}) {
    const lookahead = options.lookahead ?? DEFAULT_LOOKAHEAD;
    if (!Number.isInteger(lookahead) || lookahead < 16 || (lookahead & (lookahead - 1)) !== 0) {
      throw invalid(`look-ahead must be a power of two of at least 16, got ${lookahead}`);
    }
    this.applyLimits(limits);
    this.limits = copyLimits(limits);
    this.queue = new BlockQueue(lookahead, limits.junction === 'klipper');
    this.times = new Float64Array(lookahead);
    this.onMarker = options.onMarker;
  }

  /** Declares where the machine is without moving it (G92, or the start of a layer). */
  setPosition(x: number, y: number, z: number, e: number): void {
    this.position[0] = x;
    this.position[1] = y;
    this.position[2] = z;
    this.position[3] = e;
  }

  /** Changes the current accelerations (M204); per-axis limits still apply on top. */
  setAccelerations(accel: AccelerationSettings): void {
    if (accel.print !== undefined) checkPositive('print acceleration', accel.print);
    if (accel.retract !== undefined) checkPositive('retract acceleration', accel.retract);
    if (accel.travel !== undefined) checkPositive('travel acceleration', accel.travel);
    const { limits } = this;
    limits.printAccel = accel.print ?? limits.printAccel;
    limits.retractAccel = accel.retract ?? limits.retractAccel;
    limits.travelAccel = accel.travel ?? limits.travelAccel;
  }

  /** Changes limits for the moves that follow (M201/M203/M205, SET_VELOCITY_LIMIT). */
  setLimits(patch: LimitsPatch): void {
    if (
      patch.junction !== undefined &&
      patch.junction !== this.limits.junction &&
      (patch.junction === 'klipper' || this.limits.junction === 'klipper')
    ) {
      throw invalid('the planner cannot switch to or from the Klipper junction model mid-stream');
    }
    const { maxSpeed, maxAccel, maxJerk, ...scalars } = patch;
    const merged: MachineLimits = {
      ...this.limits,
      ...(scalars as Partial<MachineLimits>),
      maxSpeed: { ...this.limits.maxSpeed, ...maxSpeed },
      maxAccel: { ...this.limits.maxAccel, ...maxAccel },
      maxJerk: { ...this.limits.maxJerk, ...maxJerk },
    };
    this.applyLimits(merged);
    // What the previous move kept for the junction depends on the model: after a switch
    // (M205 J, normally in the start G-code) the next move starts as if from standstill.
    if (merged.junction !== this.limits.junction) this.hasPrevious = false;
    this.limits = merged;
  }

  /** The limits and accelerations in force now. */
  get currentLimits(): Readonly<MachineLimits> {
    return this.limits;
  }

  /**
   * Moves to the absolute target at the requested feedrate. Returns false (and plans nothing) when
   * the target is where the machine already is.
   */
  move(x: number, y: number, z: number, e: number, feedrateMmS: number): boolean {
    // Small enough to be inlined where it is called; the numbers then reach the planning code
    // through a typed array instead of as boxed arguments.
    const request = this.request;
    request[0] = x;
    request[1] = y;
    request[2] = z;
    request[3] = e;
    request[4] = feedrateMmS;
    return this.planRequest();
  }

  private planRequest(): boolean {
    const { position, delta, limits, request } = this;
    delta[0] = request[0] - position[0];
    delta[1] = request[1] - position[1];
    delta[2] = request[2] - position[2];
    delta[3] = request[3] - position[3];
    if (delta[0] === 0 && delta[1] === 0 && delta[2] === 0 && delta[3] === 0) return false;
    const feedrateMmS = request[4];
    if (!(feedrateMmS > 0) || !Number.isFinite(feedrateMmS)) throw invalid(`feedrate must be a positive number, got ${feedrateMmS}`);
    position[0] = request[0];
    position[1] = request[1];
    position[2] = request[2];
    position[3] = request[3];

    const xyz2 = delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2];
    const extruderOnly = xyz2 === 0;
    const length = extruderOnly ? Math.abs(delta[3]) : Math.sqrt(xyz2);
    const extrudes = delta[3] !== 0;
    let feedrate = Math.max(feedrateMmS, extrudes ? limits.minExtrudeRate : limits.minTravelRate);
    if (limits.maxVelocity > 0 && !extruderOnly && feedrate > limits.maxVelocity) feedrate = limits.maxVelocity;

    // Per-axis speed and acceleration limits, projected onto the move.
    const speed = this.currentSpeed;
    const { maxSpeed, maxAccel } = this;
    const inverse = 1 / length;
    let speedFactor = 1;
    let baseAccel: number;
    if (extruderOnly) baseAccel = limits.retractAccel;
    else if (extrudes) baseAccel = limits.printAccel;
    else baseAccel = limits.travelAccel;
    let accel = baseAccel;
    for (let a = 0; a < 4; a++) {
      const d = delta[a];
      speed[a] = d * inverse * feedrate;
      if (d === 0) continue;
      const axisSpeed = Math.abs(speed[a]);
      if (maxSpeed[a] > 0 && axisSpeed * speedFactor > maxSpeed[a]) speedFactor = maxSpeed[a] / axisSpeed;
      const share = Math.abs(d) * inverse;
      if (maxAccel[a] > 0 && accel * share > maxAccel[a]) accel = maxAccel[a] / share;
    }
    const nominal = feedrate * speedFactor;
    if (speedFactor < 1) for (let a = 0; a < 4; a++) speed[a] *= speedFactor;
    const nominal2 = nominal * nominal;

    // Each junction model in a method of its own: the models not in use stay out of this one,
    // which is then small enough to be optimised early.
    let maxEntry2 = 0;
    let rest2 = 0;
    let smoothDelta2 = 0;
    switch (limits.junction) {
      case 'jerk':
        maxEntry2 = this.jerkEntry2(nominal);
        rest2 = speed[JERK_SAFE] * speed[JERK_SAFE];
        break;
      case 'junction-deviation':
        maxEntry2 = this.deviationEntry2(xyz2, accel, nominal2);
        break;
      case 'klipper':
        maxEntry2 = this.klipperEntry2(inverse, extruderOnly, baseAccel, accel, length, nominal2);
        smoothDelta2 = 2 * Math.min(accel, baseAccel * (1 - limits.minimumCruiseRatio)) * length;
        break;
    }

    this.queue.push(length, accel, nominal2, maxEntry2, rest2, smoothDelta2);
    this.pushed++;
    this.swapPrevious();
    this.previousNominal = nominal;
    this.previousExtruderOnly = extruderOnly;
    this.hasPrevious = true;
    if (this.queue.full) this.commit(this.queue.capacity >> 1);
    return true;
  }

  /** Classic jerk: the squared entry speed of the move now in `currentSpeed`, where its nominal and safe speeds are kept. */
  private jerkEntry2(nominal: number): number {
    const speed = this.currentSpeed;
    const safe = jerkSafeSpeed(speed, nominal, this.maxJerk);
    speed[JERK_NOMINAL] = nominal;
    speed[JERK_SAFE] = safe;
    const junction = this.hasPrevious ? jerkJunctionSpeed(this.previousSpeed, speed, this.maxJerk) : safe;
    return junction * junction;
  }

  /** Junction deviation: the squared entry speed of the move now in `delta`. */
  private deviationEntry2(xyz2: number, accel: number, nominal2: number): number {
    const { delta, limits } = this;
    const unit = this.currentUnit;
    const norm = 1 / Math.sqrt(xyz2 + delta[3] * delta[3]);
    for (let a = 0; a < 4; a++) unit[a] = delta[a] * norm;
    if (!this.hasPrevious) return 0;
    return deviationJunctionSpeed2(
      this.previousUnit,
      unit,
      accel,
      this.maxAccel,
      limits.junctionDeviation,
      this.previousNominal * this.previousNominal,
      nominal2,
    );
  }

  /** Klipper: the squared entry speed of the move now in `delta` (0 next to an extruder-only move). */
  private klipperEntry2(inverse: number, extruderOnly: boolean, baseAccel: number, accel: number, length: number, nominal2: number): number {
    const { delta, limits } = this;
    const side = this.currentSide;
    for (let a = 0; a < 3; a++) side.unit[a] = delta[a] * inverse;
    side.eRatio = extruderOnly ? 0 : delta[3] * inverse;
    side.deviationAccel = ((limits.squareCornerVelocity * limits.squareCornerVelocity * SQRT2_MINUS_1) / baseAccel) * accel;
    side.delta2 = 2 * accel * length;
    side.cruise2 = nominal2;
    // Extruder-only moves are not toolhead moves: Klipper stops before and after them.
    if (this.hasPrevious && !extruderOnly && !this.previousExtruderOnly) {
      return klipperJunctionSpeed2(this.previousSide, side, limits.extruderCornerVelocity);
    }
    return 0;
  }

  /** Stops the machine and waits (G4). The next move starts from standstill. */
  dwell(seconds: number): void {
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw invalid(`dwell must be a non-negative number of seconds, got ${seconds}`);
    this.commit(this.queue.count);
    this.totalS += seconds;
    this.hasPrevious = false;
  }

  /** Records the time at this point of the stream; resolved once the moves before it are planned. */
  marker(tag: string): void {
    this.markerBlock.push(this.pushed);
    this.markerTag.push(tag);
  }

  /** Plans and times everything given so far, ending at rest. */
  finish(): PlannerResult {
    this.commit(this.queue.count);
    this.hasPrevious = false;
    this.resolveMarkers();
    return { totalS: this.totalS, markers: this.resolved.slice() };
  }

  private commit(count: number): void {
    if (count > 0) {
      this.queue.commit(count, this.times);
      const { times, markerBlock } = this;
      for (let j = 0; j < count; j++) {
        // Markers are a few per layer: the blocks between them add up without a call each.
        if (this.markerHead < markerBlock.length && markerBlock[this.markerHead] <= this.committed) this.resolveMarkers();
        this.totalS += times[j];
        this.committed++;
      }
    }
    this.resolveMarkers();
  }

  private resolveMarkers(): void {
    const { markerBlock, markerTag } = this;
    while (this.markerHead < markerBlock.length && markerBlock[this.markerHead] <= this.committed) {
      const tag = markerTag[this.markerHead++];
      if (this.onMarker) this.onMarker(tag, this.totalS);
      else this.resolved.push({ tag, timeS: this.totalS });
    }
    if (this.markerHead > 256 && this.markerHead * 2 > markerBlock.length) {
      markerBlock.splice(0, this.markerHead);
      markerTag.splice(0, this.markerHead);
      this.markerHead = 0;
    }
  }

  /** The move just planned becomes the previous one; its arrays are reused for the next. */
  private swapPrevious(): void {
    const speed = this.previousSpeed;
    this.previousSpeed = this.currentSpeed;
    this.currentSpeed = speed;
    const unit = this.previousUnit;
    this.previousUnit = this.currentUnit;
    this.currentUnit = unit;
    const side = this.previousSide;
    this.previousSide = this.currentSide;
    this.currentSide = side;
  }

  private applyLimits(limits: MachineLimits): void {
    for (const [name, value] of [
      ['print acceleration', limits.printAccel],
      ['retract acceleration', limits.retractAccel],
      ['travel acceleration', limits.travelAccel],
    ] as const) {
      checkPositive(name, value);
    }
    if (!(limits.minimumCruiseRatio >= 0 && limits.minimumCruiseRatio < 1)) {
      throw invalid(`minimum cruise ratio must be at least 0 and below 1, got ${limits.minimumCruiseRatio}`);
    }
    fill(this.maxSpeed, limits.maxSpeed);
    fill(this.maxAccel, limits.maxAccel);
    fill(this.maxJerk, limits.maxJerk);
  }
}

function newKlipperSide(): KlipperSide {
  return { unit: new Float64Array(4), eRatio: 0, deviationAccel: 0, delta2: 0, cruise2: 0 };
}

function fill(target: Float64Array, values: AxisValues): void {
  target[0] = values.x;
  target[1] = values.y;
  target[2] = values.z;
  target[3] = values.e;
}
