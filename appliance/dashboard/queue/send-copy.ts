/**
 * One claimed copy onto its printer, through slice-and-send's printer side (its power switched on,
 * the readiness and format checks, the printer's file name) and the printer's driver: upload, announce
 * `print.dispatched`, start, with the AMS mapping computed for this printer. A model is sliced
 * first, once, through the backend chain (slicing/fallback.ts: remote → bridge → native) with the
 * job's profiles or the printer's own printer profile; what the sliced file says (use, estimate,
 * picture) becomes the job's plan. A failed attempt is
 * retried after a delay that doubles each time (RETRY_DELAY × 2^(n−1), at most MAX_RETRY_DELAY),
 * up to the configured number of attempts; errors that another attempt cannot change (400, 404,
 * 422: a file the printer refuses, a printer removed) end it at once. The caller records the
 * outcome.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode, isAppError } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { Printers } from '../printers/feature.js';
import type { SlicingBackend } from '../slicing/backend.js';
import { sliceWithFallback } from '../slicing/fallback.js';
import { checkPrintFormat, printerFileName, readyPrinter } from '../slicing/send-to-printer.js';
import { fileFacts } from './file-facts.js';
import type { JobCopy, PrintFormat, QueueJob } from './job.js';
import type { FilamentMatch } from './matching.js';
import type { PrintDispatched } from './print-dispatched.js';

export const MAX_RETRY_DELAY_MS = 60_000;

export interface SendOptions {
  printers: Printers;
  dataDir: string;
  log: Logger;
  attempts: number;
  retryDelayMs: number;
  /** Called with the announcement just before the start command goes out. */
  announce(dispatched: PrintDispatched): void;
  /** True once the queue stops: no further attempt is made. */
  stopped(): boolean;
  /** Aborts a slice in progress when the queue stops. */
  signal: AbortSignal;
  /** The slicing backends, in the order they are tried. */
  slicers: readonly SlicingBackend[];
  /** A model's file name on the printer is known (once sliced): written to disk before the upload. */
  named(remoteName: string): Promise<void>;
}

/** The file to send: the job's own, or a model's slice (removed afterwards). */
interface Prepared {
  file: string;
  format: PrintFormat;
  cleanup(): Promise<void>;
}

/** The folder a model is sliced into: `queue-files/slice-<job>-<copy>`. */
function sliceDir(dataDir: string, job: QueueJob, copy: JobCopy): string {
  return path.join(dataDir, path.dirname(job.file.path), `slice-${job.id}-${copy.copy}`);
}

async function prepare(job: QueueJob, copy: JobCopy, printerId: string, options: SendOptions): Promise<Prepared> {
  const own = path.join(options.dataDir, job.file.path);
  if (job.slice === null) return { file: own, format: job.file.format as PrintFormat, cleanup: async () => {} };
  const spec = job.slice;
  const profile = spec.printer_profile_id ?? options.printers.fleet.view(printerId).printer_profile;
  if (!profile) throw new AppError(ErrorCode.validation, 400, 'no printer profile to slice the model with');
  const dir = sliceDir(options.dataDir, job, copy);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const result = await sliceWithFallback(options.slicers, {
      modelPath: own,
      modelName: job.file.name,
      printerId: profile,
      filamentIds: spec.filament_ids,
      processId: spec.process_id,
      overrides: spec.overrides,
      outputDir: dir,
      owner: spec.owner,
      signal: options.signal,
    });
    const facts = await fileFacts(result.gcodePath, result.format);
    let thumbnail = job.plan.thumbnail;
    if (facts.thumbnail) {
      thumbnail = path.join(path.dirname(job.file.path), `${job.id}.png`);
      await writeFile(path.join(options.dataDir, thumbnail), facts.thumbnail, { mode: 0o600 });
    }
    job.plan = {
      estimate_s: result.estimatedTimeS ?? facts.estimate_s,
      amounts:
        result.filamentG.length > 0
          ? result.filamentG.map((grams, i) => ({ filament: i + 1, grams, length_mm: result.filamentMm[i] ?? null }))
          : facts.amounts,
      thumbnail,
    };
    const stem = job.file.name.replace(/\.(stl|3mf)$/i, '');
    copy.remote_name = printerFileName(`${stem}.${result.format}`);
    await options.named(copy.remote_name);
    options.log.info(`job ${job.id} copy ${copy.copy}: sliced by ${result.backend} with ${profile}`);
    return { file: result.gcodePath, format: result.format, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

export interface SendOutcome {
  started: boolean;
  error: string | null;
}

/** The file name the printer shows while it prints: Bambu names a project's task without `.gcode.3mf`. */
export function printedName(type: string, remoteName: string): string {
  return type === 'bambu-lan' ? remoteName.replace(/\.gcode\.3mf$|\.3mf$/i, '') : remoteName;
}

function permanent(err: unknown): boolean {
  return isAppError(err) && [400, 404, 422].includes(err.status);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function announcement(
  job: QueueJob,
  copy: JobCopy,
  printerId: string,
  printerType: string,
  match: FilamentMatch,
  dataDir: string,
): PrintDispatched {
  return {
    printer_id: printerId,
    job_id: job.id,
    copy: copy.copy,
    file: printedName(printerType, copy.remote_name ?? printerFileName(job.file.name)),
    user: job.user,
    estimate_s: job.plan.estimate_s,
    filaments: match.filaments.map((f) => {
      const amount = job.plan.amounts.find((a) => a.filament === f.filament);
      return { ...f, grams: amount?.grams ?? null, length_mm: amount?.length_mm ?? null };
    }),
    thumbnail_path: job.plan.thumbnail === null ? null : path.join(dataDir, job.plan.thumbnail),
    at: new Date().toISOString(),
  };
}

export async function sendCopy(job: QueueJob, copy: JobCopy, printerId: string, match: FilamentMatch, options: SendOptions): Promise<SendOutcome> {
  let prepared: Prepared;
  try {
    prepared = await prepare(job, copy, printerId, options);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    options.log.warn(`job ${job.id} copy ${copy.copy}: the model could not be sliced: ${message}`);
    return { started: false, error: `the model could not be sliced: ${message}` };
  }
  try {
    return await attempts(job, copy, printerId, match, prepared, options);
  } finally {
    await prepared.cleanup();
  }
}

async function attempts(
  job: QueueJob,
  copy: JobCopy,
  printerId: string,
  match: FilamentMatch,
  prepared: Prepared,
  options: SendOptions,
): Promise<SendOutcome> {
  let lastError = 'not attempted';
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (options.stopped()) return { started: false, error: 'the dashboard stopped during the dispatch' };
    try {
      await options.printers.power.beforeStart(printerId);
      const { printer, driver } = readyPrinter(options.printers, printerId);
      checkPrintFormat(printer, prepared.format);
      const remoteName = copy.remote_name ?? printerFileName(job.file.name);
      await driver.upload({ path: prepared.file }, remoteName);
      options.announce(announcement(job, copy, printer.id, printer.type, match, options.dataDir));
      await driver.start(remoteName, match.ams_mapping === null ? {} : { ams_mapping: match.ams_mapping });
      return { started: true, error: null };
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
      options.log.warn(`job ${job.id} copy ${copy.copy} on ${printerId}: attempt ${attempt} of ${options.attempts} failed: ${lastError}`);
      if (permanent(err) || attempt === options.attempts) break;
      await sleep(Math.min(options.retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS));
    }
  }
  return { started: false, error: lastError };
}
