/**
 * One claimed copy onto its printer, through slice-and-send's printer side (the readiness and
 * format checks, the printer's file name) and the printer's driver: upload, announce
 * `print.dispatched`, start, with the AMS mapping computed for this printer. A failed attempt is
 * retried after a delay that doubles each time (RETRY_DELAY × 2^(n−1), at most MAX_RETRY_DELAY),
 * up to the configured number of attempts; errors that another attempt cannot change (400, 404,
 * 422: a file the printer refuses, a printer removed) end it at once. The caller records the
 * outcome.
 */
import path from 'node:path';
import { isAppError } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { Printers } from '../printers/feature.js';
import { checkPrintFormat, printerFileName, readyPrinter } from '../slicing/send-to-printer.js';
import type { JobCopy, QueueJob } from './job.js';
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
  let lastError = 'not attempted';
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (options.stopped()) return { started: false, error: 'the dashboard stopped during the dispatch' };
    try {
      const { printer, driver } = readyPrinter(options.printers, printerId);
      checkPrintFormat(printer, job.file.format);
      const remoteName = copy.remote_name ?? printerFileName(job.file.name);
      await driver.upload({ path: path.join(options.dataDir, job.file.path) }, remoteName);
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
