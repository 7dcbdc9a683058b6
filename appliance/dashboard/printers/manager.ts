/**
 * Runs one driver per enabled printer. It starts them at start-up, restarts a printer's driver
 * when its connection settings change, stops it when the printer is disabled or deleted, and
 * reconnects with capped exponential backoff when a driver loses its printer. Driver events
 * become bus events (`printer.status`, `print.progress`, `ams.update`), sent only on change and
 * at a bounded rate per printer. A driver that throws, rejects or hangs is logged and shown as
 * offline with the reason; it never takes the manager down.
 *
 * Work on one printer (apply, release) is serialised, so a quick succession of updates cannot
 * start two drivers for one printer. Events from a driver that has been replaced are ignored.
 */
import type { EventBus } from '../../common/event-bus.js';
import type { Logger } from '../../common/logger.js';
import type { DashboardEvents } from '../events.js';
import { ChangeThrottle, keyWithoutTimestamp, progressPhase, statusPhase } from './change-throttle.js';
import { systemClock, type Clock } from './clock.js';
import { PermanentConnectError, type DisconnectReason, type DriverCapabilities, type DriverEvents, type PrinterDriver } from './driver.js';
import type { DriverRegistry } from './driver-registry.js';
import type { PrintStarting } from './print-starting.js';
import type { PrinterIdentity, PrinterRecord } from './printer.js';
import { offlineStatus, type AmsUpdate, type PrinterStatus, type PrintProgress } from './status.js';

export interface BackoffOptions {
  /** First retry delay. */
  initialMs: number;
  /** The delay doubles per failed attempt up to this. */
  maxMs: number;
  /** A connection that lasted this long starts the next backoff from the beginning again. */
  stableMs: number;
}

/** Minimum time between two bus events of one kind for one printer. */
export interface EventIntervals {
  status: number;
  progress: number;
  ams: number;
}

export interface PrinterManagerOptions {
  drivers: DriverRegistry;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  dataDir: string;
  clock?: Clock;
  backoff?: BackoffOptions;
  intervals?: EventIntervals;
  /** How long a driver gets to release its printer before it is abandoned. */
  disconnectTimeoutMs?: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 2_000, maxMs: 60_000, stableMs: 60_000 };
/**
 * Status at most 4 per second, progress and AMS twice a second. Printers report about once a
 * second (Bambu pushes, Marlin's M27 S1): an interval as long as their period would hold nearly
 * every report until the next free slot, up to a second late (scripts/bench-fleet measured
 * p50 0.66 s for progress at 1 s), while half of it lets each report straight through.
 */
export const DEFAULT_INTERVALS: EventIntervals = { status: 250, progress: 500, ams: 500 };
const DEFAULT_DISCONNECT_TIMEOUT_MS = 10_000;

interface PrinterSlot {
  record: PrinterRecord;
  /** What the running driver was built from; null before the first apply. */
  configKey: string | null;
  driver: PrinterDriver | null;
  /** Bumped whenever the driver is replaced or stopped; stale callbacks compare against it. */
  generation: number;
  connected: boolean;
  connectedAt: number;
  failedAttempts: number;
  retryTimer: unknown;
  status: PrinterStatus;
  identity: PrinterIdentity | null;
  statusOut: ChangeThrottle<PrinterStatus>;
  progressOut: ChangeThrottle<PrintProgress>;
  amsOut: ChangeThrottle<AmsUpdate>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The settings a driver is built from: changing any of them means a new driver. */
function configKey(record: PrinterRecord): string {
  return JSON.stringify([record.enabled, record.type, record.model, record.connection]);
}

export class PrinterManager {
  private readonly slots = new Map<string, PrinterSlot>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly clock: Clock;
  private readonly backoff: BackoffOptions;
  private readonly intervals: EventIntervals;
  private readonly disconnectTimeoutMs: number;
  private stopped = false;

  constructor(private readonly options: PrinterManagerOptions) {
    this.clock = options.clock ?? systemClock;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.intervals = options.intervals ?? DEFAULT_INTERVALS;
    this.disconnectTimeoutMs = options.disconnectTimeoutMs ?? DEFAULT_DISCONNECT_TIMEOUT_MS;
  }

  /** Starts a driver for every enabled printer; connecting goes on in the background. */
  async start(printers: readonly PrinterRecord[]): Promise<void> {
    this.stopped = false;
    await Promise.all(printers.map((printer) => this.apply(printer)));
  }

