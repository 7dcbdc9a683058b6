/**
 * The printers feature: the registry and control routes, and the manager that runs a driver per
 * enabled printer from start to stop. Drivers come from the driver registry (driver-registry.ts).
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import type { Clock } from './clock.js';
import { PrinterControl } from './control.js';
import { controlRoutes } from './control-routes.js';
import { drivers as defaultDrivers, type DriverRegistry } from './driver-registry.js';
import { PrinterFleet } from './fleet.js';
import { PrinterManager, type BackoffOptions, type EventIntervals } from './manager.js';
import { printerRoutes } from './routes.js';

export const PRINTERS_FEATURE = 'printers';

/** What tests swap: their own drivers, and a manual clock. */
export interface PrintersFeatureOptions {
  drivers?: DriverRegistry;
  clock?: Clock;
  backoff?: BackoffOptions;
  intervals?: EventIntervals;
}

/** What other features may use of the printers: the registry and the running drivers (slice-and-send hands files over). */
export interface PrintersAccess {
  fleet: PrinterFleet;
  manager: PrinterManager;
}

const accessByContext = new WeakMap<DashboardContext, PrintersAccess>();

/** The context's printers, once the printers feature has been created; undefined without it. */
export function printersOf(ctx: DashboardContext): PrintersAccess | undefined {
  return accessByContext.get(ctx);
}

export function createPrintersFeature(ctx: DashboardContext, options: PrintersFeatureOptions = {}): DashboardFeature {
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
  const fleet = new PrinterFleet(ctx.stores, manager, drivers);
  accessByContext.set(ctx, { fleet, manager });
  return {
    name: PRINTERS_FEATURE,
    routes: [...printerRoutes(fleet), ...controlRoutes(new PrinterControl(fleet, manager))],
    start: () => fleet.start(),
    stop: () => fleet.stop(),
    info: () => fleet.info(),
  };
}
