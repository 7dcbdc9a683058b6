/**
 * Service configuration, one format for both services: a JSON Schema (2020-12, checked by
 * json-schema.ts, the validator of the dashboard's routes) of an object whose properties are
 * keys, or sections of keys (`rate_limit.per_minute` in the dashboard's config.json). What JSON
 * Schema has no word for is said with annotations, in OpenAPI's `x-` style:
 *
 *   description     the help text (--help, the READMEs' tables)
 *   default         the value when no source sets one; a default that depends on the environment
 *                   (a folder under $HOME) is left out and given by the service (`defaults`)
 *   x-env-prefix    on the root: the service's prefix, `PRINTYARD_SLICER_`, `PRINTYARD_DASHBOARD_`
 *   x-env           the variable when the spec names another than the rule's (`SLICER_URL`), or
 *                   false for none
 *   x-secret        shown only as set or not: in the log, in --help, in error messages
 *   x-restart       read at start only: a change saved while the service runs takes effect at the
 *                   next start (keys without it are applied at once)
 *   x-file: false   cannot come from the file (the folder the file is found in)
 *
 * One rule for the environment: the prefix, then the key's path joined by `_`, in upper case:
 * `PRINTYARD_SLICER_REST_PORT`, `PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE`; an empty variable
 * counts as unset. On the command line a key is `--` and its path with dashes: `--rest-port`.
 * Every value is checked against the schema, and an error names the key as the user wrote it
 * (`--rest-port`, `PRINTYARD_SLICER_REST_PORT`, `slicer.json: rest_port`), so a typo is never
 * silently ignored.
 */
import { AppError } from './errors.js';
import { FORMAT_RULES, validate } from './json-schema.js';

export const CONFIG_ERROR = 'ERR_INVALID_CONFIG';
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

type Env = Readonly<Record<string, string | undefined>>;
type Values = Record<string, unknown>;

/** One key: its value's schema (a nullable number is `['integer', 'null']`, given as `auto`) and the annotations above. */
export type KeySchema = {
  readonly type: 'integer' | 'number' | 'string' | 'boolean' | readonly ['integer' | 'number', 'null'];
  readonly description: string;
  readonly default?: string | number | boolean | null;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly exclusiveMinimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: string;
  readonly 'x-env'?: string | false;
  readonly 'x-secret'?: boolean;
  readonly 'x-restart'?: boolean;
  readonly 'x-file'?: false;
};

export type SectionSchema = {
  readonly type: 'object';
  readonly description: string;
  readonly properties: Readonly<Record<string, KeySchema>>;
  readonly additionalProperties: false;
};

export type ConfigSchema = {
  readonly $schema: typeof JSON_SCHEMA_DIALECT;
  readonly type: 'object';
  readonly 'x-env-prefix': string;
  readonly properties: Readonly<Record<string, KeySchema | SectionSchema>>;
  readonly additionalProperties: false;
};

type ValueOf<K> = K extends { enum: readonly (infer V)[] }
  ? V
  : K extends { type: readonly unknown[] }
    ? number | null
    : K extends { type: 'integer' | 'number' }
      ? number
      : K extends { type: 'boolean' }
        ? boolean
        : string;
type EntryValue<E> = E extends { type: 'object'; properties: infer P } ? { -readonly [K in keyof P]: ValueOf<P[K]> } : ValueOf<E>;

/** The values a schema describes, typed: `{ rest_port: number; engine_threads: number | null; … }`. */
export type ConfigValues<S extends ConfigSchema> = { -readonly [K in keyof S['properties']]: EntryValue<S['properties'][K]> };

/** One key of a schema: its path, its name as written in a file (`rate_limit.per_minute`), its schema. */
export interface ConfigKey {
  readonly path: readonly string[];
  readonly name: string;
  readonly schema: KeySchema;
}

export function configError(message: string): AppError {
  return new AppError(CONFIG_ERROR, 400, message);
}

