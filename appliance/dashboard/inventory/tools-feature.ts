/**
 * The inventory tools: storage locations with their climate, expiring spools, QR codes and labels,
 * and cost estimates. They read spools through the SpoolDirectory port only (the inventory feature
 * owns the spools), and history records and queue jobs through the UsageLookup port; services.ts
 * hands both over.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { CostEstimator } from './cost/estimate.js';
import { PrinterWatts } from './cost/printer-watts.js';
import { costRoutes } from './cost/routes.js';
import type { UsageLookup } from './cost/usage-lookup.js';
import { expiryRoutes } from './expiry/routes.js';
import { labelRoutes } from './labels/routes.js';
import { locationRoutes } from './locations/routes.js';
import type { StorageLocations } from './locations/storage.js';
import type { SpoolDirectory } from './spool.js';

export const INVENTORY_TOOLS_FEATURE = 'inventory-tools';
/** The OpenAPI tag, shared with the spools' own routes. */
export const INVENTORY_TAG = 'inventory';

export interface InventoryToolsDeps {
  spools: SpoolDirectory;
  /** The storage locations, shared with the inventory feature (services.ts). */
  storage: StorageLocations;
  /** History records and queue jobs for estimates by reference (inventory/cost/print-usage.ts). */
  usage: UsageLookup;
  now?: () => Date;
}

export function createInventoryToolsFeature(ctx: DashboardContext, deps: InventoryToolsDeps): DashboardFeature {
  const { spools, storage } = deps;
  const now = deps.now ?? (() => new Date());
  const watts = new PrinterWatts();
  const estimator = new CostEstimator({
    spools,
    usage: deps.usage,
    settings: () => ctx.settings.current.inventory,
    printerWatts: (printerId) => watts.of(printerId),
  });
  return {
    name: INVENTORY_TOOLS_FEATURE,
    routes: [
      ...locationRoutes(storage, INVENTORY_TAG),
      ...expiryRoutes(spools, now, INVENTORY_TAG),
      ...labelRoutes({ spools, settings: ctx.settings, tag: INVENTORY_TAG }),
      ...costRoutes(estimator, watts, INVENTORY_TAG),
    ],
    async start() {
      await storage.open();
      await watts.open(ctx.stores);
    },
    async stop() {
      await storage.close();
    },
    info() {
      return { storage: storage.info() };
    },
  };
}
