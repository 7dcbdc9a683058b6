/**
 * Hands a sliced file to a dashboard printer through its running driver: upload, then start.
 * The printer is checked before the slice (no point slicing for ten minutes for a printer that is
 * busy) and again before the upload. Answers, in this order: unknown printer 404; a printer whose
 * driver cannot receive files 422 ERR_UNSUPPORTED_ACTION; offline (disabled, not connected, no
 * driver) or busy (anything but idle or finished) 409 ERR_CONFLICT; then the driver's own errors.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { unsupportedAction } from '../../printers/actions.js';
import type { PrinterDriver } from '../../printers/driver.js';
import type { PrintersAccess } from '../../printers/feature.js';
import type { PrinterView } from '../../printers/printer.js';

/** States in which a printer takes a new job. */
const READY_STATES = new Set(['idle', 'finished']);

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

/** The printer and its driver when it can take a job now; throws otherwise (see above). */
export function readyPrinter(printers: PrintersAccess, printerId: string): PrintTarget {
  const printer = printers.fleet.view(printerId);
  const capabilities = printers.manager.capabilities(printerId);
  if (capabilities !== null && !capabilities.upload) throw unsupportedAction(`${printer.type} printers cannot receive files`);
  const driver = printers.manager.driver(printerId);
  if (driver === null || !printer.online) {
    throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is offline${printer.status.error ? ` (${printer.status.error})` : ''}`);
  }
  if (!READY_STATES.has(printer.state)) throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is busy (${printer.state})`);
  return { printer, driver };
}

/** Uploads `file` under its own name and starts printing it. */
export async function sendToPrinter(printers: PrintersAccess, printerId: string, file: string): Promise<SentFile> {
  const { printer, driver } = readyPrinter(printers, printerId);
  const remoteName = path.basename(file);
  await driver.upload({ path: file }, remoteName);
  await driver.start(remoteName);
  return { printer_id: printer.id, printer_name: printer.name, remote_name: remoteName, started: true };
}
