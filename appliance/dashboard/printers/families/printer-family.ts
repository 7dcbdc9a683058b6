/**
 * A printer family: one kind of printer the dashboard can run, keyed by `type`. What the registry
 * of printers needs to know of it (printer-type.ts: its connection block, checks, secrets and
 * vendor) and the driver that runs such a printer (driver.ts). Each family is one folder beside
 * this file, entered through its `family.ts`, and listed once in index.ts.
 */
import type { DriverFactory } from '../driver.js';
import type { PrinterTypeDefinition } from './printer-type.js';

export interface PrinterFamily extends PrinterTypeDefinition {
  /** Builds the driver for one printer of this family; the manager calls it (no I/O in it). */
  createDriver: DriverFactory;
}
