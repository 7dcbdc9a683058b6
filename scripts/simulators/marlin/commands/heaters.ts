/**
 * Heater commands: set (M104, M140) and wait (M109, M190) targets, report (M105), auto-report
 * (M155) and cold-extrusion settings (M302). While waiting, Marlin prints the temperatures once a
 * second with `W:` — `?` until the target window is reached, then the seconds of residency left.
 */
import type { CommandHandler, CommandTable, FirmwareContext } from '../command-context.js';
import type { GcodeCommand } from '../gcode-command.js';
import type { Heater } from '../heater.js';
import { temperatureReport } from '../reports.js';

/** TEMP_RESIDENCY_TIME / TEMP_WINDOW / TEMP_HYSTERESIS of the default configuration. */
const RESIDENCY_MS = 10_000;
const WINDOW = 1;
const HYSTERESIS = 3;
/** A cooling wait ends when the temperature falls less than this in a minute (MIN_COOLING_SLOPE). */
const MIN_COOLING_SLOPE = { degrees: 1.5, ms: 60_000 };
/** Simulated time between checks; at high speeds longer, so a check costs at least 2 ms of wall time. */
const CHECK_MS = 100;
const MIN_REAL_CHECK_MS = 2;
const REPORT_MS = 1000;
const MAX_AUTO_REPORT_SECONDS = 60;

/** The hotend a command addresses (T parameter or the active tool), or null after reporting why not. */
function targetHotend(cmd: GcodeCommand, fw: FirmwareContext): number | null {
  const tool = cmd.value('T') ?? fw.motion.activeTool;
  if (!Number.isInteger(tool) || tool < 0 || tool >= fw.heaters.hotends.length) {
    fw.echo(`T${tool} Invalid extruder`);
    return null;
  }
  return tool;
}

async function waitForTemperature(fw: FirmwareContext, heater: Heater, reportTool: number, waitForCooling: boolean): Promise<void> {
  const target = heater.target;
  const wantsToCool = heater.current > target;
  if (wantsToCool && !waitForCooling) return;
  fw.waitingForHeat = true;
  let residencyStart: number | null = null;
  let nextReport = fw.clock.now();
  let coolingCheckAt = fw.clock.now() + MIN_COOLING_SLOPE.ms;
  let coolingFrom = heater.current;
  const step = Math.max(CHECK_MS, fw.clock.speed * MIN_REAL_CHECK_MS);
  try {
    while (fw.waitingForHeat) {
      const now = fw.clock.now();
      const temperature = heater.current;
      const difference = Math.abs(target - temperature);
      if (residencyStart === null) {
        if (difference < WINDOW) residencyStart = now;
      } else if (difference > HYSTERESIS) {
        residencyStart = null;
      }
      if (now >= nextReport) {
        nextReport = now + REPORT_MS;
        const left = residencyStart === null ? '?' : String(Math.max(0, Math.floor((RESIDENCY_MS - (now - residencyStart)) / 1000)));
        fw.send(`${temperatureReport(fw.heaters, reportTool)} W:${left}`);
      }
      if (residencyStart !== null && now - residencyStart >= RESIDENCY_MS) return;
      if (wantsToCool && now >= coolingCheckAt) {
        if (coolingFrom - temperature < MIN_COOLING_SLOPE.degrees) return;
        coolingFrom = temperature;
        coolingCheckAt = now + MIN_COOLING_SLOPE.ms;
      }
      await fw.sleepUntil(now + step);
    }
  } finally {
    fw.waitingForHeat = false;
  }
}

const setHotend: CommandHandler = (cmd, fw) => {
  const tool = targetHotend(cmd, fw);
  const celsius = cmd.value('S');
  if (tool !== null && celsius !== undefined) fw.heaters.hotends[tool].setTarget(celsius);
};

const waitHotend: CommandHandler = async (cmd, fw) => {
  const tool = targetHotend(cmd, fw);
  if (tool === null) return;
  const celsius = cmd.value('S') ?? cmd.value('R');
  if (celsius === undefined) return;
  fw.heaters.hotends[tool].setTarget(celsius);
  await waitForTemperature(fw, fw.heaters.hotends[tool], tool, !cmd.has('S'));
};

const setBed: CommandHandler = (cmd, fw) => {
  const celsius = cmd.value('S');
  if (celsius !== undefined) fw.heaters.bed.setTarget(celsius);
};

const waitBed: CommandHandler = async (cmd, fw) => {
  const celsius = cmd.value('S') ?? cmd.value('R');
  if (celsius === undefined) return;
  fw.heaters.bed.setTarget(celsius);
  await waitForTemperature(fw, fw.heaters.bed, fw.motion.activeTool, !cmd.has('S'));
};

const reportTemperatures: CommandHandler = (cmd, fw) => {
  const tool = targetHotend(cmd, fw);
  if (tool === null) return;
  fw.send(`ok${temperatureReport(fw.heaters, tool)}`);
  return 'no-ok';
};

const autoReportTemperatures: CommandHandler = (cmd, fw) => {
  if (!fw.settings.autoReport) return 'unknown';
  const seconds = cmd.value('S');
  if (seconds !== undefined) fw.setTemperatureReportInterval(Math.max(0, Math.min(MAX_AUTO_REPORT_SECONDS, Math.floor(seconds))));
};

const coldExtrusion: CommandHandler = (cmd, fw) => {
  const motion = fw.motion;
  const minimum = cmd.value('S');
  if (minimum !== undefined) motion.minExtrudeTemp = minimum;
  if (cmd.has('P')) motion.allowColdExtrusion = cmd.flag('P');
  else if (minimum !== undefined) motion.allowColdExtrusion = minimum === 0;
  if (!cmd.has('P') && minimum === undefined) {
    fw.echo(`Cold extrudes are ${motion.allowColdExtrusion ? 'en' : 'dis'}abled (min temp ${motion.minExtrudeTemp}C)`);
  }
};

export const HEATER_COMMANDS: CommandTable = {
  M104: setHotend,
  M109: waitHotend,
  M140: setBed,
  M190: waitBed,
  M105: reportTemperatures,
  M155: autoReportTemperatures,
  M302: coldExtrusion,
};
