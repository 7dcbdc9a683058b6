/**
 * The motion state of the firmware: logical position (what M114 reports), G92 offsets, absolute or
 * relative modes, the sticky feed rate, speed and flow factors, homing, soft endstops, cold
 * extrusion prevention and cancelled objects (M486). It turns a move command into a plan: the time
 * the move takes (distance / feed rate, limited per axis by the maximum feed rates; acceleration is
 * not modelled) and the filament it really pushes through the active tool.
 */
import type { GcodeCommand } from './gcode-command.js';

export const AXES = ['X', 'Y', 'Z', 'E'] as const;
export type Axis = (typeof AXES)[number];
export type LinearAxis = Exclude<Axis, 'E'>;
export const LINEAR_AXES: readonly LinearAxis[] = ['X', 'Y', 'Z'];

export type AxisValues = Record<Axis, number>;

export interface MachineGeometry {
  /** Soft endstop maxima in mm (the minima are 0). */
  bedSize: Record<LinearAxis, number>;
  stepsPerMm: AxisValues;
  /** M203 defaults in mm/s. */
  maxFeedrate: AxisValues;
  homingFeedrate: Record<LinearAxis, number>;
}

export const DEFAULT_GEOMETRY: MachineGeometry = {
  bedSize: { X: 220, Y: 220, Z: 250 },
  stepsPerMm: { X: 80, Y: 80, Z: 400, E: 93 },
  maxFeedrate: { X: 300, Y: 300, Z: 5, E: 25 },
  homingFeedrate: { X: 50, Y: 50, Z: 4 },
};

/** Marlin's default feed rate before any F word: 1500 mm/min. */
const DEFAULT_FEEDRATE_MM_MIN = 1500;
export const DEFAULT_MIN_EXTRUDE_TEMP = 170;
/** Seconds the bump (approach, back off, approach slowly) of one axis adds to homing. */
const HOMING_BUMP_SECONDS = 0.8;

export interface MovePlan {
  durationMs: number;
  /** Filament (mm) the move pushes through `tool`, after flow; 0 when cold or skipped. */
  filament: number;
  tool: number;
  coldExtrusionPrevented: boolean;
}

export class Motion {
  readonly geometry: MachineGeometry;
  readonly extruders: number;
  /** Logical position, as M114 reports it. */
  position: AxisValues = { X: 0, Y: 0, Z: 0, E: 0 };
  /** native = logical + offset (G92 moves the logical origin). */
  offset: AxisValues = { X: 0, Y: 0, Z: 0, E: 0 };
  maxFeedrate: AxisValues;
  homed: Record<LinearAxis, boolean> = { X: false, Y: false, Z: false };
  relativeXYZ = false;
  relativeE = false;
  feedrateMmMin = DEFAULT_FEEDRATE_MM_MIN;
  feedratePercent = 100;
  /** M220 B saves the speed factor, M220 R restores it. */
  savedFeedratePercent = 100;
  flowPercent: number[];
  activeTool = 0;
  allowColdExtrusion = false;
  minExtrudeTemp = DEFAULT_MIN_EXTRUDE_TEMP;
  /** M486: the object being printed (-1: none) and the cancelled ones. */
  currentObject = -1;
  cancelledObjects = new Set<number>();

  constructor(geometry: MachineGeometry, extruders: number) {
    this.geometry = geometry;
    this.extruders = extruders;
    this.maxFeedrate = { ...geometry.maxFeedrate };
    this.flowPercent = Array.from({ length: extruders }, () => 100);
  }

  /** Where a G0/G1/G2/G3 goes: given axes in the current mode, missing ones stay; soft endstops apply. */
  destination(cmd: GcodeCommand): AxisValues {
    const target = { ...this.position };
    for (const axis of AXES) {
      const value = cmd.value(axis);
      if (value === undefined) continue;
      const relative = axis === 'E' ? this.relativeE : this.relativeXYZ;
      target[axis] = relative ? this.position[axis] + value : value;
    }
    for (const axis of LINEAR_AXES) {
      if (!this.homed[axis]) continue;
      const native = target[axis] + this.offset[axis];
      const clamped = Math.min(Math.max(native, 0), this.geometry.bedSize[axis]);
      target[axis] = clamped - this.offset[axis];
    }
    const feed = cmd.value('F');
    if (feed !== undefined && feed > 0) this.feedrateMmMin = feed;
    return target;
  }

