/**
 * A new job from the POST /api/queue form: the fields checked (every problem named, 400
 * ERR_VALIDATION), the file kept under `<data dir>/queue-files/<job id>.<ext>` (mode 0600, as
 * every state file), what a print-ready file says about itself read (file-facts.ts) and its plate
 * picture written beside it as `<job id>.png`. A model (`model` instead of `file`) comes with the
 * profiles to slice it with at dispatch. Nothing is kept when anything fails.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { nameProblem, normalizeName } from '../../common/names.js';
import { validate, type ValidationIssue } from '../../common/json-schema.js';
import { discardUploads, maxBodyBytes, readMultipart, type MultipartForm, type UploadLimits } from '../../common/multipart.js';
import { isZip } from '../../common/zip.js';
import { validationError } from '../http/validate.js';
import type { JobOwner } from '../slicing/ownership.js';
import { MODEL_LIMIT_BYTES } from '../slicing/slice-http.js';
import { fileFacts, type FileFacts } from './file-facts.js';
import { newCopy, normaliseHex, type JobRequirements, type PrintFormat, type QueueJob, type SliceSpec } from './job.js';
import { MAX_COPIES, MAX_NAME_LENGTH, MAX_PRIORITY, requirementsInputSchema } from './schemas.js';

export const FILES_DIR = 'queue-files';
/** A print-ready file may be large (long prints, fine layers); the SD card is the limit. */
export const JOB_FILE_LIMIT_BYTES = 512 * 1024 * 1024;
const LIMITS: UploadLimits = { maxFileBytes: JOB_FILE_LIMIT_BYTES, maxFieldBytes: 256 * 1024, maxFiles: 1, maxFields: 12 };
const FORM_FIELDS = new Set(['name', 'copies', 'priority', 'position', 'held', 'requirements']);
/** The fields of a model job: the slice form's profile fields. */
const SLICE_FIELDS = new Set(['printer_profile_id', 'filament_ids', 'process_id', 'overrides']);
/** What the router lets through before the form reader counts. */
export const JOB_BODY_MAX_BYTES = maxBodyBytes(LIMITS);
const PROFILE_ID = /^[A-Za-z0-9][A-Za-z0-9._@+ -]{0,127}$/;

export type RequirementsInput = Partial<JobRequirements>;

/** Requirements as stored: every key present, colours `#RRGGBB`, materials upper case. */
export function normaliseRequirements(input: RequirementsInput, base: JobRequirements): JobRequirements {
  return {
    printer_ids: input.printer_ids ?? base.printer_ids,
    printer_type: input.printer_type === undefined ? base.printer_type : input.printer_type,
    printer_model: input.printer_model === undefined ? base.printer_model : input.printer_model,
    nozzle_diameter: input.nozzle_diameter === undefined ? base.nozzle_diameter : input.nozzle_diameter,
    filaments: (input.filaments ?? base.filaments)
      .map((f) => ({ filament: f.filament, material: f.material.toUpperCase(), color_hex: normaliseHex(f.color_hex ?? null) }))
      .sort((a, b) => a.filament - b.filament),
  };
}

export const NO_REQUIREMENTS: JobRequirements = { printer_ids: [], printer_type: null, printer_model: null, nozzle_diameter: null, filaments: [] };

function integerField(form: MultipartForm, name: string, min: number, max: number, issues: ValidationIssue[]): number | null {
  const text = form.fields.get(name);
  if (text === undefined) return null;
  const value = Number(text.trim());
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
    issues.push({ path: `body/${name}`, message: `must be an integer from ${min} to ${max}` });
    return null;
  }
  return value;
}

function formatOf(fileName: string): PrintFormat | null {
  if (/\.gcode\.3mf$/i.test(fileName)) return 'gcode.3mf';
  if (/\.(gcode|gco|g)$/i.test(fileName)) return 'gcode';
  return null;
}

export interface ParsedForm {
  name: string;
  copies: number;
  priority: number;
  position: number | null;
  held: boolean;
  requirements: RequirementsInput | null;
  /** Null for a model. */
  format: PrintFormat | null;
  slice: Omit<SliceSpec, 'owner'> | null;
}

function jsonField(form: MultipartForm, name: string, issues: ValidationIssue[]): unknown {
  const text = form.fields.get(name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    issues.push({ path: `body/${name}`, message: 'is not valid JSON' });
    return undefined;
  }
}

