/**
 * Reading what Marlin writes back, one line at a time. A line is one of:
 * - flow control: `ok` (also `ok N.. P.. B..` with ADVANCED_OK, and `ok T:…` answering M105),
 *   `Resend: <n>` / `rs <n>`, `busy: processing` (host keepalive), `wait` (idle, NO_TIMEOUTS);
 * - `Error:…`: either about a line that arrived damaged (checksum, line number — a resend
 *   follows, nothing is wrong with the printer) or about the printer itself; `halted`
 *   (kill(): nothing is answered until a reset) and the faults Marlin stops for are fatal;
 * - `start`: the firmware (re)booted;
 * - reports: temperatures (auto-report, M105, the `W:` lines of M109/M190), SD status (M27),
 *   positions (M114), `FIRMWARE_NAME:` and `Cap:` (M115), host actions (`//action:pause`);
 * - anything else: an answer to the command in flight (echo lines, `Unknown command`…).
 */

export interface Temperatures {
  /** By heater as in `PrinterStatus.temperatures`: `tool0`, `tool1`, `bed`, `chamber`. */
  heaters: Record<string, { actual: number; target: number }>;
  /** The `W:` of M109/M190: the firmware is waiting for heat, which shows it is alive. */
  waiting: boolean;
}

export type SdReport =
  | { kind: 'printing'; position: number; size: number }
  | { kind: 'not-printing' }
  | { kind: 'done' }
  | { kind: 'current-file'; name: string | null };

export type Reply =
  | { kind: 'ok'; rest: string }
  | { kind: 'resend'; line: number }
  | { kind: 'busy' }
  | { kind: 'wait' }
  | { kind: 'line-error'; text: string }
  | { kind: 'error'; text: string; fatal: boolean; halted: boolean }
  | { kind: 'start' }
  | { kind: 'temperatures'; temperatures: Temperatures }
  | { kind: 'sd'; report: SdReport }
  | { kind: 'action'; action: string }
  | { kind: 'other' };

const OK = /^ok\b\s*(.*)$/;
const RESEND = /^(?:Resend|rs)\s*:?\s*N?\s*(\d+)/i;
const BUSY = /^(?:echo:\s*)?busy:/;
const ERROR = /^Error:\s*(.*)$/i;
const LINE_ERRORS = /checksum mismatch|Line Number is not|No Checksum|No Line Number|Format error/i;
const HALTED = /halted|kill\(\)/i;
const FATAL = /halted|kill\(\)|stopped|Thermal Runaway|MAXTEMP|MINTEMP|Heating failed/i;
const TEMPERATURE_LINE = /^(?:ok\s*)?(?:T\d*|B|C):\s*-?\d/;
const HEATER = /(?:^|\s)(T\d*|B|C):\s*(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)/g;
const SD_PRINTING = /^SD printing byte (\d+)\s*\/\s*(\d+)/;
const CURRENT_FILE = /^Current file:\s*(.*)$/;
const ACTION = /^\/\/\s*action:\s*(\S+)/;
const POSITION = /^X:\s*(-?[\d.]+)\s+Y:\s*(-?[\d.]+)\s+Z:\s*(-?[\d.]+)\s+E:\s*(-?[\d.]+)/;

/**
 * The heaters of a temperature report. With several hotends Marlin prints `T0:` `T1:`… besides
 * `T:` (the active one, a duplicate); with one it prints only `T:`.
 */
export function parseTemperatures(line: string): Temperatures | null {
  const text = line.replace(/^ok\s*/, '');
  const heaters: Record<string, { actual: number; target: number }> = {};
  let single: { actual: number; target: number } | null = null;
  for (const m of text.matchAll(HEATER)) {
    const reading = { actual: Number(m[2]), target: Number(m[3]) };
    if (m[1] === 'T') single = reading;
    else if (m[1] === 'B') heaters.bed = reading;
    else if (m[1] === 'C') heaters.chamber = reading;
    else heaters[`tool${m[1].slice(1)}`] = reading;
  }
  if (single && !Object.keys(heaters).some((name) => name.startsWith('tool'))) heaters.tool0 = single;
  if (Object.keys(heaters).length === 0) return null;
  return { heaters, waiting: /\bW:/.test(text) };
}

/** The logical position of an M114 answer (`X:10.00 Y:20.00 Z:0.30 E:1.23 Count …`). */
export function parsePosition(line: string): { x: number; y: number; z: number; e: number } | null {
  const m = POSITION.exec(line.trim());
  if (!m) return null;
  const [x, y, z, e] = m.slice(1, 5).map(Number);
  return [x, y, z, e].every(Number.isFinite) ? { x, y, z, e } : null;
}

function sdReport(line: string): SdReport | null {
  const printing = SD_PRINTING.exec(line);
  if (printing) return { kind: 'printing', position: Number(printing[1]), size: Number(printing[2]) };
  if (line.startsWith('Not SD printing')) return { kind: 'not-printing' };
  if (line.startsWith('Done printing file')) return { kind: 'done' };
  const current = CURRENT_FILE.exec(line);
  if (current) {
    // `Current file: SHORT.GCO Long name.gcode` (M27 C): the long name, when there is one.
    const name = current[1].trim();
    if (name === '' || name === '(no file)') return { kind: 'current-file', name: null };
    const space = name.indexOf(' ');
    return { kind: 'current-file', name: space > 0 ? name.slice(space + 1) : name };
  }
  return null;
}

export function classify(line: string): Reply {
  const ok = OK.exec(line);
  if (ok) return { kind: 'ok', rest: ok[1] };
  const resend = RESEND.exec(line);
  if (resend) return { kind: 'resend', line: Number(resend[1]) };
  if (BUSY.test(line)) return { kind: 'busy' };
  if (line === 'wait') return { kind: 'wait' };
  const error = ERROR.exec(line);
  if (error) {
    const text = error[1].trim();
    if (LINE_ERRORS.test(text)) return { kind: 'line-error', text };
    return { kind: 'error', text, fatal: FATAL.test(text), halted: HALTED.test(text) };
  }
  if (line === 'start') return { kind: 'start' };
  if (TEMPERATURE_LINE.test(line.trim())) {
    const temperatures = parseTemperatures(line.trim());
    if (temperatures) return { kind: 'temperatures', temperatures };
  }
  const sd = sdReport(line);
  if (sd) return { kind: 'sd', report: sd };
  const action = ACTION.exec(line);
  if (action) return { kind: 'action', action: action[1] };
  return { kind: 'other' };
}

/** An ok that carries nothing but ADVANCED_OK's counters. */
export function isBareOk(rest: string): boolean {
  return /^(?:N\d+\s*)?(?:P\d+\s*)?(?:B\d+\s*)?$/.test(rest);
}

/** `echo:Unknown command: "M701"`: the firmware was built without this command. */
export function isUnknownCommand(line: string): boolean {
  return /^echo:\s*Unknown command/i.test(line);
}
