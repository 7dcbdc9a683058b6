/**
 * The checks a user profile's body gets beyond its JSON schema: every setting against the engine's
 * settings table (the key exists, belongs to the profile's kind, and its value parses), each
 * problem reported with the key in its path (`body/settings/layer_height`), all at once.
 */
import { AppError } from '../../../common/errors.js';
import type { ValidationIssue } from '../../../common/json-schema.js';
import { parseSetting, type ConfigPatch, isSettingKey, type ProfileKind, SETTINGS } from '../../../slicer/index.js';

/** `invalid value for setting "x": 5 is above…` → `5 is above…`: the path already names the key. */
function valueProblem(err: unknown): string {
  const message = err instanceof AppError ? err.message : String(err);
  return message.replace(/^invalid value for setting "[^"]*": /, '');
}

/**
 * Parses the settings of a `kind` profile. `null` values are kept as null when `allowNull` (a PUT
 * removes those keys); problems go to `issues`.
 */
export function checkSettings(
  raw: Record<string, unknown>,
  kind: ProfileKind,
  issues: ValidationIssue[],
  allowNull: boolean,
): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const path = `body/settings/${key}`;
    if (!isSettingKey(key)) {
      issues.push({ path, message: 'is not a setting of the engine' });
      continue;
    }
    if (value === null && allowNull) {
      parsed[key] = null;
      continue;
    }
    const owner = SETTINGS[key].kind;
    if (owner !== kind) {
      issues.push({ path, message: `is a ${owner} setting; a ${kind} profile cannot set it` });
      continue;
    }
    try {
      parsed[key] = parseSetting(key, value);
    } catch (err) {
      issues.push({ path, message: valueProblem(err) });
    }
  }
  return parsed;
}

/** Applies a PUT's settings to the stored ones: null removes a key, anything else replaces it. */
export function mergeSettings(current: ConfigPatch, changes: Record<string, unknown>): ConfigPatch {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as ConfigPatch;
}
