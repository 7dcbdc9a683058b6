/**
 * The power of each printer while it prints, where it differs from the `inventory.printer_watts`
 * default (a heated chamber, a large bed): `inventory-printer-watts.json`, by printer id. The
 * settings file holds only single values, hence a store of its own. A printer that is deleted
 * keeps its entry: its history records are still priced with it.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { JsonStore, JsonStores } from '../../../common/json-store.js';

export const PRINTER_WATTS_STORE = 'inventory-printer-watts';

interface WattsFile {
  printers: Record<string, number>;
}

function checkShape(data: unknown): string | null {
  const printers = (data as Partial<WattsFile> | null)?.printers;
  if (printers === null || typeof printers !== 'object' || Array.isArray(printers)) return 'expected an object with a "printers" map';
  for (const [id, watts] of Object.entries(printers)) {
    if (typeof watts !== 'number' || !Number.isFinite(watts) || watts < 0) return `printers.${id} is not a number of watts`;
  }
  return null;
}

export class PrinterWatts {
  private store: JsonStore<WattsFile> | null = null;

  async open(stores: JsonStores): Promise<void> {
    this.store = await stores.open<WattsFile>(PRINTER_WATTS_STORE, { printers: {} }, checkShape);
  }

  /** The printer's own power, or null when it uses the default. */
  of(printerId: string): number | null {
    const { printers } = this.opened().data;
    return Object.hasOwn(printers, printerId) ? printers[printerId] : null;
  }

  all(): Record<string, number> {
    return { ...this.opened().data.printers };
  }

  async set(printerId: string, watts: number): Promise<void> {
    const data = this.opened().data;
    const before = Object.hasOwn(data.printers, printerId) ? data.printers[printerId] : undefined;
    data.printers[printerId] = watts;
    await this.write(() => {
      if (before === undefined) delete data.printers[printerId];
      else data.printers[printerId] = before;
    });
  }

  async remove(printerId: string): Promise<void> {
    const data = this.opened().data;
    const before = Object.hasOwn(data.printers, printerId) ? data.printers[printerId] : undefined;
    if (before === undefined) throw new AppError(ErrorCode.notFound, 404, `printer ${printerId} has no power of its own`);
    delete data.printers[printerId];
    await this.write(() => {
      data.printers[printerId] = before;
    });
  }

  private async write(undo: () => void): Promise<void> {
    try {
      await this.opened().write();
    } catch (err) {
      undo();
      throw err;
    }
  }

  private opened(): JsonStore<WattsFile> {
    if (this.store === null) throw new AppError(ErrorCode.unavailable, 503, 'the printer power table is not open');
    return this.store;
  }
}
