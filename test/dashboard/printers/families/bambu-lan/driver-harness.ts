/**
 * Runs the Bambu LAN driver against a virtual printer the way the manager would, and records
 * what it reports (recorded-events.ts; real transports, real timers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../../../appliance/common/logger.js';
import {
  BambuLanDriver,
  DEFAULT_BAMBU_TIMINGS,
  type BambuTimings,
} from '../../../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import type { PrinterRecord } from '../../../../../appliance/dashboard/printers/printer.js';
import type { VirtualBambu } from '../../../../fixtures/virtual-bambu.js';
import { RecordedEvents } from '../recorded-events.js';

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
    connection: {
      host: vb.host,
      serial: vb.serial,
      access_code: vb.accessCode,
      ca: vb.caPem,
      mqtt_port: vb.mqttPort,
      ftps_port: vb.ftpsPort,
      ...connection,
    },
    created_at: at,
    updated_at: at,
  };
}

export interface DriverRun {
  driver: BambuLanDriver;
  events: RecordedEvents;
  dataDir: string;
  stop(): Promise<void>;
}

/** A driver for the virtual printer (verified with its CA unless `connection` says otherwise), not yet connected. */
export function driverFor(
  vb: VirtualBambu,
  options: { connection?: Record<string, unknown>; timings?: Partial<BambuTimings>; dataDir?: string } = {},
): DriverRun {
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
