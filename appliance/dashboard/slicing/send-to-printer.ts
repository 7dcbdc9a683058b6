/**
 * Slice-and-send's printer side: the target printer and the profile it is sliced with, then the
 * sliced file handed to the printer through its running driver: its power switched on
 * (printers/power.ts), upload, then start.
 * The printer is checked before the slice (no point slicing for ten minutes for a printer that is
 * busy) and again before the upload. Answers, in this order: unknown printer 404; a printer whose
 * driver cannot receive files 422 ERR_UNSUPPORTED_ACTION; offline (disabled, not connected, no
 * driver), busy (anything but idle, finished or error) or in error (a Bambu Lab printer's `error`
 * is its last print's failure and does not count) 409 ERR_CONFLICT; a file the printer cannot
 * print (plain G-code for a Bambu Lab printer, a .gcode.3mf for a Marlin one) 422
 * ERR_UNSUPPORTED_ACTION, before anything is uploaded; then the driver's own errors.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { MultipartForm } from '../../common/multipart.js';
import { validationError } from '../http/validate.js';
import { unsupportedAction } from '../printers/actions.js';
import type { PrinterDriver } from '../printers/driver.js';
import type { Printers } from '../printers/feature.js';
import type { PrinterView } from '../printers/printer.js';
import type { Principal } from '../http/route.js';
import type { SpoolDirectory } from '../inventory/spool.js';
import type { SliceJobResult } from './backend.js';
import type { StoredResult } from './remote/results.js';
import { plannedFilaments, type SlicedFigures } from './print-plan.js';
import { parseSliceUpload } from './slice-http.js';
import type { SliceForm } from '../../slicer/index.js';

/** States in which a printer takes a new job. */
const READY_STATES = new Set(['idle', 'finished']);

/**
 * Types whose `error` state is the last job's outcome rather than a fault of the printer: a Bambu
 * Lab printer stays FAILED (our `error`) after a failed or cancelled print until the next one
 * starts, and takes a new `project_file` then (its driver starts on an idle, finished or failed
 * printer). Elsewhere `error` is a printer fault (Marlin: halted) and refuses the job.
 */
const ERROR_IS_LAST_JOB = new Set(['bambu-lan']);

type PrintFormat = SliceJobResult['format'];

/**
 * What a printer of each type prints: Bambu Lab printers start `.gcode.3mf` projects only (the
 * driver's `print.project_file`), Marlin prints plain G-code. Types not listed are not checked.
 */
const PRINT_FORMATS: Readonly<Record<string, PrintFormat>> = { 'bambu-lan': 'gcode.3mf', 'marlin-serial': 'gcode' };

const FORMAT_NAMES: Readonly<Record<PrintFormat, string>> = { gcode: 'plain G-code', 'gcode.3mf': '.gcode.3mf projects' };

export interface PrintTarget {
  printer: PrinterView;
  driver: PrinterDriver;
}

export interface SentFile {
  printer_id: string;
  printer_name: string;
  /** The name the file has on the printer. */
  remote_name: string;
  started: true;
}

export interface SendTarget {
  printers: Printers;
  printerId: string;
  printer: PrinterView;
}

/**
 * The printer a slice-and-send form names (`printer_id`), checked ready before anything is
 * sliced; 503 when the printers are not running (the fleet's registry is not open).
 */
export function sendTarget(printers: Printers, multipart: MultipartForm): SendTarget {
  const printerId = multipart.fields.get('printer_id')?.trim();
  if (!printerId) throw validationError([{ path: 'body/printer_id', message: 'is required (the dashboard printer to print on)' }]);
  return { printers, printerId, printer: readyPrinter(printers, printerId).printer };
}

/**
 * The slice form of a slice-and-send: sliced with `printer_profile_id`, else the printer's own
 * `printer_profile`, which becomes the form's `printer_id` (the slice form names a profile there).
 */
export function sliceFormFor(printer: PrinterView, multipart: MultipartForm): SliceForm {
  const profileId = multipart.fields.get('printer_profile_id')?.trim() || printer.printer_profile;
  if (!profileId) {
    throw validationError([{ path: 'body/printer_profile_id', message: `is required: printer "${printer.name}" has no printer_profile` }]);
  }
  multipart.fields.delete('printer_profile_id');
  multipart.fields.set('printer_id', profileId);
  return parseSliceUpload(multipart);
}

