/** The writer's view of the estimator: one layer's time for cooling, the whole print for M73 and the footer. */
import type { PrintConfig } from '../profiles/schema.js';
import { limitsFromConfig, type MachineLimits } from './estimate/limits.js';
import { estimateMoves, MOVE_STRIDE as PLAN_STRIDE } from './estimate/layer-time.js';
import { MotionPlanner, type PlannerResult } from './estimate/planner.js';
import { MOVE_STRIDE, MoveKind } from './gcode/layer-buffer.js';
import type { PlannerSink } from './gcode/writer.js';

export class PrintTiming {
  readonly limits: MachineLimits;
  private readonly planner: MotionPlanner;
  private x = 0;
  private y = 0;
  private z = 0;
  private accel: { print?: number; retract?: number; travel?: number } = {};
  private scratch = new Float64Array(PLAN_STRIDE * 1024);
  private times = new Float64Array(1024);

  constructor(config: PrintConfig) {
    this.limits = limitsFromConfig(config);
    this.planner = new MotionPlanner(this.limits);
  }

  /** The continuous planner the writer feeds; it also remembers where the nozzle is for the next layer's estimate. */
  get sink(): PlannerSink {
    return {
      move: (x, y, z, e, f) => {
        this.planner.move(x, y, z, e, f);
        this.x = x;
        this.y = y;
        this.z = z;
      },
      setAccelerations: (a) => {
        this.accel = { ...this.accel, ...a };
        this.planner.setAccelerations(a);
      },
      marker: (tag) => this.planner.marker(tag),
    };
  }

  /** Time of one layer's moves (LayerBuffer layout), starting and ending at rest. */
  layer(moves: Float64Array, count: number): { total: number; extruding: number } {
    const records = count + 1;
    if (this.scratch.length < records * PLAN_STRIDE) {
      this.scratch = new Float64Array(records * PLAN_STRIDE * 2);
      this.times = new Float64Array(records * 2);
    }
    const s = this.scratch;
    s[0] = this.x;
    s[1] = this.y;
    s[2] = this.z;
    s[3] = 0;
    s[4] = 0;
    for (let k = 0; k < count; k++) {
      const i = k * MOVE_STRIDE;
      const o = (k + 1) * PLAN_STRIDE;
      s[o] = moves[i];
      s[o + 1] = moves[i + 1];
      s[o + 2] = moves[i + 2];
      s[o + 3] = moves[i + 3];
      s[o + 4] = moves[i + 4];
    }
    const total = estimateMoves(s.subarray(0, records * PLAN_STRIDE), this.limits, this.accel, this.times);
    let extruding = 0;
    for (let k = 0; k < count; k++) if (moves[k * MOVE_STRIDE + 5] === MoveKind.Extrude) extruding += this.times[k + 1];
    return { total, extruding };
  }

  finish(): PlannerResult {
    return this.planner.finish();
  }
}
