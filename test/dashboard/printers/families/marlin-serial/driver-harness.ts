/**
 * Runs the Marlin driver against the virtual Marlin (test/fixtures/virtual-marlin.ts) over its
 * real pty, the way the manager would, and records what it reports (recorded-events.ts). Also
 * what the printer received: the commands the driver sent, without numbers and checksums.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../../../appliance/common/logger.js';
import { MarlinSerialDriver } from '../../../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { DEFAULT_MARLIN_TIMINGS, type MarlinTimings } from '../../../../../appliance/dashboard/printers/families/marlin-serial/marlin-settings.js';
import type { PrinterRecord } from '../../../../../appliance/dashboard/printers/printer.js';
import type { VirtualMarlinFixture } from '../../../../fixtures/virtual-marlin.js';
import { RecordedEvents } from '../recorded-events.js';
export { rejection } from '../../../../fixtures/rejection.js';

export const PRINTER_ID = 'a1a1a1a1a1a1a1a1';

/** Quick enough for a simulator 20 times faster than life, with room for a loaded machine. */
export const TEST_TIMINGS: MarlinTimings = {
  ...DEFAULT_MARLIN_TIMINGS,
  connectTimeoutMs: 8_000,
  helloIntervalMs: 300,
  lineTimeoutMs: 1_000,
  longCommandTimeoutMs: 8_000,
  pollIntervalMs: 200,
};

export function marlinRecord(port: string): PrinterRecord {
  const at = new Date().toISOString();
  return {
    id: PRINTER_ID,
    name: 'virtual marlin',
    type: 'marlin-serial',
    vendor: null,
    model: null,
    printer_profile: null,
    enabled: true,
    connection: { port, baud: 115200 },
    created_at: at,
    updated_at: at,
  };
}

export interface DriverRun {
  driver: MarlinSerialDriver;
  events: RecordedEvents;
  dataDir: string;
  /** Commands the printer received from now on (numbers and checksums cut off). */
  received(): string[];
  /** Forgets what the printer received so far. */
  clearReceived(): void;
  /** A G-code file put where `upload` takes it from, and uploaded as `name`. */
  upload(name: string, gcode: string): Promise<void>;
  /** Calls connect() until it succeeds, as the manager's retries would. */
  reconnect(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function driverFor(vm: VirtualMarlinFixture, timings: Partial<MarlinTimings> = {}): DriverRun {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-marlin-driver-'));
  const events = new RecordedEvents();
  const driver = new MarlinSerialDriver(
    marlinRecord(vm.hostPath),
    { events, log: createLogger({ name: 'marlin-test', level: 'error', write: () => {} }), dataDir },
    { ...TEST_TIMINGS, ...timings },
  );
  let text = '';
  let uploads = 0;
  const onReceived = (chunk: string) => {
    text += chunk;
  };
  vm.printer.on('received', onReceived);
  return {
    driver,
    events,
    dataDir,
    received: () =>
      text
        .split('\n')
        .map((line) =>
          line
            .replace(/^N\d+ /, '')
            .replace(/\*\d+\s*$/, '')
            .trim(),
        )
        .filter((line) => line !== ''),
    clearReceived: () => {
      text = '';
    },
    async upload(name, gcode) {
      const file = path.join(dataDir, `source-${++uploads}.gcode`);
      writeFileSync(file, gcode);
      await driver.upload({ path: file }, name);
    },
    async reconnect(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await driver.connect();
          return;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    async stop() {
      vm.printer.off('received', onReceived);
      await driver.disconnect();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