/** The printer and its driver when it can take a job now; throws otherwise (see above). */
export function readyPrinter(printers: Printers, printerId: string): PrintTarget {
  const printer = printers.fleet.view(printerId);
  const capabilities = printers.manager.capabilities(printerId);
  if (capabilities !== null && !capabilities.upload) throw unsupportedAction(`${printer.type} printers cannot receive files`);
  const driver = printers.manager.driver(printerId);
  if (driver === null || !printer.online) {
    throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is offline${printer.status.error ? ` (${printer.status.error})` : ''}`);
  }
  if (printer.state === 'error' && !ERROR_IS_LAST_JOB.has(printer.type)) {
    throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is in error${printer.status.error ? ` (${printer.status.error})` : ''}`);
  }
  if (!READY_STATES.has(printer.state) && printer.state !== 'error')
    throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is busy (${printer.state})`);
  return { printer, driver };
}

/** The kind of file a printer prints, or null when its type is not known here. */
export function printFormatOf(printer: Pick<PrinterView, 'type'>): PrintFormat | null {
  return PRINT_FORMATS[printer.type] ?? null;
}

/** Throws 422 ERR_UNSUPPORTED_ACTION when `printer` cannot print a file of `format`. */
export function checkPrintFormat(printer: Pick<PrinterView, 'name' | 'type'>, format: PrintFormat): void {
  const needed = printFormatOf(printer);
  if (needed === null || needed === format) return;
  const advice = needed === 'gcode.3mf' ? 'slice with a Bambu Lab printer profile' : 'slice with a printer profile of its own kind';
  throw unsupportedAction(`printer "${printer.name}" (${printer.type}) prints ${FORMAT_NAMES[needed]}, not ${FORMAT_NAMES[format]}: ${advice}`);
}

/**
 * The name a file gets on the printer: what every printer's storage takes (a Bambu card's root
 * takes letters, digits and `._()+-` and spaces, up to 128 characters; a Marlin card is pickier
 * still), so a model named `Würfel [v2].stl` is not refused only after it was sliced. Other
 * characters (spaces too) become `_`, runs of dots one dot; the name starts with a letter or
 * digit; the extension
 * (`.gcode`, `.gcode.3mf`) is kept.
 */
export function printerFileName(file: string): string {
  const base = path.basename(file);
  const extension = /\.gcode\.3mf$/i.test(base) ? base.slice(-'.gcode.3mf'.length) : path.extname(base);
  const stem = base
    .slice(0, base.length - extension.length)
    .replace(/[^A-Za-z0-9._()+-]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/\.+$/, '');
  return `${(stem || 'model').slice(0, 128 - extension.length)}${extension}`;
}

/** Adds `extra` to an AppError's details (a new error: the original may be shared). */
function withDetails(err: unknown, extra: Record<string, unknown>): unknown {
  if (!(err instanceof AppError)) return err;
  const details = err.details;
  if (details !== undefined && (typeof details !== 'object' || details === null || Array.isArray(details))) return err;
  return new AppError(err.code, err.status, err.message, { ...(details as Record<string, unknown> | undefined), ...extra });
}

/** The user a print is started for, as history records it: a user's name, null for an API key. */
export function starterOf(principal: Principal | null): string | null {
  return principal?.kind === 'user' ? principal.name : null;
}

/** Who starts a print through slice-and-send and what the slice said, for the announcement. */
export interface PrintStart {
  /** The user's name; null when an API key asked. */
  user: string | null;
  /** The slicer's figures for the file; null when not known (no filament is planned then). */
  sliced: SlicedFigures | null;
  /** The spools, to name the one in each slot that feeds the print; null without an inventory. */
  spools: SpoolDirectory | null;
}

/**
 * Uploads `file` (of `format`) under a name the printer takes and starts printing it, announcing
 * the start (`print.starting`: the user, the estimate, the filament per slot with its spool) so
 * that history records who started it and what it used. The feeding slots are the driver's own
 * start plan where it has one (Bambu: the AMS mapping), and the start is made with that plan.
 * An AppError on the way gets `details`
 * (merged with what it had) from `details`, plus `uploaded_as`, the file's name on the printer,
 * when the upload went through and the start did not.
 */
export async function sendToPrinter(
  printers: Printers,
  printerId: string,
  file: string,
  format: PrintFormat,
  start: PrintStart,
  details: Record<string, unknown> = {},
): Promise<SentFile> {
  let uploadedAs: string | null = null;
  try {
    await printers.power.beforeStart(printerId);
    const { printer, driver } = readyPrinter(printers, printerId);
    checkPrintFormat(printer, format);
    const remoteName = printerFileName(file);
    await driver.upload({ path: file }, remoteName);
    uploadedAs = remoteName;
    const plan = driver.planStart ? await driver.planStart(remoteName) : null;
    printers.manager.announceStart({
      printer_id: printer.id,
      file: remoteName,
      user: start.user,
      estimate_s: start.sliced?.estimate_s ?? null,
      filaments: plannedFilaments(printer, plan?.feeds ?? null, start.sliced, start.spools),
      at: new Date().toISOString(),
    });
    await driver.start(remoteName, plan?.options ?? {});
    return { printer_id: printer.id, printer_name: printer.name, remote_name: remoteName, started: true };
  } catch (err) {
    throw withDetails(err, uploadedAs === null ? details : { ...details, uploaded_as: uploadedAs });
  }
}

/** What a slice-and-send answers: the stored result, the printer, the file's name there. */
export interface SentResult {
  result: StoredResult;
  printer: { id: string; name: string };
  remote_name: string;
  started: true;
}

/**
 * The printer side of every slice-and-send (the slicing routes', a scene's): a stored result
 * (`file` its G-code) uploaded to `printerId` and started, announced with the slice's figures.
 * When the printer refuses it now (busy since the first check, a file it cannot print, the
 * driver's own refusal), the error names the result in `details.result`, so nothing is sliced in vain.
 */
export async function sendStoredResult(
  printers: Printers,
  printerId: string,
  result: StoredResult,
  file: string,
  who: { principal: Principal | null; spools: SpoolDirectory | null },
): Promise<SentResult> {
  const sliced = { estimate_s: result.estimated_time_s, grams: result.filament_g, length_mm: result.filament_mm };
  const start = { user: starterOf(who.principal), sliced, spools: who.spools };
  const sent = await sendToPrinter(printers, printerId, file, result.format, start, { result });
  return { result, printer: { id: sent.printer_id, name: sent.printer_name }, remote_name: sent.remote_name, started: true };
}
