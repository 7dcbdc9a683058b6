/**
 * The inventory feature: the flat spool API (`/api/filaments`), the Spoolman-compatible API
 * (`/api/v1`, with its change WebSockets) and the import of a Spoolman export, over the one
 * Inventory that services.ts builds and hands to the features that read or use spools.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import type { Inventory } from './inventory.js';
import type { StorageLocations } from './locations/storage.js';
import { importRoutes } from './import/routes.js';
import { filamentRoutes } from './routes.js';
import { SpoolmanAccess } from './spoolman/access.js';
import { spoolmanRoutes } from './spoolman/routes.js';
import { SpoolmanSockets } from './spoolman/websocket.js';

/**
 * `locations`: the storage locations services.ts shares with the inventory tools, whose names are
 * the Spoolman API's `location`; opened here too, so the names are there whichever feature runs.
 */
export function createInventoryFeature(ctx: DashboardContext, inventory: Inventory, locations: StorageLocations | null = null): DashboardFeature {
  const access = new SpoolmanAccess(ctx.auth, ctx.settings);
  const sockets = new SpoolmanSockets(inventory, access, ctx.log.child('spoolman-ws'), locations);
  return {
    name: 'inventory',
    routes: [...filamentRoutes(inventory, ctx.settings), ...importRoutes(inventory), ...spoolmanRoutes(inventory, access, ctx, locations)],
    install(app) {
      sockets.install(app);
    },
    async start() {
      await inventory.open();
      await locations?.open();
      sockets.start();
    },
    async stop() {
      sockets.stop();
      await locations?.close();
      await inventory.close();
    },
    info() {
      const data = inventory.data;
      return {
        spools: data.spools.length,
        filaments: data.filaments.length,
        vendors: data.vendors.length,
        uses: inventory.useRecords().length,
        spoolman_open_lan: ctx.settings.current.inventory.spoolman_open_lan,
        spoolman_sockets: sockets.count(),
      };
    },
  };
}
