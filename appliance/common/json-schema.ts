/**
 * A JSON Schema (2020-12, the dialect of OpenAPI 3.1) validator for the subset the services use:
 * type (one or a list), properties, required, additionalProperties (false or a schema), enum,
 * const, minLength, maxLength, pattern, minimum, exclusiveMinimum, maximum, items, minItems,
 * maxItems, oneOf, anyOf and the formats `uri`, `date-time`, `password` (documentation only),
 * `display-name` (names: no control, bidirectional or invisible characters, see names.ts),
 * `http-url` (an absolute http or https URL), `mqtt-url` (an mqtt:// or mqtts:// broker URL),
 * `mqtt-topic` (levels of letters, digits, _ and -) and `short-duration` (`30m`, `24h`, `7d`: a
 * number and a unit, as jose writes token lifetimes; not ISO 8601's `PT30M`).
 *
 * The dashboard's routes check their input with it, and both services check their configuration
 * with it (config.ts). The same schemas go into the OpenAPI description, so what is documented is
 * what is enforced. A keyword outside the subset is a programming error and throws, rather than
 * being silently ignored; keywords starting with `x-` (OpenAPI's extensions) only annotate.
 */
import { AppError, ErrorCode } from './errors.js';
import { NAME_FORMAT, nameProblem } from './names.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { [keyword: string]: unknown };

export interface ValidationIssue {
  /** Where: `body`, `body/rate_limit/per_minute`, `query/limit`, `path/id`. */
  path: string;
  message: string;
}

/** Keywords that only document (OpenAPI shows them) and do not constrain. */
const ANNOTATIONS = new Set(['$schema', 'description', 'title', 'default', 'examples', 'example', 'readOnly', 'writeOnly', 'deprecated', '$comment']);
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'items',
  'minItems',
  'maxItems',
  'oneOf',
  'anyOf',
  'format',
]);
const HTTP_URL = 'http-url';
const MQTT_URL = 'mqtt-url';
const MQTT_TOPIC = 'mqtt-topic';
const TOPIC_LEVELS = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
const SHORT_DURATION = 'short-duration';
const FORMATS = new Set(['uri', 'date-time', 'password', NAME_FORMAT, HTTP_URL, MQTT_URL, MQTT_TOPIC, SHORT_DURATION]);
/** What a value of the formats that have a fixed rule must be, for messages. */
export const FORMAT_RULES: Readonly<Record<string, string>> = {
  [HTTP_URL]: 'an http:// or https:// URL',
  [MQTT_URL]: 'an mqtt:// or mqtts:// URL with a host',
  [MQTT_TOPIC]: 'a topic of letters, digits, _ and - levels split by / (no wildcards, no leading or trailing /)',
  [SHORT_DURATION]: 'a duration such as 30m, 24h or 7d',
};
/** `short-duration` text: jose's and vercel/ms's notation, `24h`, `30m`, `7d`, `90 s`. */
const DURATION = /^(\d+(?:\.\d+)?) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

function typeOf(value: unknown): Exclude<JsonType, 'integer'> | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  if (t === 'boolean' || t === 'number' || t === 'string' || t === 'object') return t;
  return 'undefined';
}

function matchesType(value: unknown, type: JsonType): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeOf(value) === type;
}

/** The type's name as a message says it: `an integer`, `a string`, `null`. */
function withArticle(type: JsonType): string {
  if (type === 'null') return 'null';
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeOf(value) === 'object';
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function isUri(text: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isMqttUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'mqtt:' || url.protocol === 'mqtts:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isShortDuration(text: string): boolean {
  const m = DURATION.exec(text.trim());
  return m !== null && Number(m[1]) > 0;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

/** Rejects keywords this validator does not implement (they would be silently unenforced). */
export function assertSupportedSchema(schema: JsonSchema, where: string): void {
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword) && !ANNOTATIONS.has(keyword) && !keyword.startsWith('x-')) {
      throw new AppError(ErrorCode.internal, 500, `${where}: JSON Schema keyword "${keyword}" is not supported by common/json-schema.ts`);
    }
  }
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) {
    throw new AppError(ErrorCode.internal, 500, `${where}: format "${schema.format}" is not supported`);
  }
  const sub = (s: unknown, w: string) => {
    if (isObject(s)) assertSupportedSchema(s, w);
  };
  if (isObject(schema.properties)) for (const [k, s] of Object.entries(schema.properties)) sub(s, `${where}.properties.${k}`);
  sub(schema.additionalProperties, `${where}.additionalProperties`);
  sub(schema.items, `${where}.items`);
  for (const list of ['oneOf', 'anyOf'] as const) {
    const schemas = schema[list];
    if (Array.isArray(schemas)) {
      for (const [i, s] of schemas.entries()) sub(s, `${where}.${list}[${i}]`);
    }
  }
}

