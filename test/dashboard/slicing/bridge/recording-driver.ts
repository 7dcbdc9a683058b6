/**
 * A printer driver for the slice-and-send tests: it connects at once, reports the state the test
 * sets, and records the files it receives (their bytes) and the prints it is told to start.
 */
import { readFile } from 'node:fs/promises';
import { AppError, ErrorCode } from '../../../../appliance/common/errors.js';
import type {
  CommandResult,
  DriverCapabilities,
  DriverContext,
  PrinterDriver,
  UploadSource,
} from '../../../../appliance/dashboard/printers/driver.js';
import { DriverRegistry } from '../../../../appliance/dashboard/printers/driver-registry.js';
import type { PrinterRecord } from '../../../../appliance/dashboard/printers/printer.js';
import type { PrinterState, PrinterStatus } from '../../../../appliance/dashboard/printers/status.js';
import { onlineStatus } from '../../printers/fake-driver.js';

export class RecordingDriver implements PrinterDriver {
  readonly capabilities: DriverCapabilities;
  readonly uploads = new Map<string, Buffer>();
  readonly started: string[] = [];

  constructor(
    readonly printer: Readonly<PrinterRecord>,
    private readonly context: DriverContext,
    upload: boolean,
    private printerState: PrinterState = 'idle',
  ) {
    this.capabilities = { upload, ams: false, camera: false, gcode_console: false };
  }

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {}

  status(): PrinterStatus {
    return onlineStatus(this.printer.id, { state: this.printerState });
  }

  /** Changes the state and reports it, as a printer that starts or ends a job would. */
  setState(state: PrinterState): void {
    this.printerState = state;
    this.context.events.status(this.status());
  }

  async upload(source: UploadSource, remoteName: string): Promise<void> {
    if (!('path' in source)) throw new AppError(ErrorCode.validation, 400, 'the recording driver takes files by path');
    this.uploads.set(remoteName, await readFile(source.path));
  }

  async start(remoteName: string): Promise<void> {
    if (!this.uploads.has(remoteName)) throw new AppError(ErrorCode.conflict, 409, `no file ${remoteName} on the printer`);
    this.started.push(remoteName);
  }

  command(): Promise<CommandResult> {
    return Promise.reject(new AppError(ErrorCode.validation, 400, 'the recording driver takes no commands'));
  }

  async pause(): Promise<void> {}

  async resume(): Promise<void> {}

  async stop(): Promise<void> {}
}

export interface RecordingDrivers {
  registry: DriverRegistry;
  /** The newest driver of a printer. */
  of(printerId: string): RecordingDriver;
}

/** Marlin printers get recording drivers; `noUpload` names printers whose driver cannot take files. */
export function recordingDrivers(noUpload: ReadonlySet<string> = new Set()): RecordingDrivers {
  const registry = new DriverRegistry();
  const drivers = new Map<string, RecordingDriver>();
  registry.register('marlin-serial', (printer, context) => {
    const driver = new RecordingDriver(printer, context, !noUpload.has(printer.name));
    drivers.set(printer.id, driver);
    return driver;
  });
  return {
    registry,
    of(printerId) {
      const driver = drivers.get(printerId);
      if (!driver) throw new Error(`no driver was created for ${printerId}`);
      return driver;
    },
  };
}
