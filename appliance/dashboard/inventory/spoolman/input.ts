/**
 * Reading Spoolman request bodies and list queries as Spoolman (FastAPI) does: a body that is not
 * JSON or does not fit the schema is a 422 with `detail` naming each problem; `extra` values must
 * be JSON-encoded strings; list filters take comma-separated terms (case-insensitive substrings,
 * `"…"` for an exact match, an empty term for "not set"), `sort=field:asc,other:desc`, `limit`,
 * `offset`.
 */
import { validate, type JsonSchema } from '../../../common/json-schema.js';
import { readBody } from '../../http/body.js';
import type { RouteContext } from '../../http/route.js';
import { badRequest, unprocessable, type Detail } from './errors.js';
import type { Json } from './shapes.js';

export const MAX_BODY_BYTES = 64 * 1024;

function detailOf(path: string, message: string, input: unknown): Detail {
  const loc = path.split('/').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return { type: 'value_error', loc, msg: message, input };
}

export async function readJsonBody(ctx: RouteContext, schema: JsonSchema): Promise<Json> {
  const bytes = await readBody(ctx.req, MAX_BODY_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw unprocessable([{ type: 'json_invalid', loc: ['body'], msg: `JSON decode error: ${(err as Error).message}` }]);
  }
  const issues = validate(schema, value, 'body');
  if (issues.length > 0) throw unprocessable(issues.map((i) => detailOf(i.path, i.message, value)));
  const body = value as Json;
  if (body.extra !== undefined && body.extra !== null) checkExtra(body.extra as Record<string, unknown>);
  return body;
}

/** Spoolman's `extra`: every value a JSON-encoded string (or null to clear the key). */
function checkExtra(extra: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) continue;
    try {
      JSON.parse(value as string);
    } catch {
      throw badRequest(`Extra field ${key} is not a valid JSON-encoded value.`);
    }
  }
}

/** Merges an `extra` patch per key; null clears a key. */
export function mergeExtra(current: Record<string, string>, patch: unknown): Record<string, string> {
  if (patch === undefined || patch === null) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(patch as Record<string, string | null>)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Spoolman's text filter: comma-separated terms, any of which may match. */
export function matchesTerms(value: string | null | undefined, filter: string | undefined): boolean {
  if (filter === undefined) return true;
  const text = (value ?? '').toLowerCase();
  return filter.split(',').some((raw) => {
    const term = raw.trim().toLowerCase();
    if (term === '') return text === '';
    if (term.length >= 2 && term.startsWith('"') && term.endsWith('"')) return text === term.slice(1, -1);
    return text.includes(term);
  });
}

/** Spoolman's id filter: comma-separated integers; -1 means "none". */
export function matchesIds(value: number | null | undefined, filter: string | undefined, name: string): boolean {
  if (filter === undefined) return true;
  if (!/^-?\d+(,-?\d+)*$/.test(filter)) {
    throw unprocessable([
      { type: 'string_pattern_mismatch', loc: ['query', name], msg: "String should match pattern '^-?\\d+(,-?\\d+)*$'", input: filter },
    ]);
  }
  return filter.split(',').some((id) => (Number(id) === -1 ? value == null : Number(id) === value));
}

function valueAt(item: Json, path: string): unknown {
  let value: unknown = item;
  for (const part of path.split('.')) value = value === null || typeof value !== 'object' ? undefined : (value as Json)[part];
  return value;
}

/** `field:asc,other.field:desc` over the answered JSON, then paging; the total before paging. */
export function sortAndPage(items: Json[], query: Record<string, string>): { page: Json[]; total: number } {
  const keys = (query.sort ?? '')
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((part) => {
      const [field, direction = 'asc'] = part.trim().split(':');
      if (direction !== 'asc' && direction !== 'desc') throw badRequest(`Invalid sort direction "${direction}" for field "${field}".`);
      return { field, sign: direction === 'asc' ? 1 : -1 };
    });
  const sorted = [...items].sort((a, b) => {
    for (const { field, sign } of keys) {
      const x = valueAt(a, field);
      const y = valueAt(b, field);
      if (x === y) continue;
      if (x === undefined) return -sign;
      if (y === undefined) return sign;
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      if (order !== 0) return order * sign;
    }
    return (a.id as number) - (b.id as number);
  });
  const limit = integerQuery(query, 'limit');
  const offset = integerQuery(query, 'offset') ?? 0;
  return { page: limit === undefined ? sorted.slice(offset) : sorted.slice(offset, offset + limit), total: items.length };
}

function integerQuery(query: Record<string, string>, name: string): number | undefined {
  const text = query[name];
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) {
    throw unprocessable([
      { type: 'int_parsing', loc: ['query', name], msg: 'Input should be a valid integer, unable to parse string as an integer', input: text },
    ]);
  }
  return Number(text);
}

export function booleanQuery(query: Record<string, string>, name: string): boolean {
  const text = (query[name] ?? 'false').toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  throw unprocessable([
    { type: 'bool_parsing', loc: ['query', name], msg: 'Input should be a valid boolean, unable to interpret input', input: text },
  ]);
}

/** Query parameters as declared on a route: all text, parsed by the handler so errors come in Spoolman's shape. */
export function textQuery(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((n) => [n, { type: 'string', maxLength: 1024 }]));
}
