/**
 * Runs the Bambu LAN driver against a virtual printer the way the manager would, and records
 * what it reports: statuses, progress, AMS updates, identity, errors and disconnections, with
 * waits for the one a test expects (real transports, real timers; a wait fails after a while
 * instead of hanging).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../../../appliance/common/logger.js';
import type { DisconnectReason, DriverEvents, DriverLogLine } from '../../../../../appliance/dashboard/printers/driver.js';
import { BambuLanDriver, DEFAULT_BAMBU_TIMINGS, type BambuTimings } from '../../../../../appliance/dashboard/printers/drivers/bambu/bambu-driver.js';
import type { PrinterIdentity, PrinterRecord } from '../../../../../appliance/dashboard/printers/printer.js';
import type { AmsUpdate, PrinterStatus, PrintProgress } from '../../../../../appliance/dashboard/printers/status.js';
import type { VirtualBambu } from '../../../../fixtures/virtual-bambu.js';

export const PRINTER_ID = 'b0b0b0b0b0b0b0b0';

/** Fast enough for tests against a simulator that runs 60 times faster than life. */
export const TEST_TIMINGS: BambuTimings = {
  ...DEFAULT_BAMBU_TIMINGS,
  connectTimeoutMs: 5_000,
  commandTimeoutMs: 3_000,
  startTimeoutMs: 5_000,
  resyncIntervalMs: 1_000,
};

export function bambuRecord(vb: VirtualBambu, connection: Record<string, unknown> = {}): PrinterRecord {
  const at = new Date().toISOString();
  return {
    id: PRINTER_ID,
    name: 'virtual',
    type: 'bambu-lan',
    vendor: null,
    model: null,
    printer_profile: null,
    enabled: true,
    connection: { host: vb.host, serial: vb.serial, access_code: vb.accessCode, ca: vb.caPem, mqtt_port: vb.mqttPort, ftps_port: vb.ftpsPort, ...connection },
    created_at: at,
    updated_at: at,
  };
}

export class RecordedEvents implements DriverEvents {
  readonly statuses: PrinterStatus[] = [];
  readonly progresses: PrintProgress[] = [];
  readonly amsUpdates: AmsUpdate[] = [];
  readonly identities: PrinterIdentity[] = [];
  readonly logs: DriverLogLine[] = [];
  readonly errors: Error[] = [];
  readonly disconnects: DisconnectReason[] = [];
  private waiters: Array<() => void> = [];

  status = (s: PrinterStatus): void => this.push(this.statuses, s);
  progress = (p: PrintProgress): void => this.push(this.progresses, p);
  ams = (a: AmsUpdate): void => this.push(this.amsUpdates, a);
  identity = (i: PrinterIdentity): void => this.push(this.identities, i);
  log = (l: DriverLogLine): void => this.push(this.logs, l);
  error = (e: Error): void => this.push(this.errors, e);
  disconnected = (r: DisconnectReason): void => this.push(this.disconnects, r);

  /** Waits until `check` holds (re-checked on every event and every 50 ms), up to `timeoutMs`. */
  async until<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private push<T>(list: T[], item: T): void {
    list.push(item);
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export interface DriverRun {
  driver: BambuLanDriver;
  events: RecordedEvents;
  dataDir: string;
  stop(): Promise<void>;
}

/** A driver for the virtual printer (verified with its CA unless `connection` says otherwise), not yet connected. */
export function driverFor(vb: VirtualBambu, options: { connection?: Record<string, unknown>; timings?: Partial<BambuTimings>; dataDir?: string } = {}): DriverRun {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'printyard-bambu-driver-'));
  const events = new RecordedEvents();
  const log = createLogger({ name: 'bambu-test', level: 'error', write: () => {} });
  const driver = new BambuLanDriver(bambuRecord(vb, options.connection), { events, log, dataDir }, { ...TEST_TIMINGS, ...options.timings });
  return {
    driver,
    events,
    dataDir,
    async stop() {
      await driver.disconnect();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
