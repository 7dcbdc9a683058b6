/**
 * Profile synchronisation: every 5 minutes (spec section 8) and on demand, the slicer service's
 * whole catalogue (`GET /api/profiles?kind=all`, details fetched for rows that come without
 * their settings) is applied to the local profile table. A sync asked for while one runs joins
 * it. A sync that fails part-way changes nothing: the table is only touched with a complete
 * catalogue, since archiving from a partial one would archive what merely failed to load.
 * While the integration is disabled the timer does nothing.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../../../common/logger.js';
import type { RemoteProfile } from '../client.js';
import { detailOf } from '../errors.js';
import { PROFILE_KINDS, type CatalogueEntry, type ProfileKind, type ProfileMirror, type ReconcileCounts } from './mirror.js';

export const SYNC_INTERVAL_MS = 5 * 60_000;

export interface SyncStatus extends ReconcileCounts {
  running: boolean;
  last_started: string | null;
  last_finished: string | null;
  last_success: string | null;
  /** Null before the first sync. */
  ok: boolean | null;
  /** Entries in the catalogue of the last successful sync. */
  total: number;
  error: string | null;
}

export interface MirrorSyncOptions {
  /** The complete catalogue, with settings (the caller checks the service is usable first). */
  fetchCatalogue(): Promise<RemoteProfile[]>;
  mirror(): Promise<ProfileMirror>;
  /** False while the integration is disabled: the timer then skips. */
  enabled(): boolean;
  log: Logger;
  intervalMs?: number;
  now?: () => Date;
}

/** JSON with object keys sorted, so equal settings always hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // sort() without a comparer orders by UTF-16 code units, the same on every machine (unlike localeCompare).
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function settingsHash(settings: unknown): string {
  return createHash('sha256')
    .update(canonical(settings ?? {}))
    .digest('hex');
}

/** The table's view of an upstream row; rows that are not profiles of a known kind are refused. */
export function catalogueEntry(profile: RemoteProfile): CatalogueEntry {
  if (typeof profile.id !== 'string' || typeof profile.name !== 'string' || !PROFILE_KINDS.includes(profile.kind as ProfileKind)) {
    throw new Error(`the slicer service listed a profile without a valid id, kind or name: ${JSON.stringify(profile).slice(0, 200)}`);
  }
  return {
    kind: profile.kind,
    name: profile.name,
    vendor: typeof profile.vendor === 'string' ? profile.vendor : '',
    remote_id: profile.id,
    settings_hash: settingsHash(profile.settings),
  };
}

const ZERO: ReconcileCounts = { added: 0, updated: 0, archived: 0, restored: 0, unchanged: 0, duplicates: 0 };

export class MirrorSync {
  private current: Promise<SyncStatus> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly state: SyncStatus = {
    running: false,
    last_started: null,
    last_finished: null,
    last_success: null,
    ok: null,
    total: 0,
    error: null,
    ...ZERO,
  };
  private readonly now: () => Date;

  constructor(private readonly options: MirrorSyncOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Syncs once now (in the background) and then every interval. */
  start(): void {
    if (this.timer) return;
    const tick = (): void => {
      if (this.options.enabled()) void this.run().catch(() => undefined);
    };
    this.timer = setInterval(tick, this.options.intervalMs ?? SYNC_INTERVAL_MS);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current?.catch(() => undefined);
  }

  status(): SyncStatus {
    return { ...this.state };
  }

  /** Runs a sync, or joins the one running; rejects with the failure (also kept in the status). */
  run(): Promise<SyncStatus> {
    this.current ??= this.sync().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async sync(): Promise<SyncStatus> {
    const { log } = this.options;
    Object.assign(this.state, { running: true, last_started: this.now().toISOString() });
    try {
      const catalogue = (await this.options.fetchCatalogue()).map(catalogueEntry);
      const counts = await (await this.options.mirror()).reconcile(catalogue, this.now());
      const finished = this.now().toISOString();
      Object.assign(this.state, { ...counts, ok: true, error: null, total: catalogue.length, last_finished: finished, last_success: finished });
      log.info('profile sync done', { ...counts, total: catalogue.length });
      return this.status();
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      Object.assign(this.state, { ...ZERO, ok: false, error, last_finished: this.now().toISOString() });
      log.warn(`profile sync failed: ${detailOf(err)}`);
      throw err;
    } finally {
      this.state.running = false;
    }
  }
}
