/**
 * The built-in engine feature: its profile table and the file-returning slice. The backend itself
 * (`nativeSlicingOf(ctx).backend`) is also the last link of the fallback chain of the remote
 * slicing routes.
 */
import type { DashboardContext, DashboardFeature } from '../../feature.js';
import { nativeSlicingOf } from './native-slicing.js';
import { nativeRoutes } from './routes.js';
import { SliceWorkspace } from '../slice-http.js';

export const NATIVE_SLICING_FEATURE = 'slicer_native';

export function createNativeSlicingFeature(ctx: DashboardContext): DashboardFeature {
  const native = nativeSlicingOf(ctx);
  const workspace = new SliceWorkspace(native.workDir);
  return {
    name: NATIVE_SLICING_FEATURE,
    routes: nativeRoutes(native, workspace),
    async start() {
      await workspace.reset();
      await native.userProfiles();
    },
    info: () => ({ slots: native.slots.stats(), slices: { ...native.backend.counts } }),
  };
}
