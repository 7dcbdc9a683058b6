/**
 * The slicer service feature (`slicer_service`): the proxy routes, the probe with its
 * notifications, the profile table with its sync and push, and the status block that replaces
 * the placeholder in /api/system/info. Its slicing routes use the fallback chain remote →
 * bridge → native that features.ts hands it (the same backends the bridge and native routes use,
 * so a slice queued here and one queued on the bridge's own routes share one queue).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { DashboardContext, DashboardFeature } from '../../feature.js';
import type { SpoolDirectory } from '../../inventory/spool.js';
import type { Printers } from '../../printers/feature.js';
import type { SlicingBackend } from '../backend.js';
import type { UserProfileRecord, UserProfiles } from '../native/user-profiles.js';
import { SliceWorkspace } from '../slice-http.js';
import { ProfilePush } from './profile-mirror/push.js';
import { mirrorRoutes } from './profile-mirror/routes.js';
import type { RemoteSlicing } from './remote-slicing.js';
import { remoteRoutes } from './routes.js';
import { sliceRoutes } from './slice-routes.js';
import type { ProfileFileEntry } from '../../../slicer/index.js';

/** The name /api/system/info looks for to replace its slicer service placeholder. */
export const SLICER_SERVICE_FEATURE = 'slicer_service';

/** What the feature uses besides the integration itself. */
export interface SlicerServiceDeps {
  remote: RemoteSlicing;
  /** The fallback chain of the buffered slice, in order: remote, bridge, native. */
  fallback: readonly SlicingBackend[];
  /** The built-in engine's user profiles, which a push copies to the service. */
  userProfiles(): Promise<UserProfiles>;
  printers: Printers;
  /** The spools, named per slot in the announcement of a slice-and-send; null when none are known. */
  spools?: SpoolDirectory | null;
}

export function createSlicerServiceFeature(ctx: Pick<DashboardContext, 'log' | 'dataDir' | 'settings'>, deps: SlicerServiceDeps): DashboardFeature {
  const { remote } = deps;
  const log = ctx.log.child(SLICER_SERVICE_FEATURE);
  const workspace = new SliceWorkspace(path.join(ctx.dataDir, 'slicing-work', 'remote'));
  const push = new ProfilePush({
    client: remote.client,
    probe: remote.probe,
    sync: remote.sync,
    profiles: async () => (await deps.userProfiles()).records().map(pushedProfile),
    ...(remote.pushWaitMs === undefined ? {} : { waitMs: remote.pushWaitMs }),
  });
  return {
    name: SLICER_SERVICE_FEATURE,
    routes: [
      ...remoteRoutes(ctx, remote, log),
      ...sliceRoutes({ remote, workspace, backends: () => deps.fallback, printers: deps.printers, spools: deps.spools ?? null, log }),
      ...mirrorRoutes(remote.sync, push, () => remote.mirror()),
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
