/**
 * Our own profile format: a JSON file holding one profile object or an array of them. G-code
 * settings may be written as an array of lines, which keeps long scripts readable in the files.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { SETTINGS, isSettingKey, parsePatch, type ConfigPatch } from './schema.js';
import { isValidProfileId } from './ids.js';
import { profileLabelProblem } from './labels.js';
import { PROFILE_KINDS, emptyReport, type Profile, type ProfileBatch, type ProfileKind, type ProfileSource } from './types.js';

/** A user profile as a profile file holds it (the optional fields left out when unset). */
export interface ProfileFileEntry {
  id: string;
  kind: ProfileKind;
  name: string;
  vendor: string;
  inherits?: string;
  description?: string;
  compatible_printers?: string[];
  printer_model?: string;
  settings: ConfigPatch;
}

const FIELDS = new Set([
  'id',
  'kind',
  'name',
  'vendor',
  'inherits',
  'instantiable',
  'is_default',
  'compatible_printers',
  'printer_model',
  'description',
  'settings',
  // Written by `get()`; accepted so that an exported profile can be loaded back, then ignored.
  'source',
]);

function invalidProfile(message: string, id?: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message, id === undefined ? undefined : { id });
}

function optionalString(record: Record<string, unknown>, field: string, label: string): string | undefined {
  const value = record[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidProfile(`profile "${label}": "${field}" must be a string`, label);
  return value;
}

function optionalBool(record: Record<string, unknown>, field: string, label: string, fallback: boolean): boolean {
  const value = record[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidProfile(`profile "${label}": "${field}" must be true or false`, label);
  return value;
}

/** Validates one record of our format; the source is the loader's to decide, not the file's. */
export function parseProfileRecord(raw: unknown, source: ProfileSource): Profile {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidProfile('a profile must be a JSON object');
  }
  const record = raw as Record<string, unknown>;
  const id = record.id;
  if (typeof id !== 'string' || !isValidProfileId(id)) {
    throw invalidProfile(`profile id ${JSON.stringify(id)} is not a slug (lower-case letters, digits, ".", "_", "-")`);
  }
  for (const field of Object.keys(record)) {
    if (!FIELDS.has(field)) throw invalidProfile(`profile "${id}": unknown field "${field}"`, id);
  }
  const kind = record.kind;
  if (typeof kind !== 'string' || !PROFILE_KINDS.includes(kind as ProfileKind)) {
    throw invalidProfile(`profile "${id}": "kind" must be one of ${PROFILE_KINDS.join(', ')}`, id);
  }
  const name = optionalString(record, 'name', id);
  if (name === undefined || name.trim() === '') throw invalidProfile(`profile "${id}": "name" is required`, id);
  const compatible = record.compatible_printers;
  if (compatible !== undefined && !(Array.isArray(compatible) && compatible.every((c) => typeof c === 'string'))) {
    throw invalidProfile(`profile "${id}": "compatible_printers" must be a list of printer ids`, id);
  }
  const profile: Profile = {
    id,
    kind: kind as ProfileKind,
    name,
    vendor: optionalString(record, 'vendor', id) ?? '',
    instantiable: optionalBool(record, 'instantiable', id, true),
    is_default: optionalBool(record, 'is_default', id, false),
    source,
    settings: parseOwnSettings(record.settings, kind as ProfileKind, id),
  };
  const inherits = optionalString(record, 'inherits', id);
  if (inherits !== undefined) profile.inherits = inherits;
  if (compatible !== undefined) profile.compatible_printers = compatible as string[];
  const printerModel = optionalString(record, 'printer_model', id);
  if (printerModel !== undefined) profile.printer_model = printerModel;
  const description = optionalString(record, 'description', id);
  if (description !== undefined) profile.description = description;
  const labelProblem = profileLabelProblem(profile);
  if (labelProblem !== null) throw invalidProfile(`profile "${id}": ${labelProblem}`, id);
  return profile;
}

function parseOwnSettings(raw: unknown, kind: ProfileKind, id: string): ConfigPatch {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidProfile(`profile "${id}": "settings" must be an object`, id);
  }
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (isSettingKey(key)) {
      const def = SETTINGS[key];
      if (def.kind !== kind) {
        throw new AppError(ErrorCode.invalidSetting, 400, `profile "${id}": setting "${key}" belongs to ${def.kind} profiles, not ${kind} profiles`, {
          key,
          id,
        });
      }
      values[key] = def.type === 'gcode' ? joinGcodeLines(value) : value;
    } else {
      values[key] = value;
    }
  }
  try {
    return parsePatch(values);
  } catch (err) {
    if (err instanceof AppError) throw new AppError(err.code, err.status, `profile "${id}": ${err.message}`, err.details);
    throw err;
  }
}

/** A G-code value given as lines becomes one script; a per-filament one may be a list of such lists. */
function joinGcodeLines(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((line) => typeof line === 'string')) {
    return Array.isArray(value) ? value.map(joinGcodeLines) : value;
  }
  return value.length === 0 ? '' : `${value.join('\n')}\n`;
}

function byCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

async function listJsonFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: string[] = [];
  // Plain code-unit order: stable on every machine, and without localeCompare's first call, which
  // loads the ICU collator (some 12 ms of every command-line start).
  for (const entry of entries.sort((a, b) => byCodeUnits(a.name, b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listJsonFiles(full)));
    else if (entry.isFile() && entry.name.endsWith('.json')) files.push(full);
  }
  return files;
}

/** The records of one profile file, or why the file is not JSON. */
export type ProfileFileRecords = { file: string; records: unknown[] } | { file: string; error: string };

/** Reads and parses every `*.json` below `dir`, without checking what the records hold. */
export async function readProfileFileRecords(dir: string): Promise<ProfileFileRecords[]> {
  const out: ProfileFileRecords[] = [];
  for (const file of await listJsonFiles(dir)) {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      out.push({ file, records: Array.isArray(parsed) ? parsed : [parsed] });
    } catch (err) {
      out.push({ file, error: `not valid JSON: ${(err as Error).message}` });
    }
  }
  return out;
}

/** Checks records as `parseProfileRecord` does; bad records are reported in the batch, not thrown. */
export function parseProfileRecords(file: string, records: readonly unknown[], source: ProfileSource, batch: ProfileBatch): void {
  for (const record of records) {
    try {
      batch.profiles.push({ profile: parseProfileRecord(record, source), file });
    } catch (err) {
      const label = typeof record === 'object' && record !== null ? (record as Record<string, unknown>).id : undefined;
      batch.report.skipped.push({
        file,
        ...(typeof label === 'string' ? { name: label } : {}),
        reason: err instanceof AppError ? err.message : String(err),
      });
    }
  }
}

/** Reads every `*.json` below `dir`; bad files and records are reported, not thrown. */
export async function readProfileFiles(dir: string, source: ProfileSource): Promise<ProfileBatch> {
  const batch: ProfileBatch = { profiles: [], report: emptyReport() };
  for (const read of await readProfileFileRecords(dir)) {
    if ('error' in read) batch.report.skipped.push({ file: read.file, reason: read.error });
    else parseProfileRecords(read.file, read.records, source, batch);
  }
  return batch;
}
