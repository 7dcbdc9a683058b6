/**
 * A small leveled logger: one line per entry on stderr (journald adds its own timestamp, but a
 * log copied off a Pi without one is useless, so lines carry an ISO time). Fields are appended as
 * key=value so a line stays greppable. Messages below the level cost only a comparison.
 *
 * Messages and fields carry text from outside (printer names, file names, what a peer answered),
 * so every unsafe character (unsafe-characters.ts) is written as a visible escape — `\n`, `\x1b`,
 * `\u202e` — and an entry stays one line that shows what it holds: a name cannot start a forged
 * line, clear the terminal with an ANSI sequence or hide text behind a bidirectional override.
 */
import { UNSAFE_CHARACTERS, hasUnsafeCharacter } from './unsafe-characters.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  readonly level: LogLevel;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger for a part of the program: same level and sink, its own name. */
  child(name: string): Logger;
}

export interface LoggerOptions {
  name: string;
  level: LogLevel;
  /** Where finished lines go; stderr by default. */
  write?: (line: string) => void;
  now?: () => Date;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(character: string): string {
  const short = SHORT_ESCAPES[character];
  if (short !== undefined) return short;
  const code = character.codePointAt(0) as number;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every unsafe character written as its escape; other text (a backslash too) as is. */
export function escapeLogText(text: string): string {
  return hasUnsafeCharacter(text) ? text.replace(UNSAFE_CHARACTERS, escapeCharacter) : text;
}

/** A bare word, or a quoted string whose quotes and backslashes are escaped as in JSON. */
function formatValue(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return String(value);
  if (/^[^\s"=\\]+$/.test(value) && !hasUnsafeCharacter(value)) return value;
  return `"${escapeLogText(value.replace(/["\\]/g, '\\$&'))}"`;
}

export function formatLine(time: Date, level: LogLevel, name: string, message: string, fields?: LogFields): string {
  let line = `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${escapeLogText(name)}: ${escapeLogText(message)}`;
  if (fields) {
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) line += ` ${escapeLogText(key)}=${formatValue(value)}`;
    }
  }
  return `${line}\n`;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const threshold = LOG_LEVELS.indexOf(options.level);
  const emit = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (LOG_LEVELS.indexOf(level) <= threshold) write(formatLine(now(), level, options.name, message, fields));
  };
  return {
    level: options.level,
    error: (message, fields) => emit('error', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    info: (message, fields) => emit('info', message, fields),
    debug: (message, fields) => emit('debug', message, fields),
    child: (name) => createLogger({ ...options, name: `${options.name}/${name}`, write, now }),
  };
}
