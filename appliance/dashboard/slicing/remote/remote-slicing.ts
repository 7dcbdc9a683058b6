/**
 * The slicer-service integration of one dashboard, put together: the client (settings read on
 * every call), the probe (which raises notifications through the dashboard's center), the `remote`
 * backend, the owners of the service's jobs it started, the stored slice results, the profile
 * mirror and its sync. services.ts makes one.
 */
import type { DashboardContext } from '../../feature.js';
import type { NotificationCenter } from '../../notifications/center.js';
import { MirrorSync } from './profile-mirror/sync.js';
import { ProfileMirror } from './profile-mirror/mirror.js';
import { RemoteBackend } from './backend.js';
import { DEFAULT_TIMEOUTS, RemoteSlicerClient, type RemoteProfile, type RemoteTimeouts } from './client.js';
import { UpstreamJobOwners } from './job-owners.js';
import { RemoteProbe } from './probe.js';
import { DEFAULT_RETENTION, SliceResults, type RetentionLimits } from './results.js';

export interface RemoteSlicingOptions {
  timeouts?: RemoteTimeouts;
  probeIntervalMs?: number;
  probeCacheMs?: number;
  syncIntervalMs?: number;
  /** Silence after which an upstream event stream is given up. */
  streamIdleMs?: number;
  retention?: RetentionLimits;
  /** How long a profile push waits for the service to list the pushed profiles. */
  pushWaitMs?: number;
}

/** Profile details fetched at once for rows listed without their settings. */
const DETAIL_CONCURRENCY = 4;

export class RemoteSlicing {
  readonly client: RemoteSlicerClient;
  readonly probe: RemoteProbe;
  readonly backend: RemoteBackend;
  readonly owners: UpstreamJobOwners;
  readonly results: SliceResults;
  readonly sync: MirrorSync;
  readonly streamIdleMs: number | undefined;
  readonly pushWaitMs: number | undefined;
  private opened: Promise<ProfileMirror> | null = null;
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly ctx: Pick<DashboardContext, 'log' | 'settings' | 'dataDir' | 'stores' | 'bus'>,
    notifications: Pick<NotificationCenter, 'notify'>,
    options: RemoteSlicingOptions = {},
  ) {
    const log = ctx.log.child('slicer-service');
    const settings = () => ctx.settings.current.slicer_service;
    this.client = new RemoteSlicerClient(() => settings(), options.timeouts ?? DEFAULT_TIMEOUTS);
    this.probe = new RemoteProbe({
      client: this.client,
      settings,
      notify: (input) => notifications.notify(input),
      onStatus: (status) => ctx.bus.emit('slicer.status', status),
      log,
      ...(options.probeIntervalMs === undefined ? {} : { intervalMs: options.probeIntervalMs }),
      ...(options.probeCacheMs === undefined ? {} : { cacheMs: options.probeCacheMs }),
    });
    this.streamIdleMs = options.streamIdleMs;
    this.pushWaitMs = options.pushWaitMs;
    this.owners = new UpstreamJobOwners(log);
    this.backend = new RemoteBackend(this.client, this.probe, this.owners, log, options.streamIdleMs);
    this.results = new SliceResults(ctx.dataDir, options.retention ?? DEFAULT_RETENTION);
    this.sync = new MirrorSync({
      fetchCatalogue: () => this.fetchCatalogue(),
      mirror: () => this.mirror(),
      enabled: () => settings().enabled,
      log: log.child('profile-sync'),
      ...(options.syncIntervalMs === undefined ? {} : { intervalMs: options.syncIntervalMs }),
    });
  }

  mirror(): Promise<ProfileMirror> {
    this.opened ??= ProfileMirror.open(this.ctx.stores).catch((err: unknown) => {
      this.opened = null;
      throw err;
    });
    return this.opened;
  }

  async start(): Promise<void> {
    await this.results.start();
    await this.owners.open(this.ctx.stores);
    await this.mirror();
    this.unwatch = this.ctx.settings.onChange((current) => this.probe.settingsChanged(current.slicer_service));
    this.probe.start();
    this.sync.start();
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    await this.sync.stop();
    await this.probe.stop();
  }

  /** The whole catalogue with settings, for the sync. */
  private async fetchCatalogue(): Promise<RemoteProfile[]> {
    await this.probe.requireUsable();
    return this.probe.watch(async () => {
      const rows = await this.client.profiles({ kind: 'all' });
      const missing = rows.filter((row) => row.settings === undefined);
      for (let i = 0; i < missing.length; i += DETAIL_CONCURRENCY) {
        const details = await Promise.all(missing.slice(i, i + DETAIL_CONCURRENCY).map((row) => this.client.profile(row.id)));
        details.forEach((detail, k) => {
          missing[i + k].settings = detail.settings ?? {};
        });
      }
      return rows;
    });
  }
}
