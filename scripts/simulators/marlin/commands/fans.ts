/** Part-cooling fans: M106 [P<fan>] [S<0-255>] (no S: full speed) and M107 [P<fan>]. */
import type { CommandHandler, CommandTable, FirmwareContext } from '../command-context.js';
import type { GcodeCommand } from '../gcode-command.js';

function fanIndex(cmd: GcodeCommand, fw: FirmwareContext): number | null {
  const fan = cmd.value('P') ?? 0;
  return Number.isInteger(fan) && fan >= 0 && fan < fw.fans.length ? fan : null;
}

const fanOn: CommandHandler = (cmd, fw) => {
  const fan = fanIndex(cmd, fw);
  if (fan === null) return;
  const speed = cmd.value('S') ?? 255;
  fw.fans[fan] = Math.round(Math.max(0, Math.min(255, speed)));
};

const fanOff: CommandHandler = (cmd, fw) => {
  const fan = fanIndex(cmd, fw);
  if (fan !== null) fw.fans[fan] = 0;
};

export const FAN_COMMANDS: CommandTable = { M106: fanOn, M107: fanOff };
