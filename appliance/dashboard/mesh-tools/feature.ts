/** The mesh tools (`/api/mesh/*`): stateless, so the feature is its routes alone. */
import type { DashboardFeature } from '../feature.js';
import { meshRoutes } from './routes.js';

export const MESH_TOOLS_FEATURE = 'mesh_tools';

export function createMeshToolsFeature(): DashboardFeature {
  return { name: MESH_TOOLS_FEATURE, routes: meshRoutes() };
}
