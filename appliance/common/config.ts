/**
 * Service configuration: one schema per service, read from (lowest first) the schema defaults, an
 * optional JSON file, environment variables, then command-line options. Every value is checked
 * against the schema and an error names the key as the user wrote it (`--rest-port`,
 * `PRINTYARD_SLICER_REST_PORT`, `slicer.json: rest_port`), so a typo is never silently ignored.
 *
 * Keys are snake_case; `rest_port` is `--rest-port` on the command line and `<PREFIX>REST_PORT`
 * in the environment.
 */
import { AppError } from './errors.js';

export const CONFIG_ERROR = 'ERR_INVALID_CONFIG';

type Env = Readonly<Record<string, string | undefined>>;
type Default<T> = T | ((env: Env) => T);

interface BaseSpec {
  help: string;
  /** Masked when the configuration is logged. */
  secret?: boolean;
  /** False for keys that cannot come from the file (e.g. the folder the file is found in). */
  inFile?: boolean;
}

export interface IntegerSpec extends BaseSpec {
  type: 'integer';
  default: Default<number | null>;
  nullable?: boolean;
  min?: number;
  max?: number;
}

export interface NumberSpec extends BaseSpec {
  type: 'number';
  default: Default<number | null>;
  nullable?: boolean;
  /** Values must be greater than this. */
  above?: number;
  max?: number;
}

export interface StringSpec extends BaseSpec {
  type: 'string';
  default: Default<string>;
}

export interface BooleanSpec extends BaseSpec {
  type: 'boolean';
  default: Default<boolean>;
}

export interface EnumSpec extends BaseSpec {
  type: 'enum';
  values: readonly string[];
  default: Default<string>;
}

export type OptionSpec = IntegerSpec | NumberSpec | StringSpec | BooleanSpec | EnumSpec;
export type ConfigSchema = Readonly<Record<string, OptionSpec>>;

type ValueOf<S> = S extends { type: 'integer' | 'number' }
  ? S extends { nullable: true } ? number | null : number
  : S extends { type: 'boolean' } ? boolean
  : S extends { type: 'enum'; values: readonly (infer V)[] } ? V
  : string;

export type ConfigValues<S extends ConfigSchema> = { -readonly [K in keyof S]: ValueOf<S[K]> };

export interface ConfigSources {
  argv: readonly string[];
  env: Env;
  /** Prefix of the environment variables, e.g. `PRINTYARD_SLICER_`. */
  envPrefix: string;
  /** Parsed JSON of the service's configuration file, with the file's name for messages. */
  file?: { name: string; values: unknown };
}

function fail(message: string): AppError {
  return new AppError(CONFIG_ERROR, 400, message);
}

export function flagName(key: string): string {
  return `--${key.replace(/_/g, '-')}`;
}

export function envName(key: string, prefix: string): string {
  return prefix + key.toUpperCase();
}

function describe(spec: OptionSpec): string {
  switch (spec.type) {
    case 'integer': {
      const range = spec.max === undefined ? `an integer of at least ${spec.min ?? 0}` : `an integer from ${spec.min ?? 0} to ${spec.max}`;
      return spec.nullable ? `${range}, or "auto"` : range;
    }
    case 'number': {
      const range = `a number${spec.above === undefined ? '' : ` above ${spec.above}`}${spec.max === undefined ? '' : ` up to ${spec.max}`}`;
      return spec.nullable ? `${range}, or "auto"` : range;
    }
    case 'boolean': return 'true or false';
    case 'enum': return `one of ${spec.values.join(', ')}`;
    case 'string': return 'a string';
  }
}

/** Converts text (from argv or the environment) to the option's type, or explains why not. */
function fromText(spec: OptionSpec, text: string, where: string): unknown {
  const bad = () => fail(`${where}: expected ${describe(spec)}, got ${JSON.stringify(text)}`);
  switch (spec.type) {
    case 'integer':
    case 'number': {
      if (spec.nullable && text.trim().toLowerCase() === 'auto') return null;
      if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) throw bad();
      return check(spec, Number(text), where, text);
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(t)) return true;
      if (['0', 'false', 'no', 'off'].includes(t)) return false;
      throw bad();
    }
    case 'enum':
    case 'string':
      return check(spec, text, where, text);
  }
}

