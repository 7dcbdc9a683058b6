/**
 * SD card commands: list (M20 [L] [T]), select (M23), start/resume (M24), pause (M25), seek (M26),
 * status (M27, M27 S<seconds> auto-report, M27 C), write (M28 … M29, handled by the command loop),
 * delete (M30), long name (M33) and abort (M524).
 */
import type { CommandHandler, CommandTable, FirmwareContext } from '../command-context.js';
import type { SdFile } from '../sd-card.js';

/** The FAT date and time of a file as M20 T prints them (`0x` + 8 hex digits). */
function fatTimestamp(date: Date): string {
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  return `0x${(((day << 16) | time) >>> 0).toString(16).padStart(8, '0')}`;
}

/** `SD printing byte <pos>/<size>` while a file is open, otherwise `Not SD printing`. */
export function sdStatusLine(fw: FirmwareContext): string {
  const job = fw.sd.job;
  return job ? `SD printing byte ${job.position}/${job.file.content.length}` : 'Not SD printing';
}

function fileArgument(text: string | null): string {
  return (text ?? '').trim();
}

/** M23's file name: Simplify3D appends the size after a space, so Marlin cuts the name there. */
function selectArgument(text: string | null): string {
  return fileArgument(text).split(' ')[0];
}

const list: CommandHandler = (cmd, fw) => {
  fw.send('Begin file list');
  for (const file of fw.sd.list()) {
    let line = `${file.shortName} ${file.content.length}`;
    if (cmd.has('T')) line += ` ${fatTimestamp(file.modified)}`;
    if (cmd.has('L')) line += ` ${file.longName}`;
    fw.send(line);
  }
  fw.send('End file list');
};

function stopSdPrint(fw: FirmwareContext): void {
  fw.sd.deselect();
  fw.jobTimer = 'idle';
}

const select: CommandHandler = (cmd, fw) => {
  const name = selectArgument(cmd.stringArg);
  const file = fw.sd.find(name);
  if (!file) {
    fw.send(`open failed, File: ${name}.`);
    return;
  }
  stopSdPrint(fw);
  fw.sd.select(file);
  fw.send(`File opened: ${name} Size: ${file.content.length}`);
  fw.send('File selected');
};

const start: CommandHandler = (cmd, fw) => {
  const job = fw.sd.job;
  if (!job) return;
  const position = cmd.value('S');
  if (position !== undefined) job.position = Math.max(0, Math.min(job.file.content.length, Math.floor(position)));
  job.printing = true;
  fw.jobTimer = 'running';
  fw.resumeSdFetching();
};

/** M25 (also when the reader already stopped at an M25 in the file). */
const pause: CommandHandler = (_cmd, fw) => {
  const job = fw.sd.job;
  if (!job) return;
  job.printing = false;
  if (fw.jobTimer === 'running') fw.jobTimer = 'paused';
};

const seek: CommandHandler = (cmd, fw) => {
  const job = fw.sd.job;
  const position = cmd.value('S');
  if (job && position !== undefined) job.position = Math.max(0, Math.min(job.file.content.length, Math.floor(position)));
};

const status: CommandHandler = (cmd, fw) => {
  if (cmd.has('C')) {
    const file: SdFile | undefined = fw.sd.job?.file;
    fw.send(`Current file: ${file ? `${file.shortName} ${file.longName}` : '(no file)'}`);
    return;
  }
  const seconds = cmd.value('S');
  if (fw.settings.autoReport && seconds !== undefined) {
    fw.setSdReportInterval(Math.max(0, Math.min(255, Math.floor(seconds))));
    return;
  }
  fw.send(sdStatusLine(fw));
};

const beginWrite: CommandHandler = (cmd, fw) => {
  const name = fileArgument(cmd.stringArg);
  const file = fw.sd.beginWrite(name);
  fw.send(file ? `Writing to file: ${name}` : `open failed, File: ${name}.`);
};

const remove: CommandHandler = (cmd, fw) => {
  const name = fileArgument(cmd.stringArg);
  fw.send(fw.sd.remove(name) ? `File deleted:${name}` : `Deletion failed, File: ${name}.`);
};

const longName: CommandHandler = (cmd, fw) => {
  const path = fileArgument(cmd.stringArg);
  const file = fw.sd.find(path);
  fw.send(file ? `${path.startsWith('/') ? '/' : ''}${file.longName}` : path);
};

/**
 * M524 during a print is Marlin's abortSDPrinting: stop reading, drop queued commands and moves,
 * heaters and fans off, home X and Y. Without a print it only closes the selected file.
 */
const abort: CommandHandler = async (_cmd, fw) => {
  const job = fw.sd.job;
  if (!job?.printing) {
    fw.sd.deselect();
    return;
  }
  stopSdPrint(fw);
  fw.clearQueue();
  fw.planner.clear();
  for (const hotend of fw.heaters.hotends) hotend.setTarget(0);
  fw.heaters.bed.setTarget(0);
  fw.fans.fill(0);
  await fw.sleep(fw.motion.home(['X', 'Y']));
};

export const SD_CARD_COMMANDS: CommandTable = {
  M20: list,
  M21: (_cmd, fw) => {
    fw.echo('SD card ok');
  },
  M22: () => undefined,
  M23: select,
  M24: start,
  M25: pause,
  M26: seek,
  M27: status,
  M28: beginWrite,
  // Outside a write M29 has nothing to close; during one the command loop handles it.
  M29: () => undefined,
  M30: remove,
  M33: longName,
  M524: abort,
};
