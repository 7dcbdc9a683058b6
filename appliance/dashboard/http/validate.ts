/**
 * Checking request input, on top of the JSON Schema validator both services share
 * (common/json-schema.ts): what the dashboard adds for requests: the nesting limit of
 * JSON bodies, text of path and query parameters converted to their schema's type, and the 400
 * `ERR_VALIDATION` that names every issue.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonSchema, ValidationIssue } from '../../common/json-schema.js';

/**
 * How deep objects and arrays may nest in a JSON body. JSON.parse copes with any depth, but
 * JSON.stringify, structuredClone and recursive code overflow the stack a few thousand levels
 * down; real bodies nest a handful of levels.
 */
export const MAX_JSON_DEPTH = 64;

/** True when objects and arrays nest deeper than `limit` in `value` (`{}` is one level); walks it without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A 400 ERR_VALIDATION naming every issue, with the list as `details` for clients. */
export function validationError(issues: readonly ValidationIssue[]): AppError {
  return new AppError(ErrorCode.validation, 400, issues.map((i) => `${i.path} ${i.message}`).join('; '), issues);
}

/**
 * Converts the text of a path or query parameter to what its schema's type asks for, so the
 * schema can check it: `"5"` for an integer becomes 5. Text that does not convert is left as
 * text and the type check reports it.
 */
export function parameterValue(schema: JsonSchema, text: string): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes('integer') || types.includes('number')) && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