  /** Plans a straight move to `target` and makes it the new position. */
  linearMove(target: AxisValues, hotendTemperature: number): MovePlan {
    const d = LINEAR_AXES.map((axis) => target[axis] - this.position[axis]);
    return this.commit(target, Math.hypot(...d), hotendTemperature);
  }

  /**
   * Plans an arc (G2 clockwise, G3 counter-clockwise) in the XY plane with the centre given by I/J
   * offsets or by the radius R; Z and E change linearly along it.
   */
  arcMove(target: AxisValues, cmd: GcodeCommand, clockwise: boolean, hotendTemperature: number): MovePlan | null {
    const start = this.position;
    let i = cmd.value('I') ?? 0;
    let j = cmd.value('J') ?? 0;
    const r = cmd.value('R');
    if (r !== undefined) {
      const dx = target.X - start.X;
      const dy = target.Y - start.Y;
      const chord = Math.hypot(dx, dy);
      if (r === 0 || chord === 0 || chord > 2 * Math.abs(r)) return null;
      // The centre lies on the perpendicular bisector of the chord, on the side the direction and
      // the sign of R choose.
      const side = clockwise !== r < 0 ? -1 : 1;
      const h = Math.sqrt(r * r - (chord / 2) ** 2);
      i = dx / 2 + (side * h * -dy) / chord;
      j = dy / 2 + (side * h * dx) / chord;
    } else if (i === 0 && j === 0) {
      return null;
    }
    const radius = Math.hypot(i, j);
    const startAngle = Math.atan2(-j, -i);
    const endAngle = Math.atan2(target.Y - (start.Y + j), target.X - (start.X + i));
    let sweep = endAngle - startAngle;
    if (clockwise) {
      if (sweep >= 0) sweep -= 2 * Math.PI;
    } else if (sweep <= 0) {
      sweep += 2 * Math.PI;
    }
    const length = Math.hypot(radius * Math.abs(sweep), target.Z - start.Z);
    return this.commit(target, length, hotendTemperature);
  }

  /** Homes the given axes (all when none is given); returns the simulated milliseconds it takes. */
  home(axes: readonly LinearAxis[]): number {
    let seconds = 0;
    for (const axis of axes.length > 0 ? axes : LINEAR_AXES) {
      const travel = Math.abs(this.position[axis] + this.offset[axis]);
      seconds += travel / this.geometry.homingFeedrate[axis] + HOMING_BUMP_SECONDS;
      this.position[axis] = 0;
      this.offset[axis] = 0;
      this.homed[axis] = true;
    }
    return seconds * 1000;
  }

  /** G92: the current native position gets new logical coordinates. */
  setPosition(values: Partial<AxisValues>): void {
    for (const axis of AXES) {
      const value = values[axis];
      if (value === undefined) continue;
      this.offset[axis] += this.position[axis] - value;
      this.position[axis] = value;
    }
  }

  /** Step counts of the native position (the `Count` part of M114). */
  counts(): Record<LinearAxis, number> {
    const steps = (axis: LinearAxis) => Math.round((this.position[axis] + this.offset[axis]) * this.geometry.stepsPerMm[axis]);
    return { X: steps('X'), Y: steps('Y'), Z: steps('Z') };
  }

  private commit(target: AxisValues, pathLength: number, hotendTemperature: number): MovePlan {
    const eDelta = target.E - this.position.E;
    const distance = pathLength > 1e-6 ? pathLength : Math.abs(eDelta);
    let speed = (this.feedrateMmMin / 60) * (this.feedratePercent / 100);
    if (distance > 0) {
      for (const axis of AXES) {
        const axisDistance = Math.abs(axis === 'E' ? eDelta : target[axis] - this.position[axis]);
        const axisSpeed = (speed * axisDistance) / distance;
        if (axisSpeed > this.maxFeedrate[axis]) speed *= this.maxFeedrate[axis] / axisSpeed;
      }
    }
    const tooCold = eDelta !== 0 && !this.allowColdExtrusion && hotendTemperature < this.minExtrudeTemp;
    const skipped = this.currentObject >= 0 && this.cancelledObjects.has(this.currentObject);
    this.position = { ...target };
    return {
      durationMs: distance > 0 && speed > 0 ? (distance / speed) * 1000 : 0,
      filament: tooCold || skipped ? 0 : eDelta * (this.flowPercent[this.activeTool] / 100),
      tool: this.activeTool,
      coldExtrusionPrevented: tooCold,
    };
  }
}
