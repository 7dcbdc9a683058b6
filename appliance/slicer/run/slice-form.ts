/**
 * The slice form (the slicer service's POST /api/slice; the dashboard's upload routes take the
 * same), checked field by field (every message names its field), and the job's configuration
 * resolved from it. Setting errors of the overrides come back as 400 ERR_BAD_REQUEST naming
 * `overrides`, as the contract has no separate setting codes.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { MultipartForm, UploadedFile } from '../../common/multipart.js';
import { type HeightChange, heightChangesProblem } from '../engine/gcode/height-changes.js';
import type { ProfileCatalogue } from '../profiles/catalogue.js';
import type { PrintConfig } from '../profiles/schema.js';

export const SLICE_FILE_FIELDS = ['model'] as const;
const TEXT_FIELDS = ['printer_id', 'filament_ids', 'process_id', 'overrides', 'height_changes'];

export interface SliceForm {
  model: UploadedFile;
  printerId: string;
  filamentIds: string[];
  processId: string;
  overrides: Record<string, unknown> | null;
  /** Settings that change with height (a calibration print's); absent when none. */
  heightChanges?: HeightChange[];
}

function bad(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

function required(form: MultipartForm, name: string): string {
  const value = form.fields.get(name)?.trim();
  if (!value) throw bad(`field "${name}" is required`);
  return value;
}

function parseJson(text: string, field: string, expected: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw bad(`field "${field}" must be ${expected}`);
  }
}

export function parseSliceForm(form: MultipartForm): SliceForm {
  for (const name of form.fields.keys()) {
    if (!TEXT_FIELDS.includes(name)) throw bad(`unknown field "${name}"`);
  }
  const model = form.files.get('model');
  if (model === undefined) throw bad('field "model" is required (an STL or 3MF file)');
  const printerId = required(form, 'printer_id');
  const processId = required(form, 'process_id');

  const filamentText = required(form, 'filament_ids');
  const filamentIds = parseJson(filamentText, 'filament_ids', 'a JSON array of filament profile ids');
  if (!Array.isArray(filamentIds) || filamentIds.length === 0 || !filamentIds.every((id) => typeof id === 'string' && id !== '')) {
    throw bad('field "filament_ids" must be a non-empty JSON array of filament profile ids');
  }

  let overrides: Record<string, unknown> | null = null;
  const overridesText = form.fields.get('overrides')?.trim();
  if (overridesText) {
    const parsed = parseJson(overridesText, 'overrides', 'a JSON object of settings');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw bad('field "overrides" must be a JSON object of settings');
    overrides = parsed as Record<string, unknown>;
  }
  const changesText = form.fields.get('height_changes')?.trim();
  if (changesText) {
    const parsed = parseJson(changesText, 'height_changes', 'a JSON array of {z_from, setting, value}');
    const problem = heightChangesProblem(parsed);
    if (problem) throw bad(`field "height_changes": ${problem}`);
    return { model, printerId, filamentIds: filamentIds as string[], processId, overrides, heightChanges: parsed as HeightChange[] };
  }
  return { model, printerId, filamentIds: filamentIds as string[], processId, overrides };
}

/** The engine configuration of the job: profiles resolved, overrides checked. */
export function resolveJobConfig(catalogue: ProfileCatalogue, form: SliceForm): PrintConfig {
  try {
    return catalogue.resolveConfig({
      printerId: form.printerId,
      filamentIds: form.filamentIds,
      processId: form.processId,
      ...(form.overrides === null ? {} : { overrides: form.overrides }),
    });
  } catch (err) {
    if (err instanceof AppError && (err.code === ErrorCode.unknownSetting || err.code === ErrorCode.invalidSetting)) {
      throw new AppError(ErrorCode.badRequest, 400, `field "overrides": ${err.message}`, err.details);
    }
    if (err instanceof AppError && err.code === ErrorCode.badRequest) {
      throw new AppError(ErrorCode.badRequest, 400, `field "filament_ids": ${err.message}`, err.details);
    }
    throw err;
  }
}
