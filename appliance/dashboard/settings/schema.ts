/**
 * The keys of `<data-dir>/config.json`: type, default, limits and environment override of each,
 * and the checks that turn file text, environment text or an API patch into DashboardSettings.
 * Every error names the key as the user wrote it: `config.json: rate_limit.per_minute must be an
 * integer ≥ 1`, `PRINTYARD_RATE_LIMIT_PER_MINUTE must be an integer ≥ 1, got "x"`.
 *
 * The environment overrides the file. Each key's variable is `PRINTYARD_<SECTION>_<KEY>`, except
 * where the spec names another: the slicer service's url and token come from SLICER_URL and
 * SLICER_TOKEN, and its `enabled` switch has no override (it is set in the file or the UI).
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { DashboardSettings, SettingsPatch } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;

interface KeyBase {
  help: string;
  /** The variable that overrides the key; null for none; default `PRINTYARD_<SECTION>_<KEY>`. */
  env?: string | null;
  /** Never logged. */
  secret?: boolean;
}

export type KeySpec =
  | (KeyBase & { type: 'boolean'; default: boolean })
  | (KeyBase & { type: 'integer'; default: number; min: number; max?: number })
  | (KeyBase & { type: 'string'; default: string })
  | (KeyBase & { type: 'duration'; default: string })
  | (KeyBase & { type: 'http-url'; default: string });

type SchemaOf<T> = { [S in keyof T]: { [K in keyof T[S]]: KeySpec } };

export const SETTINGS_SCHEMA: SchemaOf<DashboardSettings> = {
  auth: {
    token_expiry: { type: 'duration', default: '24h', help: 'lifetime of a session token: a number and a unit (s, m, h, d, w), e.g. 24h' },
  },
  rate_limit: {
    enabled: { type: 'boolean', default: true, help: 'limit the requests per client' },
    per_minute: { type: 'integer', default: 200, min: 1, max: 100_000, help: 'requests per client in any minute' },
    per_second: { type: 'integer', default: 20, min: 1, max: 100_000, help: 'requests per client in any second (the burst)' },
  },
  slicer_service: {
    enabled: { type: 'boolean', default: false, env: null, help: 'use the remote slicer service' },
    url: { type: 'http-url', default: 'http://127.0.0.1:8765', env: 'SLICER_URL', help: 'base URL of the slicer service' },
    token: { type: 'string', default: '', env: 'SLICER_TOKEN', secret: true, help: 'bearer token of the slicer service; empty for none' },
  },
  slicing: {
    max_output_mb: { type: 'integer', default: 1024, min: 1, max: 1_048_576, help: 'largest G-code file of a slice by the built-in engine, in MB; a slice that would write more fails' },
    min_free_mb: { type: 'integer', default: 256, min: 0, max: 1_048_576, help: 'free space in MB a slice leaves on the disk of the data directory; below it the slice fails (507)' },
  },
};

export const CONFIG_FILE = 'config.json';

/** The schema as plain records, for the loops below. */
const KEYS = SETTINGS_SCHEMA as unknown as Readonly<Record<string, Readonly<Record<string, KeySpec>>>>;

/** Durations as jose and the login response write them: `24h`, `30m`, `7d`, `90 s`. */
const DURATION = /^(\d+(?:\.\d+)?) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;

function settingsError(message: string, details?: unknown): AppError {
  return new AppError(ErrorCode.validation, 400, message, details);
}

export function envVariable(section: string, key: string, spec: KeySpec): string | null {
  return spec.env === undefined ? `PRINTYARD_${section.toUpperCase()}_${key.toUpperCase()}` : spec.env;
}

function expectation(spec: KeySpec): string {
  switch (spec.type) {
    case 'boolean': return 'true or false';
    case 'integer': return spec.max === undefined ? `an integer ≥ ${spec.min}` : `an integer from ${spec.min} to ${spec.max}`;
    case 'string': return 'a string';
    case 'duration': return 'a duration such as 30m, 24h or 7d';
    case 'http-url': return 'an http:// or https:// URL';
  }
}

/** The reason `value` is not valid for the key, or null. */
function problem(spec: KeySpec, value: unknown): string | null {
  const bad = `must be ${expectation(spec)}`;
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : bad;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return bad;
      return value < spec.min || (spec.max !== undefined && value > spec.max) ? bad : null;
    case 'string':
      return typeof value === 'string' ? null : bad;
    case 'duration': {
      if (typeof value !== 'string') return bad;
      const m = DURATION.exec(value.trim());
      return m && Number(m[1]) > 0 ? null : bad;
    }
    case 'http-url': {
      if (typeof value !== 'string') return bad;
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:' ? null : bad;
      } catch {
        return bad;
      }
    }
  }
}

