/**
 * On-demand profile push: the dashboard's own user profiles (the ones made through
 * `/api/slicer/native/profiles`) are made part of the slicer service's catalogue.
 *
 * The service has no endpoint that receives profiles; what it has is a config dir whose
 * `profiles/**\/*.json` it reads as user profiles and reloads when they change
 * (`appliance/slicer/README.md`), and `GET /api/health` tells where that dir is. The contract
 * recommends running the service as the dashboard's user "so that configuration directories
 * match", which is how the appliance runs them. So a push writes one file,
 * `<config dir>/profiles/printyard-dashboard/dashboard-profiles.json`, holding every dashboard user
 * profile in the profile file format (an empty set removes it), atomically, so the service never
 * reads half of it. The folder is the dashboard's alone: nothing else in the config dir is touched,
 * and a profile deleted in the dashboard leaves the service at the next push.
 *
 * That only works when the service runs on this machine: a URL that is not a loopback address is
 * refused (409), as is a config dir the dashboard cannot write (409, naming the reason). After
 * writing, the push waits (up to 20 s) until the service lists each pushed profile, then syncs
 * the local table. A profile the service does not take (an id it already has from elsewhere, a
 * parent it lacks) is reported as `not_listed`, not hidden.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { isLoopback } from '../../../../common/http-server.js';
import { writeFileAtomic } from '../../../../common/json-store.js';
import type { RemoteSlicerClient } from '../client.js';
import type { RemoteProbe } from '../probe.js';
import type { MirrorSync, SyncStatus } from './sync.js';
import type { ProfileFileEntry } from '../../../../slicer/index.js';

export const PUSH_FOLDER = 'printyard-dashboard';
export const PUSH_FILE = 'dashboard-profiles.json';

export interface PushReport {
  /** The file written (or removed, when there was nothing to push). */
  file: string;
  pushed: string[];
  /** Pushed ids the service lists, with the same name. */
  listed: string[];
  /** Pushed ids the service did not list within the wait. */
  not_listed: string[];
  /** The sync run after the push; null when it failed (its error is in the sync status). */
  sync: SyncStatus | null;
}

export interface ProfilePushOptions {
  client: RemoteSlicerClient;
  probe: RemoteProbe;
  sync: MirrorSync;
  /** The dashboard's user profiles, in the profile file format. */
  profiles(): Promise<ProfileFileEntry[]>;
  waitMs?: number;
  pollMs?: number;
}

function conflict(message: string): AppError {
  return new AppError(ErrorCode.conflict, 409, message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ProfilePush {
  private running: Promise<PushReport> | null = null;

  constructor(private readonly options: ProfilePushOptions) {}

  /** Pushes, or joins the push in progress. */
  push(): Promise<PushReport> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<PushReport> {
    const { client, probe } = this.options;
    const base = new URL(client.baseUrl);
    if (!isLoopback(base.hostname)) {
      throw conflict(
        `profile push writes into the slicer service's config dir, so the service must run on this machine; ${base.host} is not a loopback address ` +
          '(the service has no endpoint that receives profiles)',
      );
    }
    await probe.requireUsable();
    const configDir = (await probe.watch(() => client.health())).config_dir;
    if (typeof configDir !== 'string' || !path.isAbsolute(configDir))
      throw conflict('the slicer service does not say where its config dir is (GET /api/health config_dir)');
    const folder = path.join(configDir, 'profiles', PUSH_FOLDER);
    const file = path.join(folder, PUSH_FILE);
    const profiles = await this.options.profiles();
    try {
      if (profiles.length === 0) await rm(file, { force: true });
      else {
        await mkdir(folder, { recursive: true });
        await writeFileAtomic(file, `${JSON.stringify(profiles, null, 2)}\n`);
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      throw conflict(`cannot write ${file}: ${code} (the dashboard and the slicer service should run as the same user)`);
    }
    const listed = await this.waitUntilListed(profiles);
    const sync = await this.options.sync.run().catch(() => null);
    return {
      file,
      pushed: profiles.map((p) => p.id),
      listed: [...listed],
      not_listed: profiles.map((p) => p.id).filter((id) => !listed.has(id)),
      sync,
    };
  }

  /** The pushed ids the service lists under the same name, once all are or the wait is over. */
  private async waitUntilListed(profiles: readonly ProfileFileEntry[]): Promise<Set<string>> {
    const waitMs = this.options.waitMs ?? 20_000;
    const pollMs = this.options.pollMs ?? 1_000;
    const deadline = Date.now() + waitMs;
    const wanted = new Map(profiles.map((p) => [p.id, p.name]));
    let listed = new Set<string>();
    while (listed.size < wanted.size) {
      const catalogue = await this.options.probe.watch(() => this.options.client.profiles({ kind: 'all' }));
      listed = new Set(catalogue.filter((row) => wanted.get(row.id) === row.name).map((row) => row.id));
      if (listed.size === wanted.size || Date.now() + pollMs > deadline) break;
      await sleep(pollMs);
    }
    return listed;
  }
}
