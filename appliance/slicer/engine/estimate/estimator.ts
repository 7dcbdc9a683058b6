/**
 * The G-code interpreter on top of the motion planner: feeds it the moves a file describes, with
 * the modes, offsets, limits and accelerations the file sets along the way, and collects what a
 * print report needs (time, layers, filament, counts, extent). G-code may arrive in chunks of any size.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { CommandLetter, GcodeReader, type GcodeWords, Letter, type GcodeSink } from './gcode-reader.js';
import { DEFAULT_FIRMWARE_RETRACTION, type FirmwareRetraction, type MachineLimits } from './limits.js';
import { FeatureTracker } from './feature-tracker.js';
import { LayerTracker } from './layer-tracker.js';
import { applyExtendedCommand, applyLimitCommand } from './limit-commands.js';
import { MotionPlanner } from './planner.js';
import { length2 } from '../geometry/polygon.js';

export interface EstimatorOptions {
  /** G10/G11 retraction per extruder (the last entry serves extruders beyond the list). */
  firmwareRetraction?: readonly FirmwareRetraction[];
}

export type Bounds = [minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number];

export interface EstimateResult {
  totalS: number;
  /** Start time of each layer in seconds from the start of the file. */
  layerStartS: number[];
  /** Whether layers came from the slicer's layer-change comments or from Z rising under extrusion. */
  layerSource: 'comments' | 'z';
  /** Seconds per feature type named by the slicer's `;TYPE:` / `; FEATURE:` comments ("Other" before any). */
  featureS: Record<string, number>;
  /** Filament pushed per extruder in mm, retracts subtracted. */
  filamentMm: number[];
  /** Motion commands that moved the machine (an arc counts once). */
  moves: number;
  /** Moves that extruded while the head moved. */
  extrusions: number;
  /** Extent of extruding moves in file coordinates, or null when nothing was extruded. */
  bounds: Bounds | null;
  lines: number;
}

/* Marlin's feedrate before any F word (1500 mm/min). */
const INITIAL_FEEDRATE_MM_S = 25;
const INCH = 25.4;
/* Arcs are cut into chords whose sagitta stays within this, each 0.1 to 1 mm long. */
const ARC_TOLERANCE = 0.02;
const ARC_MIN_SEGMENT = 0.1;
const ARC_MAX_SEGMENT = 1;
const AXES = [Letter.X, Letter.Y, Letter.Z, Letter.E] as const;

/** What one planned move did, ordered so that the most of several is the larger. */
const Motion = { None: 0, Moved: 1, Extruded: 2 } as const;
type Motion = (typeof Motion)[keyof typeof Motion];

function most(a: Motion, b: Motion): Motion {
  return a > b ? a : b;
}

export class GcodeEstimator implements GcodeSink {
  private readonly planner: MotionPlanner;
  private readonly reader: GcodeReader;
  private readonly layers = new LayerTracker();
  private readonly features = new FeatureTracker();
  private readonly retraction: readonly FirmwareRetraction[];

  /** Machine position as the planner knows it; the file's coordinates are this minus `offset` (G92). */
  private readonly pos = new Float64Array(4);
  private readonly offset = new Float64Array(4);
  private readonly target = new Float64Array(4);
  private feedrate = INITIAL_FEEDRATE_MM_S;
  private speedFactor = 1;
  private savedSpeedFactor = 1;
  private unit = 1;
  private relative = false;
  private relativeE = false;
  private extruder = 0;
  private retracted = false;
  private finished = false;

  private readonly filament: number[] = [0];
  private moves = 0;
  private extrusions = 0;
  private extruded = false;
  private readonly min = new Float64Array([Infinity, Infinity, Infinity]);
  private readonly max = new Float64Array([-Infinity, -Infinity, -Infinity]);

  constructor(limits: MachineLimits, options: EstimatorOptions = {}) {
    this.retraction = options.firmwareRetraction && options.firmwareRetraction.length > 0 ? options.firmwareRetraction : DEFAULT_FIRMWARE_RETRACTION;
    this.planner = new MotionPlanner(limits, { onMarker: (tag, timeS) => this.resolved(tag, timeS) });
    this.reader = new GcodeReader(this);
  }

  /** Reads more of the file: text, or bytes as read from disk. */
  feed(textChunk: string | Uint8Array): void {
    if (this.finished) throw new AppError(ErrorCode.internal, 500, 'the estimator was already finished');
    this.reader.feed(textChunk);
  }

  finish(): EstimateResult {
    if (!this.finished) {
      this.reader.end();
      this.finished = true;
    }
    const { totalS } = this.planner.finish();
    return {
      totalS,
      layerStartS: this.layers.starts(),
      layerSource: this.layers.source(),
      featureS: this.features.finish(totalS),
      filamentMm: this.filament.slice(),
      moves: this.moves,
      extrusions: this.extrusions,
      bounds: this.extruded ? [this.min[0], this.min[1], this.min[2], this.max[0], this.max[1], this.max[2]] : null,
      lines: this.reader.lines,
    };
  }

