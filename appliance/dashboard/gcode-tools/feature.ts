/**
 * The `gcode_tools` feature: `POST /api/gcode/estimate` (estimate-route.ts) and the G-code reference
 * (reference-routes.ts). Both read only: any signed-in role may use them.
 */
import type { DashboardFeature } from '../feature.js';
import { estimateRoute } from './estimate-route.js';

const TAG = 'gcode';

export function createGcodeToolsFeature(): DashboardFeature {
  return { name: 'gcode_tools', routes: [estimateRoute(TAG)] };
}
