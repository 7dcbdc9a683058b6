/**
 * The connection settings of a `marlin-serial` printer record (family.ts) with the rates it may
 * use, and the driver's timings. The registry validated the record; a block that still lacks a
 * field (a file edited by hand) makes the factory throw, which the manager shows as the
 * printer's error.
 */
import type { PrinterRecord } from '../../printer.js';

/** The rates USB-serial adapters and Marlin's BAUDRATE option both offer. */
export const BAUD_RATES = [9600, 14400, 19200, 28800, 38400, 57600, 115200, 230400, 250000, 460800, 500000, 921600, 1000000] as const;
export const DEFAULT_BAUD = 115200;

export interface MarlinSettings {
  printerId: string;
  port: string;
  baud: number;
}

export function marlinSettings(record: PrinterRecord): MarlinSettings {
  const { port, baud } = record.connection;
  if (typeof port !== 'string' || !port.startsWith('/')) throw new Error('connection.port is missing or not an absolute device path');
  if (baud !== undefined && !(BAUD_RATES as readonly unknown[]).includes(baud))
    throw new Error(`connection.baud ${String(baud)} is not a supported rate`);
  return { printerId: record.id, port, baud: (baud as number | undefined) ?? DEFAULT_BAUD };
}

export interface MarlinTimings {
  /** Opening the port, the board's reset and the handshake. */
  connectTimeoutMs: number;
  /** M110 is repeated this often while the board boots. */
  helloIntervalMs: number;
  /** No answer to an ordinary line for this long: a probe follows (line-sender.ts). */
  lineTimeoutMs: number;
  /** The same for commands that take long by nature (G28, M109, M400…). */
  longCommandTimeoutMs: number;
  /** Probes after a line left unanswered; when the last goes unanswered too, the printer counts as lost. */
  maxProbes: number;
  /** M155 S / M27 S interval, seconds. */
  autoReportS: number;
  /** Polls of M105 / M27 when the firmware cannot auto-report. */
  pollIntervalMs: number;
}

export const DEFAULT_MARLIN_TIMINGS: MarlinTimings = {
  connectTimeoutMs: 15_000,
  helloIntervalMs: 1_000,
  lineTimeoutMs: 5_000,
  longCommandTimeoutMs: 300_000,
  maxProbes: 3,
  autoReportS: 2,
  pollIntervalMs: 2_000,
};