export function configKeys(schema: ConfigSchema): ConfigKey[] {
  const keys: ConfigKey[] = [];
  for (const [name, entry] of Object.entries(schema.properties)) {
    if (entry.type !== 'object') {
      keys.push({ path: [name], name, schema: entry });
      continue;
    }
    for (const [key, spec] of Object.entries(entry.properties)) keys.push({ path: [name, key], name: `${name}.${key}`, schema: spec });
  }
  return keys;
}

/** The key's environment variable, by the rule or as the schema names it; null for none. */
export function envName(schema: ConfigSchema, key: ConfigKey): string | null {
  const named = key.schema['x-env'];
  if (named === false) return null;
  return named ?? schema['x-env-prefix'] + key.path.join('_').toUpperCase();
}

export function flagName(key: ConfigKey): string {
  return `--${key.path.join('-').replace(/_/g, '-')}`;
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let at = values;
  for (const part of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Values)[part];
  }
  return at;
}

function setValue(values: Values, path: readonly string[], value: unknown): void {
  let at = values;
  for (const part of path.slice(0, -1)) {
    at[part] ??= {};
    at = at[part] as Values;
  }
  at[path[path.length - 1]] = value;
}

/** What a valid value of the key is, for messages: `an integer from 0 to 65535`. */
export function expectation(spec: KeySchema): string {
  if (typeof spec.type !== 'string') return `${rangeRule(spec, spec.type[0])}, or "auto"`;
  if (spec.enum) return `one of ${spec.enum.join(', ')}`;
  switch (spec.type) {
    case 'integer':
    case 'number':
      return rangeRule(spec, spec.type);
    case 'boolean':
      return 'true or false';
    case 'string': {
      const rule = (spec.format === undefined ? undefined : FORMAT_RULES[spec.format]) ?? 'a string';
      if (spec.maxLength === undefined) return rule;
      return `${rule} of ${spec.minLength ?? 0} to ${spec.maxLength} characters`;
    }
  }
}

function rangeRule(spec: KeySchema, type: 'integer' | 'number'): string {
  const { minimum, exclusiveMinimum, maximum } = spec;
  if (type === 'integer' && minimum !== undefined && maximum !== undefined) return `an integer from ${minimum} to ${maximum}`;
  let rule = type === 'integer' ? 'an integer' : 'a number';
  if (exclusiveMinimum !== undefined) rule += ` above ${exclusiveMinimum}`;
  if (minimum !== undefined) rule += ` of at least ${minimum}`;
  if (maximum !== undefined) rule += ` up to ${maximum}`;
  return rule;
}

/** True when the schema (json-schema.ts) accepts the value for the key. */
function accepts(spec: KeySchema, value: unknown): boolean {
  return validate(spec, value, '').length === 0;
}

/** A value as an error message may show it: a secret's is never shown. */
function shown(spec: KeySchema, value: unknown): string {
  return spec['x-secret'] ? 'an invalid value' : JSON.stringify(value);
}

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const TRUE_TEXT = ['1', 'true', 'yes', 'on'];
const FALSE_TEXT = ['0', 'false', 'no', 'off'];

/** Text from the command line or the environment as the key's type; text that does not convert stays text (and fails the check). */
function fromText(spec: KeySchema, text: string): unknown {
  const word = text.trim().toLowerCase();
  if (spec.type === 'boolean') {
    if (TRUE_TEXT.includes(word)) return true;
    if (FALSE_TEXT.includes(word)) return false;
    return text;
  }
  if (typeof spec.type !== 'string' && word === 'auto') return null;
  if (spec.type !== 'string' && NUMBER_TEXT.test(text)) return Number(text);
  return text;
}

/** Text given for a key, converted and checked; `where` names the source: `--rest-port`, `PRINTYARD_SLICER_REST_PORT`. */
function checkedText(key: ConfigKey, text: string, where: string): unknown {
  const value = fromText(key.schema, text);
  if (!accepts(key.schema, value)) throw configError(`${where}: expected ${expectation(key.schema)}, got ${shown(key.schema, text)}`);
  return value;
}

/**
 * The defaults: the schema's, and for the keys whose default depends on the environment, the
 * service's `computed` ones (by key name).
 */
