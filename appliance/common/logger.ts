/**
 * A small leveled logger: one line per entry on stderr (journald adds its own timestamp, but a
 * log copied off a Pi without one is useless, so lines carry an ISO time). Fields are appended as
 * key=value so a line stays greppable. Messages below the level cost only a comparison.
 */
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

function formatValue(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return String(value);
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

export function formatLine(time: Date, level: LogLevel, name: string, message: string, fields?: LogFields): string {
  let line = `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${name}: ${message}`;
  if (fields) {
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) line += ` ${key}=${formatValue(value)}`;
    }
  }
  return line + '\n';
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
