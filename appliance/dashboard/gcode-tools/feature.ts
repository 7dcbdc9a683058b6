/**
 * The `gcode_tools` feature: `POST /api/gcode/estimate` (estimate-route.ts) and the G-code reference
 * (reference-routes.ts, data in gcode-reference.json). Both only read: any signed-in role may use them.
 */
import type { DashboardFeature } from '../feature.js';
import { estimateRoute } from './estimate-route.js';
import { GcodeReference } from './reference.js';
import { referenceRoutes } from './reference-routes.js';

const TAG = 'gcode';

export function createGcodeToolsFeature(reference: GcodeReference = GcodeReference.load()): DashboardFeature {
  return {
    name: 'gcode_tools',
    routes: [estimateRoute(TAG), ...referenceRoutes(reference, TAG)],
    info: () => ({ reference_commands: reference.commands.length }),
  };
}