export function defaultValues<S extends ConfigSchema>(schema: S, computed: Readonly<Record<string, unknown>> = {}): ConfigValues<S> {
  const values: Values = {};
  for (const key of configKeys(schema)) {
    const value = Object.hasOwn(computed, key.name) ? computed[key.name] : key.schema.default;
    if (value === undefined) throw new Error(`config key ${key.name} has no default`);
    setValue(values, key.path, value);
  }
  return values as ConfigValues<S>;
}

/** `base` with every key that `patch` holds replaced; neither is changed. */
export function overlayValues<V>(schema: ConfigSchema, base: V, patch: unknown): V {
  const merged = structuredClone(base) as Values;
  for (const key of configKeys(schema)) {
    const value = valueAt(patch, key.path);
    if (value !== undefined) setValue(merged, key.path, value);
  }
  return merged as V;
}

/**
 * The values the environment sets, as a nested patch. Throws ERR_INVALID_CONFIG naming the
 * variable: `PRINTYARD_SLICER_WORKERS: expected an integer from 1 to 64, got "0"`.
 */
export function environmentValues(schema: ConfigSchema, env: Env): Values {
  const patch: Values = {};
  for (const key of configKeys(schema)) {
    const name = envName(schema, key);
    const text = name === null ? undefined : env[name];
    if (name !== null && text) setValue(patch, key.path, checkedText(key, text, name));
  }
  return patch;
}

/** What is wrong in a document of keys (a file's content, an API patch), by the key's name as written there. */
export type DocumentIssue =
  /** The document (name '') or a section is not a JSON object. */
  | { kind: 'not-an-object'; name: string }
  | { kind: 'unknown'; name: string; known: readonly string[] }
  | { kind: 'not-in-file'; name: string }
  | { kind: 'invalid'; name: string; spec: KeySchema; value: unknown };

type Entry = ConfigSchema | SectionSchema | KeySchema;

function entryAt(schema: ConfigSchema, path: readonly string[]): Entry | undefined {
  let at: Entry = schema;
  for (const part of path) {
    if (at.type !== 'object' || !Object.hasOwn(at.properties, part)) return undefined;
    at = at.properties[part];
  }
  return at;
}

/**
 * Checks a document against the schema with json-schema.ts and says what each issue is, in the
 * order of the document; an empty list means it is valid. Keys a document leaves out are fine.
 */
export function documentIssues(schema: ConfigSchema, document: unknown): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const named = new Set<string>();
  for (const { path } of validate(schema, document, '')) {
    const parts = path.split('/').slice(1);
    const name = parts.join('.');
    if (named.has(name)) continue;
    named.add(name);
    const entry = entryAt(schema, parts);
    if (entry === undefined) {
      const parent = entryAt(schema, parts.slice(0, -1)) as ConfigSchema | SectionSchema;
      issues.push({ kind: 'unknown', name, known: Object.keys(parent.properties) });
    } else if (entry.type === 'object') {
      issues.push({ kind: 'not-an-object', name });
    } else {
      issues.push({ kind: 'invalid', name, spec: entry, value: valueAt(document, parts) });
    }
  }
  for (const key of configKeys(schema)) {
    if (key.schema['x-file'] === false && valueAt(document, key.path) !== undefined) issues.push({ kind: 'not-in-file', name: key.name });
  }
  return issues;
}

/** An issue of a service's options file, worded as the options' other errors: `slicer.json: rest_port: expected …`. */
function fileProblem(file: string, issue: DocumentIssue): string {
  switch (issue.kind) {
    case 'not-an-object':
      return issue.name === '' ? `${file}: expected a JSON object of settings` : `${file}: ${issue.name}: expected an object`;
    case 'unknown':
      return `${file}: unknown key "${issue.name}"`;
    case 'not-in-file':
      return `${file}: "${issue.name}" cannot be set in this file`;
    case 'invalid':
      return `${file}: ${issue.name}: expected ${expectation(issue.spec)}, got ${shown(issue.spec, issue.value)}`;
  }
}

