/**
 * The desktop-slicer bridge feature: probe, profiles, slice and slice-and-send. Its backend
 * (`desktopBridgeOf(ctx).backend`) is also the middle link of the fallback chain of the remote
 * slicing routes. Listed before any feature that uses that backend (see desktop-bridge.ts).
 */
import type { DashboardContext, DashboardFeature } from '../../feature.js';
import { printersOf } from '../../printers/feature.js';
import { SliceWorkspace } from '../slice-http.js';
import { desktopBridgeOf, type BridgeOptions } from './desktop-bridge.js';
import { bridgeRoutes } from './routes.js';

export const BRIDGE_FEATURE = 'slicer_bridge';

export function createBridgeFeature(ctx: DashboardContext, options?: BridgeOptions): DashboardFeature {
  const bridge = desktopBridgeOf(ctx, options);
  const workspace = new SliceWorkspace(bridge.workDir);
  return {
    name: BRIDGE_FEATURE,
    routes: bridgeRoutes(bridge, workspace, () => printersOf(ctx)),
    start: () => workspace.reset(),
    info: () => ({ slots: bridge.slots.stats(), processes: bridge.runner.processes() }),
  };
}