/** Checks a value of the right JavaScript type against the option's limits. */
function check(spec: OptionSpec, value: unknown, where: string, shown: string = JSON.stringify(value)): unknown {
  const bad = () => fail(`${where}: expected ${describe(spec)}, got ${shown}`);
  switch (spec.type) {
    case 'integer':
      if (value === null && spec.nullable) return null;
      if (typeof value !== 'number' || !Number.isInteger(value)) throw bad();
      if (value < (spec.min ?? 0) || (spec.max !== undefined && value > spec.max)) throw bad();
      return value;
    case 'number':
      if (value === null && spec.nullable) return null;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad();
      if ((spec.above !== undefined && value <= spec.above) || (spec.max !== undefined && value > spec.max)) throw bad();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw bad();
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) throw bad();
      return value;
    case 'string':
      if (typeof value !== 'string') throw bad();
      return value;
  }
}

function readArgv(schema: ConfigSchema, argv: readonly string[], into: Record<string, unknown>): void {
  const byFlag = new Map(Object.keys(schema).map((key) => [flagName(key), key]));
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (!arg.startsWith('--')) throw fail(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const negated = eq < 0 && flag.startsWith('--no-') ? byFlag.get(`--${flag.slice(5)}`) : undefined;
    if (negated !== undefined && schema[negated].type === 'boolean') {
      into[negated] = false;
      continue;
    }
    const key = byFlag.get(flag);
    if (key === undefined) throw fail(`unknown option ${flag}`);
    const spec = schema[key];
    let text: string;
    if (eq >= 0) {
      text = arg.slice(eq + 1);
    } else if (spec.type === 'boolean') {
      text = 'true';
    } else {
      const next = argv[k + 1];
      if (next === undefined || next.startsWith('--')) throw fail(`${flag}: missing value (expected ${describe(spec)})`);
      text = next;
      k++;
    }
    into[key] = fromText(spec, text, flag);
  }
}

function readFile(schema: ConfigSchema, file: NonNullable<ConfigSources['file']>, into: Record<string, unknown>): void {
  const values = file.values;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw fail(`${file.name}: expected a JSON object of settings`);
  }
  for (const [key, value] of Object.entries(values)) {
    const spec = schema[key];
    if (spec === undefined) throw fail(`${file.name}: unknown key "${key}"`);
    if (spec.inFile === false) throw fail(`${file.name}: "${key}" cannot be set in this file`);
    into[key] = check(spec, value, `${file.name}: ${key}`);
  }
}

/** Reads and checks the configuration; throws an AppError (`ERR_INVALID_CONFIG`) naming the key. */
export function parseConfig<S extends ConfigSchema>(schema: S, sources: ConfigSources): ConfigValues<S> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(schema)) {
    values[key] = typeof spec.default === 'function' ? spec.default(sources.env) : spec.default;
  }
  if (sources.file) readFile(schema, sources.file, values);
  for (const [key, spec] of Object.entries(schema)) {
    const name = envName(key, sources.envPrefix);
    const text = sources.env[name];
    if (text !== undefined && text !== '') values[key] = fromText(spec, text, name);
  }
  readArgv(schema, sources.argv, values);
  return values as ConfigValues<S>;
}

/** The configuration as it may be logged: secrets are shown only as set or not. */
export function redactConfig<S extends ConfigSchema>(schema: S, values: ConfigValues<S>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const value = (values as Record<string, unknown>)[key];
    out[key] = schema[key].secret ? (value ? '(set)' : '(empty)') : value;
  }
  return out;
}

/** The options part of a --help text: flag, help, default and environment variable of each key. */
export function configUsage(schema: ConfigSchema, envPrefix: string, env: Env): string {
  const rows = Object.entries(schema).map(([key, spec]) => {
    const value = typeof spec.default === 'function' ? spec.default(env) : spec.default;
    const shown = spec.secret ? (value ? '(set)' : 'empty') : value === null ? 'auto' : value === '' ? 'empty' : String(value);
    const arg = spec.type === 'boolean' ? '' : ` ${spec.type === 'enum' ? spec.values.join('|') : 'VALUE'}`;
    return [`${flagName(key)}${arg}`, `${spec.help} (default: ${shown}; env ${envName(key, envPrefix)})`];
  });
  const width = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`).join('\n');
}
