/**
 * Driver factories by printer type. The built-in drivers are registered below, one line each (a
 * driver module must not import this file: the two would load in a cycle); `registerDriver` adds
 * others. The manager looks the factory up when it starts a printer. A type without a registered
 * driver can still be configured, and its printers are reported offline with the reason.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { DriverFactory } from './driver.js';
import { findPrinterType } from './families/index.js';
import { createBambuLanDriver } from './families/bambu-lan/bambu-driver.js';
import { createMarlinSerialDriver } from './families/marlin-serial/marlin-driver.js';

export class DriverRegistry {
  private readonly factories = new Map<string, DriverFactory>();

  /** Registers the factory for `type`; returns the function that removes it again. */
  register(type: string, factory: DriverFactory): () => void {
    if (!findPrinterType(type)) throw new AppError(ErrorCode.internal, 500, `cannot register a driver for unknown printer type "${type}"`);
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

/** The registry the dashboard uses. */
export const drivers = new DriverRegistry();
drivers.register('bambu-lan', createBambuLanDriver);
drivers.register('marlin-serial', createMarlinSerialDriver);

export function registerDriver(type: string, factory: DriverFactory): () => void {
  return drivers.register(type, factory);
}
