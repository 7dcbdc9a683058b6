/**
 * The printers feature: the registry and control routes over the dashboard's printers (made by
 * `createPrinters`, which services.ts calls), whose manager runs a driver per enabled printer from
 * start to stop. Drivers come from the driver registry (driver-registry.ts).
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import type { Clock } from './clock.js';
import { PrinterControl } from './control.js';
import { controlRoutes } from './control-routes.js';
import { drivers as defaultDrivers, type DriverRegistry } from './driver-registry.js';
import { PrinterFleet } from './fleet.js';
import { PrinterManager, type BackoffOptions, type EventIntervals } from './manager.js';
import { PrinterPower } from './power.js';
import { printerRoutes } from './routes.js';

export const PRINTERS_FEATURE = 'printers';

/** What tests swap: their own drivers, and a manual clock. */
export interface PrintersOptions {
  drivers?: DriverRegistry;
  clock?: Clock;
  backoff?: BackoffOptions;
  intervals?: EventIntervals;
}

/**
 * The printers of a dashboard: the registry, the manager that runs a driver per enabled printer,
 * and their power switches (asked before every start). Slice-and-send hands files over through them.
 */
export interface Printers {
  fleet: PrinterFleet;
  manager: PrinterManager;
  power: PrinterPower;
}

export function createPrinters(ctx: Pick<DashboardContext, 'bus' | 'log' | 'dataDir' | 'stores'>, options: PrintersOptions = {}): Printers {
  const drivers = options.drivers ?? defaultDrivers;
  const manager = new PrinterManager({
    drivers,
    bus: ctx.bus,
    log: ctx.log.child(PRINTERS_FEATURE),
    dataDir: ctx.dataDir,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.intervals ? { intervals: options.intervals } : {}),
  });
  return { fleet: new PrinterFleet(ctx.stores, manager, drivers), manager, power: new PrinterPower() };
}

export function createPrintersFeature({ fleet, manager }: Printers): DashboardFeature {
  return {
    name: PRINTERS_FEATURE,
    routes: [...printerRoutes(fleet), ...controlRoutes(new PrinterControl(fleet, manager))],
    start: () => fleet.start(),
    stop: () => fleet.stop(),
    info: () => fleet.info(),
  };
}
