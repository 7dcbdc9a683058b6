/** The Spoolman-compatible API under `/api/v1`: info, health, vendors, filaments, spools. */
import { packageVersion } from '../../../common/version.js';
import type { DashboardContext } from '../../feature.js';
import type { RouteSpec } from '../../http/route.js';
import type { Inventory } from '../inventory.js';
import type { LocationNames } from '../locations/storage.js';
import type { SpoolmanAccess } from './access.js';
import { catalogRoutes } from './catalog-routes.js';
import { v1Route } from './route-kit.js';
import { spoolRoutes } from './spool-routes.js';

/** The Spoolman version whose API this follows; clients compare versions, not products. */
export const SPOOLMAN_API_VERSION = '0.26.1';

/** `names`: the storage locations, whose names are the spools' `location` (null: free text only). */
export function spoolmanRoutes(inventory: Inventory, access: SpoolmanAccess, ctx: DashboardContext, names: LocationNames | null): RouteSpec[] {
  const log = ctx.log.child('spoolman');
  return [
    v1Route(access, log, {
      method: 'get',
      path: '/info',
      level: 'view',
      summary: 'Server information (Spoolman)',
      ok: { description: 'Spoolman’s info block.', schema: { type: 'object' } },
      handler: () => ({
        version: SPOOLMAN_API_VERSION,
        debug_mode: false,
        automatic_backups: false,
        data_dir: ctx.dataDir,
        logs_dir: ctx.dataDir,
        backups_dir: ctx.dataDir,
        db_type: `printyard ${packageVersion()}`,
        external_db_name: 'none',
      }),
    }),
    {
      ...v1Route(access, log, {
        method: 'get',
        path: '/health',
        level: 'public',
        summary: 'Health check (Spoolman)',
        ok: { description: '`{"status": "healthy"}`', schema: { type: 'object' } },
        handler: () => ({ status: 'healthy' }),
      }),
      rateLimited: false,
    },
    ...catalogRoutes(inventory, access, log),
    ...spoolRoutes(inventory, access, log, names),
  ];
}