  command(letter: number, code: number, w: GcodeWords): void {
    if (letter === CommandLetter.G) this.gCommand(code, w);
    else if (letter === CommandLetter.M) this.mCommand(code, w);
    else if (letter === CommandLetter.T && Number.isInteger(code) && code >= 0 && code < 256) this.selectExtruder(code);
  }

  comment(bytes: Uint8Array, start: number, end: number): void {
    if (this.layers.isLayerComment(bytes, start, end)) {
      this.planner.marker(LayerTracker.COMMENT_TAG);
      return;
    }
    const feature = FeatureTracker.tagOf(bytes, start, end);
    if (feature !== null) this.planner.marker(feature);
  }

  private resolved(tag: string, timeS: number): void {
    if (!this.features.resolved(tag, timeS)) this.layers.resolved(tag, timeS);
  }

  extended(line: string): void {
    applyExtendedCommand(line, this.planner);
  }

  private gCommand(code: number, w: GcodeWords): void {
    switch (code) {
      case 0:
      case 1:
        this.readFeedrate(w);
        this.readTarget(w);
        this.count(this.moveTo());
        break;
      case 2:
      case 3:
        this.readFeedrate(w);
        this.arc(w, code === 2);
        break;
      case 4: {
        const seconds = w.number(Letter.S);
        const millis = w.number(Letter.P);
        this.planner.dwell(Math.max(0, seconds ?? (millis ?? 0) / 1000));
        break;
      }
      case 10:
        // RepRapFirmware's G10 with P/L/R/S sets tool offsets or temperatures, not a retraction.
        if (this.planner.currentLimits.dialect === 'reprap' && (w.has(Letter.P) || w.has(Letter.L) || w.has(Letter.R) || w.has(Letter.S))) break;
        this.firmwareRetract(true);
        break;
      case 11:
        this.firmwareRetract(false);
        break;
      case 20:
        this.unit = INCH;
        break;
      case 21:
        this.unit = 1;
        break;
      case 28:
        this.home(w);
        break;
      case 90:
        this.relative = false;
        break;
      case 91:
        this.relative = true;
        break;
      case 92:
        this.setPosition(w);
        break;
    }
  }

  private mCommand(code: number, w: GcodeWords): void {
    switch (code) {
      case 82:
        this.relativeE = false;
        break;
      case 83:
        this.relativeE = true;
        break;
      case 220: {
        if (w.has(Letter.B)) this.savedSpeedFactor = this.speedFactor;
        const pct = w.number(Letter.S);
        if (pct !== undefined && pct > 0) this.speedFactor = pct / 100;
        if (w.has(Letter.R)) this.speedFactor = this.savedSpeedFactor;
        break;
      }
      case 400:
        this.planner.dwell(0);
        break;
      default:
        applyLimitCommand(code, w, this.unit, this.planner);
    }
  }

  private readFeedrate(w: GcodeWords): void {
    const f = w.number(Letter.F);
    // Marlin ignores F0 and negative feedrates.
    if (f !== undefined && f > 0) this.feedrate = (f * this.unit) / 60;
  }

  /** The absolute machine target of a G0/G1/G2/G3, into `target`. */
  private readTarget(w: GcodeWords): void {
    for (let a = 0; a < 4; a++) {
      const v = w.number(AXES[a]);
      if (v === undefined) this.target[a] = this.pos[a];
      else if (this.relative || (a === 3 && this.relativeE)) this.target[a] = this.pos[a] + v * this.unit;
      else this.target[a] = v * this.unit + this.offset[a];
    }
  }

  /** Counts one motion command by the most it did: moved, or moved while extruding. */
  private count(motion: Motion): void {
    if (motion === Motion.None) return;
    this.moves++;
    if (motion === Motion.Extruded) this.extrusions++;
  }

  /**
   * Plans one straight move to `target` and accounts for its filament, extent and layer. The
   * target travels in a typed array: this runs for every move, and numbers passed as arguments
   * would be boxed.
   */
  private moveTo(): Motion {
    const { pos, target } = this;
    const dx = target[0] - pos[0];
    const dy = target[1] - pos[1];
    const dz = target[2] - pos[2];
    const de = target[3] - pos[3];
    // A move along Z always moves, so its marker can go first: a layer starts where its Z move starts.
    if (dz !== 0) this.layers.zChanged(this.planner);
    if (!this.planner.move(target[0], target[1], target[2], target[3], this.feedrate * this.speedFactor)) return Motion.None;
    this.filament[this.extruder] += de;
    let motion: Motion = Motion.Moved;
    if (de > 0 && (dx !== 0 || dy !== 0 || dz !== 0)) {
      motion = Motion.Extruded;
      this.extruded = true;
      this.include(pos);
      this.include(target);
      this.layers.extrudedAt(target[2] - this.offset[2]);
    }
    pos.set(target);
    return motion;
  }