/** The profile fields of a model job, as the slice routes take them. */
function sliceFields(form: MultipartForm, issues: ValidationIssue[]): Omit<SliceSpec, 'owner'> {
  const filamentIds = jsonField(form, 'filament_ids', issues);
  const overrides = jsonField(form, 'overrides', issues) ?? {};
  const processId = form.fields.get('process_id')?.trim() ?? '';
  const profileId = form.fields.get('printer_profile_id')?.trim() || null;
  const validIds =
    Array.isArray(filamentIds) &&
    filamentIds.length >= 1 &&
    filamentIds.length <= 16 &&
    filamentIds.every((id) => typeof id === 'string' && PROFILE_ID.test(id));
  if (!validIds && !issues.some((i) => i.path === 'body/filament_ids')) {
    issues.push({ path: 'body/filament_ids', message: 'is required for a model: a JSON array of 1 to 16 filament profile ids' });
  }
  if (!PROFILE_ID.test(processId)) issues.push({ path: 'body/process_id', message: 'is required for a model: a process profile id' });
  if (profileId !== null && !PROFILE_ID.test(profileId)) issues.push({ path: 'body/printer_profile_id', message: 'is not a profile id' });
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    issues.push({ path: 'body/overrides', message: 'must be a JSON object' });
  return {
    printer_profile_id: profileId,
    filament_ids: validIds ? (filamentIds as string[]) : [],
    process_id: processId,
    overrides: overrides as Record<string, unknown>,
  };
}

/** The form's fields checked; throws 400 naming each problem. */
export function parseJobForm(form: MultipartForm): ParsedForm {
  const issues: ValidationIssue[] = [];
  const model = form.files.get('model');
  const file = form.files.get('file') ?? model;
  for (const field of form.fields.keys()) {
    if (FORM_FIELDS.has(field) || (model && SLICE_FIELDS.has(field))) continue;
    const message = SLICE_FIELDS.has(field) ? 'is a field of a model job (send the model as `model`)' : 'is not a field of the job form';
    issues.push({ path: `body/${field}`, message });
  }
  const format = file && !model ? formatOf(file.fileName) : null;
  const part = model ? 'model' : 'file';
  if (!file) issues.push({ path: 'body/file', message: 'is required: the .gcode or .gcode.3mf file to print (or a `model` to slice)' });
  else if (model && (!/\.(stl|3mf)$/i.test(model.fileName) || /\.gcode\.3mf$/i.test(model.fileName))) {
    issues.push({ path: 'body/model', message: `"${model.fileName}" is not an .stl or .3mf model` });
  } else if (!model && format === null) issues.push({ path: 'body/file', message: `"${file.fileName}" is not a .gcode or .gcode.3mf file` });
  else if (file.size === 0) issues.push({ path: `body/${part}`, message: 'is empty' });
  if (model && model.size > MODEL_LIMIT_BYTES) {
    throw new AppError(ErrorCode.payloadTooLarge, 413, `the model is larger than the limit of ${MODEL_LIMIT_BYTES / (1024 * 1024)} MB`);
  }
  const slice = model ? sliceFields(form, issues) : null;
  const name = (form.fields.get('name') ?? file?.fileName.replace(/\.gcode\.3mf$|\.[^.]+$/i, '') ?? '').trim();
  const nameIssue = nameProblem(name);
  if (name === '' || name.length > MAX_NAME_LENGTH) issues.push({ path: 'body/name', message: `must be 1 to ${MAX_NAME_LENGTH} characters` });
  else if (nameIssue !== null)
    issues.push({ path: 'body/name', message: `${nameIssue}${form.fields.has('name') ? '' : ' (taken from the file name)'}` });
  const copies = integerField(form, 'copies', 1, MAX_COPIES, issues) ?? 1;
  const priority = integerField(form, 'priority', -MAX_PRIORITY, MAX_PRIORITY, issues) ?? 0;
  const position = integerField(form, 'position', 1, Number.MAX_SAFE_INTEGER, issues);
  const heldText = form.fields.get('held');
  if (heldText !== undefined && heldText !== 'true' && heldText !== 'false') issues.push({ path: 'body/held', message: 'must be true or false' });
  let requirements: RequirementsInput | null = null;
  const requirementsText = form.fields.get('requirements');
  if (requirementsText !== undefined) {
    try {
      const parsed: unknown = JSON.parse(requirementsText);
      const problems = validate(requirementsInputSchema, parsed, 'body/requirements');
      if (problems.length > 0) issues.push(...problems);
      else requirements = parsed as RequirementsInput;
    } catch {
      issues.push({ path: 'body/requirements', message: 'must be a JSON object' });
    }
  }
  if (issues.length > 0) throw validationError(issues);
  return { name: normalizeName(name), copies, priority, position, held: heldText === 'true', requirements, format, slice };
}