/** Converts environment text to the key's type; the text stays as is when it does not convert. */
function fromEnvText(spec: KeySpec, text: string): unknown {
  if (spec.type === 'boolean') {
    const t = text.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(t)) return true;
    if (['0', 'false', 'no', 'off'].includes(t)) return false;
    return text;
  }
  if (spec.type === 'integer') return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
  return text;
}

type Sections = Record<string, Record<string, unknown>>;

export function defaultSettings(): DashboardSettings {
  const out: Sections = {};
  for (const [section, keys] of Object.entries(KEYS)) {
    out[section] = Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, spec.default]));
  }
  return out as unknown as DashboardSettings;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks a nested object of settings (the file's content, or a patch) and returns its values
 * merged over `base`. Unknown sections and keys are errors, as are values of the wrong type.
 * `where` prefixes the messages: `config.json: ` or `` for the API.
 */
export function mergeChecked(base: DashboardSettings, input: unknown, where: string): DashboardSettings {
  if (!isObject(input)) throw settingsError(`${where}expected a JSON object of settings sections`);
  const merged = structuredClone(base) as unknown as Sections;
  const issues: { path: string; message: string }[] = [];
    for (const [section, values] of Object.entries(input)) {
    const keys = KEYS[section];
    if (keys === undefined) {
      issues.push({ path: section, message: `is not a settings section (known: ${Object.keys(KEYS).join(', ')})` });
      continue;
    }
    if (!isObject(values)) {
      issues.push({ path: section, message: 'must be an object' });
      continue;
    }
    for (const [key, value] of Object.entries(values)) {
      const spec = keys[key];
      if (spec === undefined) {
        issues.push({ path: `${section}.${key}`, message: `is not a setting (known: ${Object.keys(keys).join(', ')})` });
        continue;
      }
      const reason = problem(spec, value);
      if (reason) issues.push({ path: `${section}.${key}`, message: reason });
      else merged[section][key] = value;
    }
  }
  if (issues.length > 0) throw settingsError(issues.map((i) => `${where}${i.path} ${i.message}`).join('; '), issues);
  return merged as unknown as DashboardSettings;
}

/** The values the environment sets, checked; the error names the variable. */
export function environmentOverrides(env: Env): SettingsPatch {
  const patch: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(KEYS)) {
    for (const [key, spec] of Object.entries(keys)) {
      const name = envVariable(section, key, spec);
      const text = name === null ? undefined : env[name];
      if (text === undefined || text === '') continue;
      const value = fromEnvText(spec, text);
      const reason = problem(spec, value);
      if (reason) throw settingsError(`${name} ${reason}, got ${spec.secret ? 'an invalid value' : JSON.stringify(text)}`);
      (patch[section] ??= {})[key] = value;
    }
  }
  return patch as SettingsPatch;
}

/** `base` with the patch's keys replaced (the patch must already be checked). */
export function applyPatch(base: DashboardSettings, patch: SettingsPatch): DashboardSettings {
  const merged = structuredClone(base) as unknown as Sections;
  for (const [section, values] of Object.entries(patch as Sections)) Object.assign(merged[section], values);
  return merged as unknown as DashboardSettings;
}

/** The settings as they may be logged or shown: secrets only as set or not. */
export function redactSettings(settings: DashboardSettings): Record<string, Record<string, unknown>> {
  const out: Sections = {};
  for (const [section, keys] of Object.entries(KEYS)) {
    const values = (settings as unknown as Sections)[section];
    out[section] = Object.fromEntries(Object.entries(keys).map(([key, spec]) => [key, spec.secret ? (values[key] ? '(set)' : '(empty)') : values[key]]));
  }
  return out;
}

/** Every key with its variable, for the README and --help. */
export function settingsUsage(): string {
  const rows: string[] = [];
  for (const [section, keys] of Object.entries(KEYS)) {
    for (const [key, spec] of Object.entries(keys)) {
      const env = envVariable(section, key, spec);
      const shown = spec.secret ? 'empty' : JSON.stringify(spec.default);
      rows.push(`  ${`${section}.${key}`.padEnd(24)} ${spec.help} (default ${shown}; env ${env ?? 'none'})`);
    }
  }
  return rows.join('\n');
}
