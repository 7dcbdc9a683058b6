/**
 * The configured printers, in the `printers` JSON store. Creating and changing a record checks
 * it (printer-input.ts) and keeps names (ignoring case), serial devices and printer serial
 * numbers unique, so two records never fight over one device. Checks and the in-memory change
 * happen without awaiting in between, so concurrent requests cannot both pass a uniqueness check.
 */
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import { findPrinterFamily } from './families/index.js';
import { newPrinterRecord, patchedPrinterRecord } from './printer-input.js';
import type { PrinterRecord } from './printer.js';

export const PRINTERS_STORE = 'printers';

interface PrintersFile {
  printers: PrinterRecord[];
}

function checkShape(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !Array.isArray((data as PrintersFile).printers))
    return 'expected an object with a "printers" list';
  for (const [index, record] of (data as PrintersFile).printers.entries()) {
    if (typeof record !== 'object' || record === null) return `printers[${index}] is not an object`;
    for (const field of ['id', 'name', 'type'] as const) {
      if (typeof record[field] !== 'string') return `printers[${index}].${field} is not a string`;
    }
    if (typeof record.connection !== 'object' || record.connection === null) return `printers[${index}].connection is not an object`;
  }
  return null;
}

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

export class PrinterRegistry {
  private constructor(
    private readonly store: JsonStore<PrintersFile>,
    private readonly now: () => Date,
  ) {}

  static async open(stores: JsonStores, now: () => Date = () => new Date()): Promise<PrinterRegistry> {
    return new PrinterRegistry(await stores.open<PrintersFile>(PRINTERS_STORE, { printers: [] }, checkShape), now);
  }

  list(): readonly PrinterRecord[] {
    return this.store.data.printers;
  }

  get(id: string): PrinterRecord | undefined {
    return this.store.data.printers.find((printer) => printer.id === id);
  }

  /** The record, or 404 ERR_NOT_FOUND. */
  require(id: string): PrinterRecord {
    const printer = this.get(id);
    if (!printer) throw new AppError(ErrorCode.notFound, 404, `no printer with id "${id}"`);
    return printer;
  }

  async create(input: unknown): Promise<PrinterRecord> {
    const record = newPrinterRecord(input, this.newId(), this.now());
    this.assertUnique(record);
    return this.save(() => this.store.data.printers.push(record), record);
  }

  /** Applies a partial update; returns the stored record (unchanged when nothing changed). */
  async update(id: string, patch: unknown): Promise<PrinterRecord> {
    const current = this.require(id);
    const next = patchedPrinterRecord(current, patch, this.now());
    if (JSON.stringify({ ...next, updated_at: current.updated_at }) === JSON.stringify(current)) return current;
    this.assertUnique(next);
    return this.save(() => {
      const printers = this.store.data.printers;
      printers[printers.indexOf(current)] = next;
    }, next);
  }

  async remove(id: string): Promise<PrinterRecord> {
    const current = this.require(id);
    return this.save(() => {
      const printers = this.store.data.printers;
      printers.splice(printers.indexOf(current), 1);
    }, current);
  }

  /** Applies `change` and writes the file; a failed write leaves memory as it was, too. */
  private async save(change: () => void, result: PrinterRecord): Promise<PrinterRecord> {
    const before = [...this.store.data.printers];
    change();
    try {
      await this.store.write();
    } catch (err) {
      this.store.data.printers = before;
      throw err;
    }
    return result;
  }

  private newId(): string {
    let id: string;
    do id = randomBytes(8).toString('hex');
    while (this.get(id));
    return id;
  }

  private assertUnique(record: PrinterRecord): void {
    const others = this.store.data.printers.filter((printer) => printer.id !== record.id);
    const named = others.find((printer) => sameName(printer.name, record.name));
    if (named) {
      throw new AppError(ErrorCode.conflict, 409, `a printer named "${named.name}" already exists`, [
        { path: 'body/name', message: `is already used by printer ${named.id}` },
      ]);
    }
    const definition = findPrinterFamily(record.type);
    for (const field of definition?.uniqueFields ?? []) {
      const value = record.connection[field];
      const holder = others.find((printer) => printer.type === record.type && printer.connection[field] === value);
      if (holder) {
        throw new AppError(ErrorCode.conflict, 409, `printer "${holder.name}" already uses ${field} ${JSON.stringify(value)}`, [
          { path: `body/connection/${field}`, message: `is already used by printer ${holder.id}` },
        ]);
      }
    }
  }
}