/** Reads the upload into a folder of its own under the files folder; the caller removes it. */
export async function receiveJobForm(req: Request, dataDir: string): Promise<{ form: MultipartForm; dir: string }> {
  const dir = path.join(dataDir, FILES_DIR, `incoming-${randomBytes(8).toString('hex')}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    return { form: await readMultipart(req, dir, LIMITS, ['file', 'model']), dir };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof AppError && err.code === ErrorCode.badRequest) throw validationError([{ path: 'body', message: err.message }]);
    throw err;
  }
}

/** Keeps the uploaded file and builds the job (not yet stored). */
export async function createJob(form: MultipartForm, parsed: ParsedForm, dataDir: string, owner: JobOwner): Promise<QueueJob> {
  const upload = form.files.get('file') ?? form.files.get('model');
  if (!upload) throw new AppError(ErrorCode.internal, 500, 'the job form lost its file');
  const id = randomBytes(8).toString('hex');
  const extension = parsed.format ?? path.extname(upload.fileName).slice(1).toLowerCase();
  const relative = path.join(FILES_DIR, `${id}.${extension}`);
  const target = path.join(dataDir, relative);
  try {
    const head = Buffer.alloc(4);
    const handle = await open(upload.path, 'r');
    await handle.read(head, 0, 4, 0).finally(() => handle.close());
    if (parsed.format === 'gcode.3mf' && !isZip(head))
      throw validationError([{ path: 'body/file', message: 'is not a .gcode.3mf project (not a ZIP package)' }]);
    const facts = await printFacts(upload.path, parsed.format).catch((err: unknown) => {
      if (err instanceof AppError) throw err;
      throw validationError([{ path: 'body/file', message: `cannot be read: ${err instanceof Error ? err.message : String(err)}` }]);
    });
    await rename(upload.path, target);
    await chmod(target, 0o600);
    let thumbnail: string | null = null;
    if (facts.thumbnail) {
      thumbnail = path.join(FILES_DIR, `${id}.png`);
      await writeFile(path.join(dataDir, thumbnail), facts.thumbnail, { mode: 0o600 });
    }
    const userFilaments = parsed.requirements?.filaments;
    let filaments_from: QueueJob['filaments_from'] = facts.filaments.length > 0 ? 'file' : 'none';
    if (userFilaments !== undefined) filaments_from = 'user';
    const requirements = normaliseRequirements({ ...parsed.requirements, filaments: userFilaments ?? facts.filaments }, NO_REQUIREMENTS);
    const now = new Date().toISOString();
    return {
      id,
      name: parsed.name,
      file: { name: upload.fileName, format: parsed.format, path: relative, size_bytes: upload.size },
      slice: parsed.slice === null ? null : { ...parsed.slice, owner },
      priority: parsed.priority,
      held: parsed.held,
      cancelled: false,
      requirements,
      filaments_from,
      plan: { estimate_s: facts.estimate_s, amounts: facts.amounts, thumbnail },
      copies: Array.from({ length: parsed.copies }, (_, i) => newCopy(i + 1)),
      user: owner.kind === 'user' ? owner.name : null,
      waiting_reason: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
  } catch (err) {
    await Promise.all([rm(target, { force: true }), rm(path.join(dataDir, FILES_DIR, `${id}.png`), { force: true }), discardUploads(form)]);
    throw err;
  }
}

/** What a print-ready file says; a model says nothing until it is sliced. */
function printFacts(file: string, format: PrintFormat | null): Promise<FileFacts> {
  if (format === null) return Promise.resolve({ filaments: [], amounts: [], estimate_s: null, thumbnail: null });
  return fileFacts(file, format);
}

/** Removes a job's file and picture. */
export async function removeJobFiles(job: QueueJob, dataDir: string): Promise<void> {
  await rm(path.join(dataDir, job.file.path), { force: true });
  if (job.plan.thumbnail) await rm(path.join(dataDir, job.plan.thumbnail), { force: true });
}

/**
 * Removes what a crash can leave in the files folder: uploads being received (`incoming-*`),
 * slices being made (`slice-*`), and files of jobs that never reached `queue.json`.
 */
export async function sweepFiles(dataDir: string, jobIds: ReadonlySet<string>): Promise<string[]> {
  const dir = path.join(dataDir, FILES_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const owner = /^([0-9a-f]{16})\./.exec(name)?.[1];
    if (owner !== undefined && jobIds.has(owner)) continue;
    await rm(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
