/**
 * What goes on the wire towards Marlin: `N<n> <command>*<checksum>`, the checksum being the XOR
 * of every byte before `*`. Text is latin1 on both sides so that one character is one byte, as the
 * firmware counts them (a UTF-8 `M117` message then passes through byte for byte).
 *
 * Commands are cleaned first the way a host must: Marlin cuts a line at `;` (comment) and reads
 * the first `*` as the start of the checksum, so a stray `*`, a line number or a checksum already
 * in a file would make every send of that line fail.
 */

export function checksum(text: string): number {
  let sum = 0;
  for (let k = 0; k < text.length; k++) sum ^= text.charCodeAt(k) & 0xff;
  return sum;
}

/** `N<n> <command>*<checksum>`. */
export function frame(lineNumber: number, command: string): string {
  const body = `N${lineNumber} ${command}`;
  return `${body}*${checksum(body)}`;
}

/**
 * The command a G-code line holds, without comment, line number, checksum or surrounding
 * spaces; empty for a blank or comment-only line.
 */
export function cleanCommand(line: string): string {
  let text = line;
  const comment = text.indexOf(';');
  if (comment >= 0) text = text.slice(0, comment);
  const star = text.indexOf('*');
  if (star >= 0) text = text.slice(0, star);
  text = text.trim();
  const numbered = /^N\d+\s*/.exec(text);
  return numbered ? text.slice(numbered[0].length) : text;
}

/**
 * Commands that take long by nature (homing, levelling, waiting for heat or moves, dwelling,
 * filament changes, PID tuning): their `ok` may come minutes later, so silence is expected.
 */
const LONG_RUNNING = /^(G2[89]|G3[2-5]|G4|M0|M1|M109|M190|M191|M303|M400|M600|M701|M702|M48)(?!\d)/;

export function isLongRunning(command: string): boolean {
  return LONG_RUNNING.test(command);
}

/** Waits for a temperature: Marlin's emergency parser breaks them with M108. */
const HEAT_WAIT = /^(M109|M190|M191)(?!\d)/;

export function isHeatWait(command: string): boolean {
  return HEAT_WAIT.test(command);
}
