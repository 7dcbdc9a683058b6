/**
 * The desktop-slicer bridge feature: probe, profiles, slice and slice-and-send. Its backend
 * (`DesktopBridge.backend`) is also the middle link of the fallback chain of the remote slicing
 * routes (services.ts, features.ts).
 */
import type { DashboardFeature } from '../../feature.js';
import type { SpoolDirectory } from '../../inventory/spool.js';
import type { Printers } from '../../printers/feature.js';
import { SliceWorkspace } from '../slice-http.js';
import type { DesktopBridge } from './desktop-bridge.js';
import { bridgeRoutes } from './routes.js';

export const BRIDGE_FEATURE = 'slicer_bridge';

/** `spools` names the spool feeding each slot in the announcement of a slice-and-send (null: none known). */
export function createBridgeFeature(bridge: DesktopBridge, printers: Printers, spools: SpoolDirectory | null = null): DashboardFeature {
  const workspace = new SliceWorkspace(bridge.workDir);
  return {
    name: BRIDGE_FEATURE,
    routes: bridgeRoutes(bridge, workspace, printers, spools),
    start: () => workspace.reset(),
    info: () => ({ slots: bridge.slots.stats(), processes: bridge.runner.processes() }),
  };
}