  /** Disconnects every driver. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.slots.keys()].map((id) => this.release(id)));
  }

  /**
   * Brings a printer in line with its record: starts, restarts or stops its driver as the
   * record's connection settings and `enabled` say. A rename alone changes nothing.
   */
  apply(record: PrinterRecord): Promise<void> {
    return this.serialise(record.id, async () => {
      if (this.stopped) return;
      const slot = this.slots.get(record.id) ?? this.newSlot(record);
      slot.record = record;
      const key = configKey(record);
      if (slot.configKey === key) return;
      await this.halt(slot);
      slot.configKey = key;
      slot.failedAttempts = 0;
      this.launch(slot);
    });
  }

  /** Stops a printer's driver and forgets it (the printer was deleted). */
  release(id: string): Promise<void> {
    return this.serialise(id, async () => {
      const slot = this.slots.get(id);
      if (!slot) return;
      await this.halt(slot);
      slot.statusOut.cancel();
      slot.progressOut.cancel();
      slot.amsOut.cancel();
      this.slots.delete(id);
    });
  }

  /** The live status; for a printer the manager has not started, offline saying so. */
  status(id: string): PrinterStatus {
    return this.slots.get(id)?.status ?? offlineStatus(id, 'not started', new Date());
  }

  identity(id: string): PrinterIdentity | null {
    return this.slots.get(id)?.identity ?? null;
  }

  /** The running driver, for the routes that will send it commands. */
  driver(id: string): PrinterDriver | null {
    const slot = this.slots.get(id);
    return slot?.connected ? slot.driver : null;
  }

  /** What the printer's driver can do, known also while it is offline; null without a driver. */
  capabilities(id: string): DriverCapabilities | null {
    return this.slots.get(id)?.driver?.capabilities ?? null;
  }

  /** Says on the bus who is about to start a print (`print.starting`), for history to tie it to them. */
  announceStart(start: PrintStarting): void {
    this.options.bus.emit('print.starting', start);
  }

  /** How many printers are managed, and how many of them are online. */
  counts(): { managed: number; online: number } {
    let online = 0;
    for (const slot of this.slots.values()) if (slot.status.online) online++;
    return { managed: this.slots.size, online };
  }

  private serialise(id: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(work);
    const settled = next.catch((err) => this.options.log.error(`printer ${id}: ${message(err)}`));
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return next;
  }

  private newSlot(record: PrinterRecord): PrinterSlot {
    const { bus } = this.options;
    const id = record.id;
    const slot: PrinterSlot = {
      record,
      configKey: null,
      driver: null,
      generation: 0,
      connected: false,
      connectedAt: Number.NEGATIVE_INFINITY,
      failedAttempts: 0,
      retryTimer: null,
      status: offlineStatus(id, 'not started', new Date()),
      identity: null,
      statusOut: new ChangeThrottle<PrinterStatus>(
        this.intervals.status,
        keyWithoutTimestamp,
        (s) => bus.emit('printer.status', s),
        this.clock,
        statusPhase,
      ),
      progressOut: new ChangeThrottle<PrintProgress>(
        this.intervals.progress,
        keyWithoutTimestamp,
        (p) => bus.emit('print.progress', p),
        this.clock,
        progressPhase,
      ),
      amsOut: new ChangeThrottle<AmsUpdate>(this.intervals.ams, keyWithoutTimestamp, (a) => bus.emit('ams.update', a), this.clock),
    };
    this.slots.set(id, slot);
    return slot;
  }

  private log(slot: PrinterSlot): Logger {
    return this.options.log.child(`printer ${slot.record.name} (${slot.record.id})`);
  }

  private setStatus(slot: PrinterSlot, status: PrinterStatus): void {
    slot.status = { ...status, printer_id: slot.record.id };
    slot.statusOut.push(slot.status);
  }

  /** Creates the driver for the slot's record and starts connecting; or says why not. */
  private launch(slot: PrinterSlot): void {
    const { record } = slot;
    if (!record.enabled) {
      this.setStatus(slot, offlineStatus(record.id, 'printer is disabled'));
      return;
    }
    const factory = this.options.drivers.factory(record.type);
    if (!factory) {
      this.setStatus(slot, offlineStatus(record.id, `no driver for type ${record.type}`));
      return;
    }
    const log = this.log(slot);
    try {
      slot.driver = factory(record, { events: this.eventsFor(slot, slot.generation), log, dataDir: this.options.dataDir });
    } catch (err) {
      log.error(`driver could not be created: ${message(err)}`);
      this.setStatus(slot, offlineStatus(record.id, `driver failed to start: ${message(err)}`));
      return;
    }
    this.connect(slot);
  }

