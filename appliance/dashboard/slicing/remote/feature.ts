/**
 * The slicer service feature (`slicer_service`): the proxy routes, the probe with its
 * notifications, the profile table with its sync and push, and the status block that replaces
 * the placeholder in /api/system/info. Its slicing routes use the fallback chain remote →
 * bridge → native, with the other backends taken from their features' per-context parts, so a
 * slice queued here and one queued on the bridge's own routes share one queue.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { DashboardContext, DashboardFeature } from '../../feature.js';
import { printersOf } from '../../printers/feature.js';
import type { SlicingBackend } from '../backend.js';
import { desktopBridgeOf } from '../bridge/desktop-bridge.js';
import { nativeSlicingOf } from '../native/native-slicing.js';
import type { UserProfileRecord } from '../native/profiles.js';
import { SliceWorkspace } from '../native/slice-http.js';
import { ProfilePush } from '../profiles/push.js';
import type { ProfileFileEntry } from '../../../slicer/index.js';
import { profileRoutes } from '../profiles/routes.js';
import { remoteSlicingOf, type RemoteSlicingOptions } from './remote-slicing.js';
import { remoteRoutes } from './routes.js';
import { sliceRoutes } from './slice-routes.js';

/** The name /api/system/info looks for to replace its slicer service placeholder. */
export const SLICER_SERVICE_FEATURE = 'slicer_service';

export interface SlicerServiceFeatureOptions extends RemoteSlicingOptions {
  /** How long a push waits for the service to list the pushed profiles. */
  pushWaitMs?: number;
}

export function createSlicerServiceFeature(ctx: DashboardContext, options: SlicerServiceFeatureOptions = {}): DashboardFeature {
  const remote = remoteSlicingOf(ctx, options);
  const log = ctx.log.child(SLICER_SERVICE_FEATURE);
  const workspace = new SliceWorkspace(path.join(ctx.dataDir, 'slicing-work', 'remote'));
  const backends = (): SlicingBackend[] => [remote.backend, desktopBridgeOf(ctx).backend, nativeSlicingOf(ctx).backend];
  const push = new ProfilePush({
    client: remote.client,
    probe: remote.probe,
    sync: remote.sync,
    profiles: async () => (await nativeSlicingOf(ctx).profiles()).records().map(pushedProfile),
    ...(options.pushWaitMs === undefined ? {} : { waitMs: options.pushWaitMs }),
  });
  return {
    name: SLICER_SERVICE_FEATURE,
    routes: [
      ...remoteRoutes(ctx, remote, log),
      ...sliceRoutes({ remote, workspace, backends, printers: () => printersOf(ctx) }),
      ...profileRoutes(remote.sync, push, () => remote.table()),
    ],
    async start() {
      await workspace.reset();
      await remote.start();
    },
    async stop() {
      await remote.stop();
      await rm(workspace.root, { recursive: true, force: true });
    },
    info: () => ({ ...remote.probe.snapshot(), sync: remote.sync.status() }),
  };
}

/** A dashboard user profile in the slicer's profile file format (no timestamps: unknown fields are refused). */
function pushedProfile(record: UserProfileRecord): ProfileFileEntry {
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    vendor: record.vendor,
    ...(record.inherits === undefined ? {} : { inherits: record.inherits }),
    ...(record.description === undefined ? {} : { description: record.description }),
    ...(record.compatible_printers === undefined ? {} : { compatible_printers: record.compatible_printers }),
    ...(record.printer_model === undefined ? {} : { printer_model: record.printer_model }),
    settings: { ...record.settings },
  };
}
