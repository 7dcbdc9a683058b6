/**
 * A new job from the POST /api/queue form: the fields checked (every problem named, 400
 * ERR_VALIDATION), the file kept under `<data dir>/queue-files/<job id>.<ext>` (mode 0600, as
 * every state file), what the file says about itself read (file-facts.ts) and its plate picture
 * written beside it as `<job id>.png`. Nothing is kept when anything fails.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { validate, type ValidationIssue } from '../../common/json-schema.js';
import { discardUploads, readMultipart, type MultipartForm, type UploadLimits } from '../../common/multipart.js';
import { InflateLimitError, isZip } from '../../common/zip.js';
import { validationError } from '../http/validate.js';
import { MODEL_INFLATE_LIMITS } from '../slicing/slice-http.js';
import { fileFacts } from './file-facts.js';
import { newCopy, normaliseHex, type JobRequirements, type PrintFormat, type QueueJob } from './job.js';
import { MAX_COPIES, MAX_NAME_LENGTH, MAX_PRIORITY, requirementsInputSchema } from './schemas.js';

export const FILES_DIR = 'queue-files';
/** A print-ready file may be large (long prints, fine layers); the SD card is the limit. */
export const JOB_FILE_LIMIT_BYTES = 512 * 1024 * 1024;
const LIMITS: UploadLimits = { maxFileBytes: JOB_FILE_LIMIT_BYTES, maxFieldBytes: 64 * 1024, maxFiles: 1, maxFields: 8 };
const FORM_FIELDS = new Set(['name', 'copies', 'priority', 'position', 'held', 'requirements']);

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
  format: PrintFormat;
}

/** The form's fields checked; throws 400 naming each problem. */
export function parseJobForm(form: MultipartForm): ParsedForm {
  const issues: ValidationIssue[] = [];
  for (const field of form.fields.keys())
    if (!FORM_FIELDS.has(field)) issues.push({ path: `body/${field}`, message: 'is not a field of the job form' });
  const file = form.files.get('file');
  const format = file ? formatOf(file.fileName) : null;
  if (!file) issues.push({ path: 'body/file', message: 'is required: the .gcode or .gcode.3mf file to print' });
  else if (format === null) issues.push({ path: 'body/file', message: `"${file.fileName}" is not a .gcode or .gcode.3mf file` });
  else if (file.size === 0) issues.push({ path: 'body/file', message: 'is empty' });
  const name = (form.fields.get('name') ?? file?.fileName.replace(/\.gcode\.3mf$|\.[^.]+$/i, '') ?? '').trim();
  if (name === '' || name.length > MAX_NAME_LENGTH) issues.push({ path: 'body/name', message: `must be 1 to ${MAX_NAME_LENGTH} characters` });
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
  return { name, copies, priority, position, held: heldText === 'true', requirements, format: format as PrintFormat };
}

/** Reads the upload into a folder of its own under the files folder; the caller removes it. */
export async function receiveJobForm(req: Request, dataDir: string): Promise<{ form: MultipartForm; dir: string }> {
  const dir = path.join(dataDir, FILES_DIR, `incoming-${randomBytes(8).toString('hex')}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    return { form: await readMultipart(req, dir, LIMITS, ['file']), dir };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof AppError && err.code === ErrorCode.badRequest) throw validationError([{ path: 'body', message: err.message }]);
    throw err;
  }
}

/** Keeps the uploaded file and builds the job (not yet stored). */
export async function createJob(form: MultipartForm, parsed: ParsedForm, dataDir: string, user: string | null): Promise<QueueJob> {
  const upload = form.files.get('file');
  if (!upload) throw new AppError(ErrorCode.internal, 500, 'the job form lost its file');
  const id = randomBytes(8).toString('hex');
  const relative = path.join(FILES_DIR, `${id}.${parsed.format}`);
  const target = path.join(dataDir, relative);
  try {
    const head = Buffer.alloc(4);
    const handle = await open(upload.path, 'r');
    await handle.read(head, 0, 4, 0).finally(() => handle.close());
    if (parsed.format === 'gcode.3mf' && !isZip(head))
      throw validationError([{ path: 'body/file', message: 'is not a .gcode.3mf project (not a ZIP package)' }]);
    const facts = await fileFacts(upload.path, parsed.format, MODEL_INFLATE_LIMITS).catch((err: unknown) => {
      if (err instanceof InflateLimitError) throw new AppError(ErrorCode.payloadTooLarge, 413, err.message);
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
      priority: parsed.priority,
      held: parsed.held,
      cancelled: false,
      requirements,
      filaments_from,
      plan: { estimate_s: facts.estimate_s, amounts: facts.amounts, thumbnail },
      copies: Array.from({ length: parsed.copies }, (_, i) => newCopy(i + 1)),
      user,
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

/** Removes a job's file and picture. */
export async function removeJobFiles(job: QueueJob, dataDir: string): Promise<void> {
  await rm(path.join(dataDir, job.file.path), { force: true });
  if (job.plan.thumbnail) await rm(path.join(dataDir, job.plan.thumbnail), { force: true });
}