  private connect(slot: PrinterSlot): void {
    const driver = slot.driver;
    if (!driver) return;
    const generation = slot.generation;
    this.setStatus(slot, { ...offlineStatus(slot.record.id, null), state: 'connecting' });
    let attempt: Promise<void>;
    try {
      attempt = Promise.resolve(driver.connect());
    } catch (err) {
      attempt = Promise.reject(err);
    }
    attempt.then(
      () => {
        if (slot.generation !== generation) return;
        slot.connected = true;
        slot.connectedAt = this.clock.now();
        this.log(slot).info('connected');
        try {
          this.setStatus(slot, driver.status());
        } catch (err) {
          this.log(slot).warn(`status() failed right after connecting: ${message(err)}`);
        }
      },
      (err) => {
        if (slot.generation !== generation) return;
        this.lost(slot, { message: `cannot connect: ${message(err)}`, retry: !(err instanceof PermanentConnectError) });
      },
    );
  }

  /** The printer is gone: show why, and try again later unless retrying cannot help. */
  private lost(slot: PrinterSlot, reason: DisconnectReason): void {
    if (slot.connected && this.clock.now() - slot.connectedAt >= this.backoff.stableMs) slot.failedAttempts = 0;
    slot.connected = false;
    slot.connectedAt = Number.NEGATIVE_INFINITY;
    this.setStatus(slot, offlineStatus(slot.record.id, reason.message));
    if (!reason.retry) {
      this.log(slot).warn(`offline until its settings change: ${reason.message}`);
      return;
    }
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** slot.failedAttempts);
    slot.failedAttempts++;
    this.log(slot).info(`${reason.message}; retrying in ${delay} ms`);
    const generation = slot.generation;
    slot.retryTimer = this.clock.setTimeout(() => {
      slot.retryTimer = null;
      if (slot.generation === generation) this.connect(slot);
    }, delay);
  }

  /** Stops whatever runs for the slot: pending retry, held events, the driver itself. */
  private async halt(slot: PrinterSlot): Promise<void> {
    slot.generation++;
    if (slot.retryTimer !== null) this.clock.clearTimeout(slot.retryTimer);
    slot.retryTimer = null;
    slot.progressOut.cancel();
    slot.amsOut.cancel();
    const driver = slot.driver;
    slot.driver = null;
    slot.connected = false;
    slot.connectedAt = Number.NEGATIVE_INFINITY;
    if (!driver) return;
    let timer: unknown = null;
    const timeout = new Promise<void>((_resolve, reject) => {
      timer = this.clock.setTimeout(() => reject(new Error(`did not finish within ${this.disconnectTimeoutMs} ms`)), this.disconnectTimeoutMs);
    });
    try {
      await Promise.race([Promise.resolve().then(() => driver.disconnect()), timeout]);
    } catch (err) {
      this.log(slot).warn(`disconnect failed: ${message(err)}`);
    } finally {
      this.clock.clearTimeout(timer);
    }
  }

  /**
   * The callbacks handed to one driver instance. They ignore a replaced driver, never throw back
   * into the driver, and stamp the printer's id on what they pass on.
   */
  private eventsFor(slot: PrinterSlot, generation: number): DriverEvents {
    const guard =
      <A extends unknown[]>(what: string, handle: (...args: A) => void) =>
      (...args: A): void => {
        if (slot.generation !== generation) return;
        try {
          handle(...args);
        } catch (err) {
          this.log(slot).error(`${what} event could not be handled: ${message(err)}`);
        }
      };
    const id = slot.record.id;
    return {
      status: guard('status', (status: PrinterStatus) => this.setStatus(slot, status)),
      progress: guard('progress', (progress: PrintProgress) => slot.progressOut.push({ ...progress, printer_id: id })),
      ams: guard('ams', (update: AmsUpdate) => slot.amsOut.push({ ...update, printer_id: id })),
      identity: guard('identity', (identity: PrinterIdentity) => {
        slot.identity = { vendor: identity.vendor ?? null, model: identity.model ?? null, firmware: identity.firmware ?? null };
      }),
      log: guard('log', (line) => this.log(slot).debug(`${line.direction}: ${line.line}`)),
      error: guard('error', (error: Error) => this.log(slot).warn(message(error))),
      disconnected: guard('disconnected', (reason: DisconnectReason) => {
        if (slot.connected) this.lost(slot, reason);
      }),
    };
  }
}
