/**
 * The built-in engine feature: its user profiles and the file-returning slice. The backend itself
 * (`NativeSlicing.backend`) is also the last link of the fallback chain of the remote slicing
 * routes (services.ts, features.ts).
 */
import type { DashboardFeature } from '../../feature.js';
import { SliceWorkspace } from '../slice-http.js';
import type { NativeSlicing } from './native-slicing.js';
import { nativeRoutes } from './routes.js';

export const NATIVE_SLICING_FEATURE = 'slicer_native';

export function createNativeSlicingFeature(native: NativeSlicing): DashboardFeature {
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