  /** Grows the extent by a machine position, in file coordinates. */
  private include(point: Float64Array): void {
    const { min, max, offset } = this;
    for (let a = 0; a < 3; a++) {
      const v = point[a] - offset[a];
      if (v < min[a]) min[a] = v;
      if (v > max[a]) max[a] = v;
    }
  }

  /** G2 (clockwise) / G3 in the XY plane, by centre offset (I, J) or radius (R), cut into chords. */
  private arc(w: GcodeWords, clockwise: boolean): void {
    this.readTarget(w);
    const [sx, sy, sz, se] = this.pos;
    const [ex, ey, ez, ee] = this.target;
    const r = w.number(Letter.R);
    let cx: number;
    let cy: number;
    if (r !== undefined) {
      const dx = ex - sx;
      const dy = ey - sy;
      const chord = length2(dx, dy);
      const given = Math.abs(r * this.unit);
      if (chord === 0 || given === 0) return;
      // A radius shorter than half the chord is taken as a half circle.
      const h = Math.sqrt(Math.max(0, given * given - (chord * chord) / 4));
      // Positive R is the short way round: the centre lies left of the chord for G3, right for G2.
      const side = clockwise !== r < 0 ? -1 : 1;
      cx = (sx + ex) / 2 - (side * h * dy) / chord;
      cy = (sy + ey) / 2 + (side * h * dx) / chord;
    } else {
      const i = w.number(Letter.I);
      const j = w.number(Letter.J);
      if (i === undefined && j === undefined) return;
      cx = sx + (i ?? 0) * this.unit;
      cy = sy + (j ?? 0) * this.unit;
    }
    const radius = length2(sx - cx, sy - cy);
    if (radius === 0) return;
    const start = Math.atan2(sy - cy, sx - cx);
    let sweep = Math.atan2(ey - cy, ex - cx) - start;
    if (clockwise) {
      if (sweep >= 0) sweep -= 2 * Math.PI;
    } else if (sweep <= 0) {
      sweep += 2 * Math.PI;
    }
    const segment = Math.min(ARC_MAX_SEGMENT, Math.max(ARC_MIN_SEGMENT, Math.sqrt(8 * radius * ARC_TOLERANCE)));
    const count = Math.max(1, Math.ceil((Math.abs(sweep) * radius) / segment));
    const { target } = this;
    let motion: Motion = Motion.None;
    for (let k = 1; k <= count; k++) {
      if (k === count) {
        target[0] = ex;
        target[1] = ey;
        target[2] = ez;
        target[3] = ee;
      } else {
        const t = k / count;
        const angle = start + sweep * t;
        target[0] = cx + radius * Math.cos(angle);
        target[1] = cy + radius * Math.sin(angle);
        target[2] = sz + (ez - sz) * t;
        target[3] = se + (ee - se) * t;
      }
      motion = most(motion, this.moveTo());
    }
    this.count(motion);
  }

  /** G28 homes the named axes (all of X, Y, Z when none is named): a move to 0 that also clears their G92 offset. */
  private home(w: GcodeWords): void {
    const all = !w.has(Letter.X) && !w.has(Letter.Y) && !w.has(Letter.Z);
    const target = this.target;
    target.set(this.pos);
    for (let a = 0; a < 3; a++) {
      if (all || w.has(AXES[a])) {
        target[a] = 0;
        this.offset[a] = 0;
      }
    }
    this.count(this.moveTo());
  }

  /** G92: the machine stays, the file's coordinates change. Without words, every axis becomes 0. */
  private setPosition(w: GcodeWords): void {
    const none = w.present === 0;
    for (let a = 0; a < 4; a++) {
      const v = none ? 0 : w.number(AXES[a]);
      if (v !== undefined) this.offset[a] = this.pos[a] - v * this.unit;
    }
  }

  private selectExtruder(index: number): void {
    this.extruder = index;
    while (this.filament.length <= index) this.filament.push(0);
  }

  /**
   * Firmware retraction moves the extruder by the configured length without changing the file's
   * E coordinate, so the offset absorbs the move. A second G10 (or a G11 without G10) does nothing.
   */
  private firmwareRetract(retract: boolean): void {
    if (retract === this.retracted) return;
    const r = this.retraction[Math.min(this.extruder, this.retraction.length - 1)];
    const distance = retract ? -r.length : r.length + r.extraOnUnretract;
    const speed = retract ? r.speed : r.unretractSpeed;
    this.retracted = retract;
    if (distance === 0 || !(speed > 0)) return;
    const { pos } = this;
    if (this.planner.move(pos[0], pos[1], pos[2], pos[3] + distance, speed)) {
      pos[3] += distance;
      this.offset[3] += distance;
      this.filament[this.extruder] += distance;
    }
  }
}