function argvValues(schema: ConfigSchema, argv: readonly string[]): Values {
  const byFlag = new Map(configKeys(schema).map((key) => [flagName(key), key]));
  const values: Values = {};
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (!arg.startsWith('--')) throw configError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const negated = eq < 0 && flag.startsWith('--no-') ? byFlag.get(`--${flag.slice(5)}`) : undefined;
    if (negated !== undefined && negated.schema.type === 'boolean') {
      setValue(values, negated.path, false);
      continue;
    }
    const key = byFlag.get(flag);
    if (key === undefined) throw configError(`unknown option ${flag}`);
    let text: string;
    if (eq >= 0) {
      text = arg.slice(eq + 1);
    } else if (key.schema.type === 'boolean') {
      text = 'true';
    } else {
      const next = argv[k + 1];
      if (next === undefined || next.startsWith('--')) throw configError(`${flag}: missing value (expected ${expectation(key.schema)})`);
      text = next;
      k++;
    }
    setValue(values, key.path, checkedText(key, text, flag));
  }
  return values;
}

export interface ConfigSources {
  argv: readonly string[];
  env: Env;
  /** Defaults that depend on the environment, by key name (see defaultValues). */
  defaults?: Readonly<Record<string, unknown>>;
  /** Parsed JSON of the service's configuration file, with the file's name for messages. */
  file?: { name: string; values: unknown };
}

/**
 * A service's options: the defaults, then the file, then the environment, then the command line.
 * Throws an AppError (`ERR_INVALID_CONFIG`) naming the first bad key as the user wrote it.
 */
export function parseConfig<S extends ConfigSchema>(schema: S, sources: ConfigSources): ConfigValues<S> {
  let values = defaultValues(schema, sources.defaults);
  if (sources.file) {
    const [issue] = documentIssues(schema, sources.file.values);
    if (issue) throw configError(fileProblem(sources.file.name, issue));
    values = overlayValues(schema, values, sources.file.values);
  }
  values = overlayValues(schema, values, environmentValues(schema, sources.env));
  return overlayValues(schema, values, argvValues(schema, sources.argv));
}

/** The values as they may be logged or shown: secrets only as set or not. */
export function redactConfig<V>(schema: ConfigSchema, values: V): V {
  const masked: Values = {};
  for (const key of configKeys(schema)) {
    if (key.schema['x-secret']) setValue(masked, key.path, valueAt(values, key.path) ? '(set)' : '(empty)');
  }
  return overlayValues(schema, values, masked);
}

export interface UsageOptions {
  /** Keys as command-line flags (`--rest-port VALUE`), or as written in the file (`rate_limit.per_minute`). */
  names: 'flags' | 'keys';
  /** The computed defaults, as for defaultValues. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Rows of the same table that are not keys: `['--help', 'this help']`. */
  more?: readonly (readonly [string, string])[];
}

function shownDefault(spec: KeySchema, value: unknown, names: UsageOptions['names']): string {
  if (spec['x-secret']) return value ? '(set)' : 'empty';
  if (names === 'keys') return JSON.stringify(value);
  if (value === null) return 'auto';
  return value === '' ? 'empty' : String(value);
}

function flagUsage(key: ConfigKey): string {
  if (key.schema.type === 'boolean') return flagName(key);
  return `${flagName(key)} ${key.schema.enum ? key.schema.enum.join('|') : 'VALUE'}`;
}

/** A --help table of the keys: name, help, default, environment variable, and whether it needs a restart. */
export function configUsage(schema: ConfigSchema, options: UsageOptions): string {
  const defaults = defaultValues(schema, options.defaults);
  const rows = configKeys(schema).map((key) => {
    const env = envName(schema, key) ?? 'none';
    const restart = key.schema['x-restart'] ? '; needs a restart' : '';
    const value = shownDefault(key.schema, valueAt(defaults, key.path), options.names);
    return [options.names === 'flags' ? flagUsage(key) : key.name, `${key.schema.description} (default: ${value}; env ${env}${restart})`];
  });
  rows.push(...(options.more ?? []).map(([name, help]) => [name, help]));
  const width = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([name, help]) => `  ${name.padEnd(width)}  ${help}`).join('\n');
}
