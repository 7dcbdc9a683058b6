/**
 * The one interface every printer protocol implements (Marlin over serial, Bambu over MQTT/FTPS,
 * later others). The manager creates a driver per enabled printer through the factory registered
 * for its type (driver-registry.ts), connects it, and listens to the events the driver reports
 * through the `DriverEvents` it was given; it never knows protocol details.
 *
 * Contract for implementers:
 * - `connect()` resolves once the printer answers (handshake done) and rejects when it cannot be
 *   reached, leaving nothing open; the manager retries with backoff, unless the error is a
 *   `PermanentConnectError`. After a successful connect, a lost connection is reported with
 *   `events.disconnected(...)` (not by throwing), and the driver stays idle until the manager
 *   calls `connect()` again on the same instance.
 * - `status()` is cheap and synchronous: the last known state, never a round trip.
 * - Events may be emitted at the rate the printer reports; the manager deduplicates and
 *   rate-limits before anything reaches the bus.
 * - Operations the printer cannot do (see `capabilities`) reject with an AppError
 *   ERR_VALIDATION; operations on a disconnected printer reject with ERR_UNAVAILABLE.
 * - Fleet actions (actions.ts) arrive as `command({ kind: 'action' })`; a driver lists the ones it
 *   offers in `capabilities.actions` and refuses others, or parameters naming a part the printer
 *   lacks, with 422 ERR_UNSUPPORTED_ACTION (`unsupportedAction()`), and ones the printer's state
 *   forbids now with 409 ERR_CONFLICT.
 */
import type { Readable } from 'node:stream';
import type { Logger } from '../../common/logger.js';
import type { PrinterActionName } from './actions.js';
import type { FilamentSlot } from './filament-slot.js';
import type { PrinterIdentity, PrinterRecord } from './printer.js';
import type { AmsUpdate, PrinterStatus, PrintProgress } from './status.js';

/**
 * Rejects `connect()` when retrying cannot help and would only harm (a rejected access code:
 * Bambu printers lock out clients that storm them); the printer stays offline until its settings
 * change.
 */
export class PermanentConnectError extends Error {
  override readonly name = 'PermanentConnectError';
}

export interface DriverCapabilities {
  /** Files can be sent to the printer's storage (SD card, FTPS). */
  upload: boolean;
  /** A multi-material unit reports trays (`ams` events). */
  ams: boolean;
  /** A camera stream is available. */
  camera: boolean;
  /** Raw G-code lines can be sent (`command({ kind: 'gcode' })`). */
  gcode_console: boolean;
  /** The fleet actions the driver offers (actions.ts); none when absent. */
  actions?: readonly PrinterActionName[];
}

export type PrinterCommand =
  /** Lines sent as they are (Marlin: one by one, with line numbers; Bambu: `print.gcode_line`). */
  | { kind: 'gcode'; lines: readonly string[] }
  /** A named protocol action (`light`, `speed`, `home`…) and its parameters, per driver. */
  | { kind: 'action'; action: string; params?: Readonly<Record<string, unknown>> };

export interface CommandResult {
  /** What the printer answered, line by line; empty for protocols that do not answer. */
  lines: string[];
}

export type UploadSource =
  | { path: string }
  /** `size` in bytes lets the driver report progress and check free space first. */
  | { stream: Readable; size?: number };

export interface UploadProgress {
  sent_bytes: number;
  total_bytes: number | null;
}

export interface StartOptions {
  /** Plate of a multi-plate 3MF (Bambu); 1 when omitted. */
  plate?: number;
  /** Slicer filament slot → global tray id (`unit * 4 + slot`), -1 for unused (Bambu). */
  ams_mapping?: readonly number[];
  timelapse?: boolean;
  bed_leveling?: boolean;
}

/** One filament of a print and where this printer will feed it from, as planned before the start. */
export interface PlannedFeed {
  /** The slicer's filament number, 1-based. */
  filament: number;
  slot: FilamentSlot;
  /** What the printer reports loaded there (Bambu: the tray), else what the file asks for; null when neither says. */
  material: string | null;
  color_hex: string | null;
}

/**
 * What a start will do, worked out once before it: the feeds to announce, and the options that
 * make `start()` do exactly that (Bambu: the AMS mapping, passed back so the driver does not work
 * it out a second time).
 */
export interface StartPlan {
  feeds: PlannedFeed[];
  options: StartOptions;
}

export interface DriverLogLine {
  /** `sent` and `received` are protocol traffic (the G-code console); `info` is the driver's own. */
  direction: 'sent' | 'received' | 'info';
  line: string;
  at: string;
}

export interface DisconnectReason {
  message: string;
  /** False when retrying cannot help, as for a PermanentConnectError. */
  retry: boolean;
}

/** How a driver reports what happens; the manager supplies it. */
export interface DriverEvents {
  status(status: PrinterStatus): void;
  progress(progress: PrintProgress): void;
  ams(update: AmsUpdate): void;
  identity(identity: PrinterIdentity): void;
  log(line: DriverLogLine): void;
  /** Something went wrong that does not end the connection (a rejected command, an HMS code). */
  error(error: Error): void;
  disconnected(reason: DisconnectReason): void;
}

/** What `GET /api/printers/:id/state` shows beyond the status: the last known, never a round trip. */
export interface DriverState {
  ams: AmsUpdate | null;
  /** Protocol facts worth showing (Bambu: gcode_state, speed level, lights, HMS codes, developer mode). */
  details: Record<string, unknown>;
}

export interface PrinterDriver {
  readonly capabilities: DriverCapabilities;
  connect(): Promise<void>;
  /** Closes the connection; resolves once the port or socket is released. Never rejects for an already closed one. */
  disconnect(): Promise<void>;
  status(): PrinterStatus;
  /** Optional: the live state beyond `status()`, cheap and synchronous like it. */
  state?(): DriverState;
  command(command: PrinterCommand): Promise<CommandResult>;
  /** Stores a file on the printer under `remoteName`. */
  upload(source: UploadSource, remoteName: string, onProgress?: (progress: UploadProgress) => void): Promise<void>;
  /** Starts printing a file already on the printer. */
  start(remoteName: string, options?: StartOptions): Promise<void>;
  /**
   * Where a file already on the printer would be fed from if started with `options` (a driver
   * that chooses feeds itself: Bambu's AMS mapping); refuses as `start()` would refuse the plan.
   * Drivers without it feed filament n from their default place (Marlin: tool T(n−1)).
   */
  planStart?(remoteName: string, options?: StartOptions): Promise<StartPlan>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface DriverContext {
  events: DriverEvents;
  log: Logger;
  /** The dashboard's data directory, for driver state such as pinned certificate fingerprints. */
  dataDir: string;
}

/** Builds a driver for one printer record; must not do I/O (that is `connect()`'s job). */
export type DriverFactory = (printer: Readonly<PrinterRecord>, context: DriverContext) => PrinterDriver;
