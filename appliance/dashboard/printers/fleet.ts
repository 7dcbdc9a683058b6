/**
 * The printers feature's domain: the registry of configured printers and the manager running
 * their drivers, kept in step. Every change to a record goes to the manager right after it is
 * stored, so the drivers always reflect what the registry holds.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStores } from '../../common/json-store.js';
import type { DriverRegistry } from './driver-registry.js';
import { findPrinterFamily, printerFamilies } from './families/index.js';
import type { PrinterManager } from './manager.js';
import { printerView, type PrinterView } from './printer.js';
import { PrinterRegistry } from './registry.js';
import type { PrinterStatus } from './status.js';

export class PrinterFleet {
  private opened: PrinterRegistry | null = null;
  /** Told after a printer was added, changed (renamed…) or removed, for exports that mirror the list (mqtt-export/). */
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly stores: JsonStores,
    private readonly manager: PrinterManager,
    private readonly drivers: DriverRegistry,
  ) {}

  async start(): Promise<void> {
    this.opened = await PrinterRegistry.open(this.stores);
    await this.manager.start(this.opened.list());
  }

  async stop(): Promise<void> {
    await this.manager.stop();
  }

  /** Calls `listener` after every create, update and remove; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  list(): PrinterView[] {
    return this.registry.list().map((record) => this.view(record.id));
  }

  view(id: string): PrinterView {
    const record = this.registry.require(id);
    return printerView(findPrinterFamily(record.type), record, this.manager.status(id), this.manager.identity(id));
  }

  /**
   * The printer's view, or null when there is no such printer — or no printers yet, while the
   * registry is not open (for the parts that follow printers by id: the queue, GPIO, exports).
   */
  find(id: string): PrinterView | null {
    const record = this.opened?.get(id);
    return record ? printerView(findPrinterFamily(record.type), record, this.manager.status(id), this.manager.identity(id)) : null;
  }

  status(id: string): PrinterStatus {
    return this.manager.status(this.registry.require(id).id);
  }

  async create(input: unknown): Promise<PrinterView> {
    const record = await this.registry.create(input);
    await this.manager.apply(record);
    this.changed();
    return this.view(record.id);
  }

  /** A changed connection, type or `enabled` restarts or stops the driver; a rename does not. */
  async update(id: string, patch: unknown): Promise<PrinterView> {
    const record = await this.registry.update(id, patch);
    await this.manager.apply(record);
    this.changed();
    return this.view(record.id);
  }

  /** Stops the driver, so the device is free, then forgets the printer. */
  async remove(id: string): Promise<void> {
    const record = this.registry.require(id);
    await this.manager.release(id);
    try {
      await this.registry.remove(id);
    } catch (err) {
      await this.manager.apply(record);
      throw err;
    }
    // An update that raced the removal may have started the driver again.
    await this.manager.release(id);
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  info(): Record<string, unknown> {
    const counts = this.manager.counts();
    return {
      types: printerFamilies().map((family) => ({ type: family.type, label: family.label, driver: this.drivers.has(family.type) })),
      printers: this.opened?.list().length ?? 0,
      online: counts.online,
    };
  }

  private get registry(): PrinterRegistry {
    if (!this.opened) throw new AppError(ErrorCode.unavailable, 503, 'the printer registry is not open yet');
    return this.opened;
  }
}
