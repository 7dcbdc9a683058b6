/**
 * A scripted in-memory driver for the manager and route tests: it records what the manager asks
 * of it, fails connects as told, and lets the test emit events as a real driver would. (Wire-level
 * simulators for Marlin and Bambu belong to the drivers' own tests.)
 */
import { AppError, ErrorCode } from '../../../appliance/common/errors.js';
import type { CommandResult, DriverCapabilities, DriverContext, DriverEvents, PrinterDriver } from '../../../appliance/dashboard/printers/driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import type { PrinterRecord } from '../../../appliance/dashboard/printers/printer.js';
import type { PrinterStatus } from '../../../appliance/dashboard/printers/status.js';

/** The status of a connected printer with no job, as test drivers report it. */
export function onlineStatus(printerId: string, overrides: Partial<PrinterStatus> = {}): PrinterStatus {
  return {
    printer_id: printerId,
    state: 'idle',
    online: true,
    temperatures: {},
    job: null,
    fans: {},
    error: null,
    updated_at: new Date().toISOString(),
    ...overrides,
  };
}

/** What the next connect() does: succeed, reject with the error, or throw it synchronously. */
export type ConnectOutcome = 'ok' | Error | { throwSync: Error } | { hang: true };

export class FakeDriver implements PrinterDriver {
  readonly capabilities: DriverCapabilities = { upload: false, ams: false, camera: false, gcode_console: false };
  connects = 0;
  disconnects = 0;
  connected = false;
  /** Outcomes of the coming connect() calls; 'ok' once they run out. */
  readonly outcomes: ConnectOutcome[] = [];
  disconnectFails = false;
  disconnectHangs = false;
  statusThrows = false;
  readonly events: DriverEvents;

  constructor(
    readonly printer: Readonly<PrinterRecord>,
    context: DriverContext,
  ) {
    this.events = context.events;
  }

  connect(): Promise<void> {
    this.connects++;
    const outcome = this.outcomes.shift() ?? 'ok';
    if (outcome instanceof Error) return Promise.reject(outcome);
    if (typeof outcome === 'object' && 'throwSync' in outcome) throw outcome.throwSync;
    if (typeof outcome === 'object' && 'hang' in outcome) return new Promise(() => undefined);
    this.connected = true;
    return Promise.resolve();
  }

  disconnect(): Promise<void> {
    this.disconnects++;
    this.connected = false;
    if (this.disconnectHangs) return new Promise(() => undefined);
    if (this.disconnectFails) return Promise.reject(new Error('port is stuck'));
    return Promise.resolve();
  }

  status(): PrinterStatus {
    if (this.statusThrows) throw new Error('status exploded');
    return this.idleStatus();
  }

  idleStatus(overrides: Partial<PrinterStatus> = {}): PrinterStatus {
    return onlineStatus(this.printer.id, { temperatures: { tool0: { actual: 21, target: 0 }, bed: { actual: 20, target: 0 } }, ...overrides });
  }

  private unsupported(): Promise<never> {
    return Promise.reject(new AppError(ErrorCode.validation, 400, 'the fake driver does not print'));
  }

  command(): Promise<CommandResult> {
    return this.unsupported();
  }
  upload(): Promise<void> {
    return this.unsupported();
  }
  start(): Promise<void> {
    return this.unsupported();
  }
  pause(): Promise<void> {
    return this.unsupported();
  }
  resume(): Promise<void> {
    return this.unsupported();
  }
  stop(): Promise<void> {
    return this.unsupported();
  }
}

export interface FakeDrivers {
  registry: DriverRegistry;
  /** Every driver created, oldest first. */
  created: FakeDriver[];
  /** The newest driver of a printer. */
  latest(printerId: string): FakeDriver;
  /** Makes the next factory call for this printer throw. */
  failNextCreate(printerId: string): void;
  /** Outcomes queued on every driver created for this printer from now on. */
  plan(printerId: string, ...outcomes: ConnectOutcome[]): void;
}

/** A driver registry with the fake driver for the given types (default: only `marlin-serial`). */
export function fakeDrivers(types: readonly string[] = ['marlin-serial']): FakeDrivers {
  const registry = new DriverRegistry();
  const created: FakeDriver[] = [];
  const failing = new Set<string>();
  const plans = new Map<string, ConnectOutcome[]>();
  for (const type of types) {
    registry.register(type, (printer, context) => {
      if (failing.delete(printer.id)) throw new Error('factory exploded');
      const driver = new FakeDriver(printer, context);
      driver.outcomes.push(...(plans.get(printer.id) ?? []));
      created.push(driver);
      return driver;
    });
  }
  return {
    registry,
    created,
    latest(printerId) {
      const driver = created.filter((d) => d.printer.id === printerId).at(-1);
      if (!driver) throw new Error(`no driver was created for ${printerId}`);
      return driver;
    },
    failNextCreate: (printerId) => void failing.add(printerId),
    plan: (printerId, ...outcomes) => void plans.set(printerId, outcomes),
  };
}
