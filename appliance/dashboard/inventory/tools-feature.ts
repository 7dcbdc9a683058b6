/**
 * The inventory tools: storage locations with their climate, expiring spools, QR codes and labels,
 * and cost estimates. They read spools through the SpoolDirectory port only (the inventory feature
 * owns the spools), and history records and queue jobs through the UsageLookup port; services.ts
 * hands both over.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import type { NotificationCenter } from '../notifications/center.js';
import { CostEstimator } from './cost/estimate.js';
import { PrinterWatts } from './cost/printer-watts.js';
import { costRoutes } from './cost/routes.js';
import type { UsageLookup } from './cost/usage-lookup.js';
import { expiryRoutes } from './expiry/routes.js';
import { labelRoutes } from './labels/routes.js';
import { locationRoutes } from './locations/routes.js';
import { StorageLocations } from './locations/storage.js';
import type { SpoolDirectory } from './spool.js';

export const INVENTORY_TOOLS_FEATURE = 'inventory-tools';
/** The OpenAPI tag, shared with the spools' own routes. */
export const INVENTORY_TAG = 'inventory';

export interface InventoryToolsDeps {
  spools: SpoolDirectory;
  notifications: Pick<NotificationCenter, 'notify'>;
  /** History records and queue jobs for estimates by reference (inventory/cost/print-usage.ts). */
  usage: UsageLookup;
  now?: () => Date;
}

export function createInventoryToolsFeature(ctx: DashboardContext, deps: InventoryToolsDeps): DashboardFeature {
  const { spools } = deps;
  const now = deps.now ?? (() => new Date());
  const log = ctx.log.child(INVENTORY_TOOLS_FEATURE);
  const storage = new StorageLocations({ ...ctx, spools, notifications: deps.notifications, log, now });
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
