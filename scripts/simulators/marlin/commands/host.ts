/**
 * Commands about the host conversation and the machine as a whole: line numbers (M110), firmware
 * info (M115), keepalive interval (M113), messages (M117, M118), progress (M73), the print job
 * timer (M75–M77), EEPROM settings (M500–M503), restart (M999), emergency stop (M112) and the
 * emergency parser's M108/M410 when they reach the queue.
 */
import type { CommandHandler, CommandTable } from '../command-context.js';
import { firmwareLines, settingsLines } from '../reports.js';

const EEPROM = '(650 bytes; crc 43170)';
const MAX_KEEPALIVE_SECONDS = 60;

const setLineNumber: CommandHandler = (cmd, fw) => {
  const n = cmd.value('N');
  if (n !== undefined) fw.lastLineNumber = Math.trunc(n);
};

const keepalive: CommandHandler = (cmd, fw) => {
  const seconds = cmd.value('S');
  if (seconds === undefined) fw.echo(`M113 S${fw.keepaliveSeconds}`);
  else fw.keepaliveSeconds = Math.max(0, Math.min(MAX_KEEPALIVE_SECONDS, Math.floor(seconds)));
};

/** M118 [A1] [E1] [Pn] text: `E1` prefixes `echo:`, `A1` prefixes `//` (a host action). */
const serialPrint: CommandHandler = (cmd, fw) => {
  let text = cmd.stringArg ?? '';
  let prefix = '';
  let action = '';
  for (let k = 0; k < 3; k++) {
    const flag = /^([AE]1|P\d) */.exec(text);
    if (!flag) break;
    if (flag[1] === 'E1') prefix = 'echo:';
    if (flag[1] === 'A1') action = '//';
    text = text.slice(flag[0].length);
  }
  fw.send(`${prefix}${action}${text}`);
};

const progress: CommandHandler = (cmd, fw) => {
  const percent = cmd.value('P');
  const remaining = cmd.value('R');
  if (percent !== undefined) fw.progress.percent = Math.max(0, Math.min(100, percent));
  if (remaining !== undefined) fw.progress.remainingMinutes = Math.max(0, remaining);
};

const restart: CommandHandler = (cmd, fw) => {
  if (!cmd.flag('S')) fw.requestResend();
};

export const HOST_COMMANDS: CommandTable = {
  M108: () => undefined,
  M110: setLineNumber,
  M112: (_cmd, fw) => {
    fw.kill();
    return 'no-ok';
  },
  M113: keepalive,
  M115: (_cmd, fw) => {
    for (const line of firmwareLines(fw.settings)) fw.send(line);
  },
  M117: (cmd, fw) => {
    fw.message = cmd.stringArg ?? '';
  },
  M118: serialPrint,
  M73: progress,
  M75: (_cmd, fw) => {
    fw.jobTimer = 'running';
  },
  M76: (_cmd, fw) => {
    if (fw.jobTimer === 'running') fw.jobTimer = 'paused';
  },
  M77: (_cmd, fw) => {
    fw.jobTimer = 'idle';
  },
  M500: (_cmd, fw) => {
    fw.echo(`Settings Stored ${EEPROM}`);
  },
  M501: (_cmd, fw) => {
    fw.echo(`V86 stored settings retrieved ${EEPROM}`);
  },
  M502: (_cmd, fw) => {
    fw.echo('Hardcoded Default Settings Loaded');
  },
  M503: (_cmd, fw) => {
    for (const line of settingsLines(fw.motion)) fw.send(line);
  },
  M999: restart,
};
