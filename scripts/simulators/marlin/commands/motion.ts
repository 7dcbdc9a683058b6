/**
 * Motion commands: moves (G0/G1, arcs G2/G3) go into the planner and answer `ok` at once unless
 * its queue is full; G4, G28 and M400 wait for the queue to drain first. Also coordinate modes,
 * G92, speed and flow factors (M220/M221), feed-rate limits (M203), position (M114), tool changes
 * and cancelled objects (M486). Machine-tuning commands that do not change timing are accepted.
 */
import type { CommandHandler, CommandTable, FirmwareContext } from '../command-context.js';
import { LINEAR_AXES, type Axis, type MovePlan } from '../motion.js';
import { positionReport } from '../reports.js';

/** Queues the move; only waits (and so only makes the command slow) when the planner is full. */
function queueMove(fw: FirmwareContext, plan: MovePlan): undefined | Promise<undefined> {
  if (plan.coldExtrusionPrevented) fw.echo(' cold extrusion prevented');
  if (plan.durationMs <= 0 && plan.filament === 0) return;
  const extruded = fw.extruded;
  const block = {
    durationMs: plan.durationMs,
    onDone: () => {
      extruded[plan.tool] += plan.filament;
    },
  };
  if (!fw.planner.tryAdd(block)) return fw.planner.add(block, fw.signal);
}

function hotendTemperature(fw: FirmwareContext): number {
  return fw.heaters.hotends[fw.motion.activeTool].current;
}

const linearMove: CommandHandler = (cmd, fw) => {
  const target = fw.motion.destination(cmd);
  return queueMove(fw, fw.motion.linearMove(target, hotendTemperature(fw)));
};

const arcMove =
  (clockwise: boolean): CommandHandler =>
  (cmd, fw) => {
    const before = { ...fw.motion.position };
    const target = fw.motion.destination(cmd);
    const plan = fw.motion.arcMove(target, cmd, clockwise, hotendTemperature(fw));
    if (plan === null) {
      fw.motion.position = before;
      fw.error('G2/G3 bad parameters');
      return;
    }
    return queueMove(fw, plan);
  };

const dwell: CommandHandler = async (cmd, fw) => {
  const seconds = cmd.value('S');
  const ms = seconds !== undefined ? seconds * 1000 : (cmd.value('P') ?? 0);
  await fw.planner.synchronize(fw.signal);
  if (ms > 0) await fw.sleep(ms);
};

const home: CommandHandler = async (cmd, fw) => {
  await fw.planner.synchronize(fw.signal);
  await fw.sleep(fw.motion.home(LINEAR_AXES.filter((axis) => cmd.has(axis))));
};

const setPosition: CommandHandler = (cmd, fw) => {
  const values: Partial<Record<Axis, number>> = {};
  for (const axis of ['X', 'Y', 'Z', 'E'] as const) {
    const value = cmd.value(axis);
    if (value !== undefined) values[axis] = value;
  }
  fw.motion.setPosition(values);
};

const synchronize: CommandHandler = async (_cmd, fw) => {
  await fw.planner.synchronize(fw.signal);
};

const feedratePercent: CommandHandler = (cmd, fw) => {
  const motion = fw.motion;
  if (cmd.has('B')) motion.savedFeedratePercent = motion.feedratePercent;
  if (cmd.has('R')) motion.feedratePercent = motion.savedFeedratePercent;
  const percent = cmd.value('S');
  if (percent !== undefined) motion.feedratePercent = Math.max(10, Math.min(999, Math.round(percent)));
  if (!cmd.has('B') && !cmd.has('R') && percent === undefined) fw.send(`FR:${motion.feedratePercent}%`);
};

const flowPercent: CommandHandler = (cmd, fw) => {
  const tool = cmd.value('T') ?? fw.motion.activeTool;
  if (!Number.isInteger(tool) || tool < 0 || tool >= fw.motion.extruders) {
    fw.echo(`T${tool} Invalid extruder`);
    return;
  }
  const percent = cmd.value('S');
  if (percent !== undefined) fw.motion.flowPercent[tool] = Math.max(10, Math.min(999, Math.round(percent)));
  else fw.echo(`E${tool} Flow: ${fw.motion.flowPercent[tool]}%`);
};

const maxFeedrate: CommandHandler = (cmd, fw) => {
  for (const axis of ['X', 'Y', 'Z', 'E'] as const) {
    const value = cmd.value(axis);
    if (value !== undefined && value > 0) fw.motion.maxFeedrate[axis] = value;
  }
};

const toolChange: CommandHandler = async (cmd, fw) => {
  const tool = cmd.code;
  if (tool >= fw.motion.extruders) {
    fw.echo(`T${tool} Invalid extruder`);
    return;
  }
  if (fw.motion.extruders < 2) return;
  await fw.planner.synchronize(fw.signal);
  fw.motion.activeTool = tool;
  fw.echo(`Active Extruder: ${tool}`);
};

const cancelObjects: CommandHandler = (cmd, fw) => {
  const motion = fw.motion;
  if (cmd.has('T')) {
    motion.cancelledObjects.clear();
    motion.currentObject = -1;
  }
  const current = cmd.value('S');
  if (current !== undefined) motion.currentObject = current;
  const cancel = cmd.value('P');
  if (cancel !== undefined) motion.cancelledObjects.add(cancel);
  const restore = cmd.value('U');
  if (restore !== undefined) motion.cancelledObjects.delete(restore);
  if (cmd.has('C') && motion.currentObject >= 0) motion.cancelledObjects.add(motion.currentObject);
};

const accepted: CommandHandler = () => undefined;

export const MOTION_COMMANDS: CommandTable = {
  G0: linearMove,
  G1: linearMove,
  G2: arcMove(true),
  G3: arcMove(false),
  G4: dwell,
  G28: home,
  G90: (_cmd, fw) => {
    fw.motion.relativeXYZ = false;
    fw.motion.relativeE = false;
  },
  G91: (_cmd, fw) => {
    fw.motion.relativeXYZ = true;
    fw.motion.relativeE = true;
  },
  M82: (_cmd, fw) => {
    fw.motion.relativeE = false;
  },
  M83: (_cmd, fw) => {
    fw.motion.relativeE = true;
  },
  G92: setPosition,
  M114: (_cmd, fw) => {
    fw.send(positionReport(fw.motion));
  },
  M400: synchronize,
  M410: (_cmd, fw) => {
    fw.planner.clear();
  },
  M220: feedratePercent,
  M221: flowPercent,
  M203: maxFeedrate,
  T: toolChange,
  M486: cancelObjects,
  // Accepted without a timing effect: units, steppers, acceleration, jerk, steps per mm.
  G21: accepted,
  M17: accepted,
  M18: accepted,
  M84: accepted,
  M92: accepted,
  M201: accepted,
  M204: accepted,
  M205: accepted,
};