function validateInto(schema: JsonSchema, value: unknown, path: string, issues: ValidationIssue[]): void {
  const before = issues.length;
  const fail = (message: string) => void issues.push({ path, message });

  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[];
    if (!types.some((t) => matchesType(value, t))) {
      fail(`must be ${types.map(withArticle).join(' or ')}`);
      return;
    }
  }
  if (schema.const !== undefined && !deepEqual(value, schema.const)) fail(`must be ${show(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(value, e))) {
    fail(`must be one of ${schema.enum.map(show).join(', ')}`);
  }

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) {
      fail(schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long`);
    }
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) fail(`must be at most ${schema.maxLength} characters long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail(`must match the pattern ${schema.pattern}`);
    if (schema.format === 'uri' && !isUri(value)) fail('must be an absolute URI');
    if (schema.format === HTTP_URL && !isHttpUrl(value)) fail(`must be ${FORMAT_RULES[HTTP_URL]}`);
    if (schema.format === MQTT_URL && !isMqttUrl(value)) fail(`must be ${FORMAT_RULES[MQTT_URL]}`);
    if (schema.format === MQTT_TOPIC && !TOPIC_LEVELS.test(value)) fail(`must be ${FORMAT_RULES[MQTT_TOPIC]}`);
    if (schema.format === SHORT_DURATION && !isShortDuration(value)) fail(`must be ${FORMAT_RULES[SHORT_DURATION]}`);
    if (schema.format === NAME_FORMAT) {
      const problem = nameProblem(value);
      if (problem !== null) fail(problem);
    }
  }

  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail(`must be at least ${schema.minimum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) fail(`must be above ${schema.exclusiveMinimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail(`must be at most ${schema.maximum}`);
  }

  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail(`must have at least ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail(`must have at most ${schema.maxItems} items`);
    if (isObject(schema.items)) {
      const items = schema.items;
      for (const [i, item] of value.entries()) validateInto(items, item, `${path}/${i}`, issues);
    }
  }

  if (isObject(value)) {
    const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required as string[]) {
        if (!Object.hasOwn(value, key)) issues.push({ path: `${path}/${key}`, message: 'is required' });
      }
    }
    for (const [key, item] of Object.entries(value)) {
      const itemPath = `${path}/${key}`;
      if (Object.hasOwn(properties, key)) validateInto(properties[key], item, itemPath, issues);
      else if (schema.additionalProperties === false) issues.push({ path: itemPath, message: 'is not an allowed property' });
      else if (isObject(schema.additionalProperties)) validateInto(schema.additionalProperties, item, itemPath, issues);
    }
  }

  if (issues.length > before) return;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    const results = branches.map((s) => validate(s, value, path));
    if (!results.some((r) => r.length === 0)) issues.push(...closestBranch(results));
  }
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf as JsonSchema[];
    const results = branches.map((s) => validate(s, value, path));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) issues.push(...closestBranch(results));
    else if (passing > 1) fail('matches more than one of the allowed shapes');
  }
}

/** For a failed oneOf/anyOf, the branch that came closest tells the client the most. */
function closestBranch(results: ValidationIssue[][]): ValidationIssue[] {
  return results.reduce((best, r) => (r.length < best.length ? r : best));
}

/**
 * Checks `value` against `schema`; an empty list means it is valid. `path` names the value in
 * the issues (`body`, `query/limit`); nested paths continue it JSON-pointer style (`body/a/0`).
 */
export function validate(schema: JsonSchema, value: unknown, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  validateInto(schema, value, path, issues);
  return issues;
}
