/**
 * Driver factories by printer type: the manager looks the factory up when it starts a printer.
 * The dashboard's registry holds every printer family's own driver (families/index.ts); tests
 * build their own, with fakes or shorter timings. A type without a driver in the registry can
 * still be configured, and its printers are reported offline with the reason.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { DriverFactory } from './driver.js';
import { findPrinterFamily, printerFamilies } from './families/index.js';

export class DriverRegistry {
  private readonly factories = new Map<string, DriverFactory>();

  /** Registers the factory for `type`; returns the function that removes it again. */
  register(type: string, factory: DriverFactory): () => void {
    if (!findPrinterFamily(type)) throw new AppError(ErrorCode.internal, 500, `cannot register a driver for unknown printer type "${type}"`);
    if (this.factories.has(type)) throw new AppError(ErrorCode.internal, 500, `a driver for printer type "${type}" is already registered`);
    this.factories.set(type, factory);
    return () => {
      if (this.factories.get(type) === factory) this.factories.delete(type);
    };
  }

  factory(type: string): DriverFactory | undefined {
    return this.factories.get(type);
  }

  has(type: string): boolean {
    return this.factories.has(type);
  }
}

/** The registry the dashboard uses: each family's driver. */
export const drivers = new DriverRegistry();
for (const family of printerFamilies()) drivers.register(family.type, family.createDriver);
