/**
 * Updates of the box's OS through RAUC: what the slots hold, and one update at a time from an
 * uploaded bundle. The bundle is received into the data directory, checked by RAUC (`rauc info`:
 * the signature against the keyring) and by us (its `compatible` against the system's, its
 * version against the running one) before RAUC writes anything, then installed into the other
 * slot in the background, its progress on the bus (`system.update`). The new slot boots after a
 * reboot, which an admin asks for; the health gate there marks it good or rolls back
 * (image/rauc/README.md). The last update and its result are kept in `system-update.json`.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'hyper-express';
import { AppError } from '../../common/errors.js';
import type { JsonStore } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { packageVersion } from '../../common/version.js';
import type { DashboardContext } from '../feature.js';
import { saveBody } from '../http/body.js';
import { BundleRejected, RaucCli, type RaucCliOptions, type RaucStatus, type SlotStatus, type UpdateEngine } from './rauc.js';
import { compareVersions, isVersion } from './version.js';

/** The feature's error codes (the AppError of every refusal; the OpenAPI description lists them per status). */
export const UpdateErrorCode = {
  unavailable: 'ERR_UPDATE_UNAVAILABLE',
  signature: 'ERR_UPDATE_SIGNATURE',
  invalidBundle: 'ERR_UPDATE_INVALID_BUNDLE',
  incompatible: 'ERR_UPDATE_INCOMPATIBLE',
  downgrade: 'ERR_UPDATE_DOWNGRADE',
  busy: 'ERR_UPDATE_BUSY',
  pending: 'ERR_UPDATE_PENDING',
  noReboot: 'ERR_UPDATE_NO_REBOOT_NEEDED',
} as const;

/** A bundle may hold a whole root file system: 2 GiB by default. */
export const DEFAULT_MAX_BUNDLE_BYTES = 2 * 1024 ** 3;

/** `refused`: RAUC or our checks refused the bundle before anything was written (the uploader has the reason in the answer). */
export type UpdatePhase = 'receiving' | 'checking' | 'refused' | 'installing' | 'installed' | 'failed';

/** The `system.update` event: an update's progress, and its end (`refused`, `installed` or `failed`). */
export interface UpdateProgress {
  phase: UpdatePhase;
  /** RAUC's overall percentage while installing; null before. */
  percent: number | null;
  message: string;
  version: string | null;
  error: string | null;
}

export interface LastUpdate {
  version: string;
  build: string | null;
  /** The slot written (RAUC's name). */
  slot: string | null;
  started_at: string;
  finished_at: string | null;
  result: 'installing' | 'installed' | 'failed';
  error: string | null;
  allow_downgrade: boolean;
}

interface StoredUpdates {
  last: LastUpdate | null;
}

export interface SystemUpdateOptions {
  /** RAUC itself (tests: the CLI against a private bus and system config). */
  engine?: UpdateEngine;
  rauc?: RaucCliOptions;
  /** The command that reboots the box into the new slot (default `systemctl reboot`). */
  rebootCommand?: readonly string[];
  maxBundleBytes?: number;
  /** The running version the downgrade check compares with, when RAUC has none for the booted slot (default: package.json). */
  runningVersion?: string;
}

export interface UpdateState {
  available: boolean;
  /** Why RAUC cannot be used (not installed, no service): null when available. */
  problem: string | null;
  compatible: string | null;
  booted: string | null;
  running_version: string;
  slots: SlotStatus[];
  /** The slot that boots next differs from the booted one and holds an installed bundle. */
  reboot_required: boolean;
  /** What runs now: null when idle. */
  busy: UpdateProgress | null;
  last: LastUpdate | null;
  max_bundle_bytes: number;
}

function refused(code: string, status: number, message: string, details?: unknown): AppError {
  return new AppError(code, status, message, details);
}

/**
 * The slot our last install wrote, when it boots next and is not the booted one: the update waits
 * for a reboot. (During a trial boot on the Pi the committed slot is primary again, and after a
 * rollback the old one is booted: neither is an update waiting.)
 */
function rebootPending(status: RaucStatus, last: LastUpdate | null): SlotStatus | null {
  if (last?.result !== 'installed' || last.slot !== status.primary) return null;
  const primary = status.slots.find((slot) => slot.name === status.primary);
  return primary && primary.bootname !== status.booted ? primary : null;
}

export class SystemUpdates {
  readonly #ctx: DashboardContext;
  readonly #log: Logger;
  readonly #engine: UpdateEngine;
  readonly #rebootCommand: readonly string[];
  readonly #maxBytes: number;
  readonly #runningVersion: string;
  #store: JsonStore<StoredUpdates> | null = null;
  #busy: UpdateProgress | null = null;
  #install: Promise<void> = Promise.resolve();

  constructor(ctx: DashboardContext, options: SystemUpdateOptions = {}) {
    this.#ctx = ctx;
    this.#log = ctx.log.child('system-update');
    this.#engine = options.engine ?? new RaucCli(options.rauc);
    this.#rebootCommand = options.rebootCommand ?? ['systemctl', 'reboot'];
    this.#maxBytes = options.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
    this.#runningVersion = options.runningVersion ?? packageVersion();
  }

  get maxBundleBytes(): number {
    return this.#maxBytes;
  }

  async open(): Promise<void> {
    this.#store = await this.#ctx.stores.open<StoredUpdates>('system-update', { last: null }, (data) =>
      typeof data === 'object' && data !== null && 'last' in data ? null : 'expected {"last": ...}',
    );
    const last = this.#store.data.last;
    if (last?.result === 'installing') {
      // The dashboard stopped (or the box lost power) during the install: RAUC left the slot marked bad.
      await this.#record({
        ...last,
        result: 'failed',
        finished_at: new Date().toISOString(),
        error: 'interrupted: the dashboard stopped during the install',
      });
    }
  }

  /** Waits for a running install (the feature's stop). */
  async close(): Promise<void> {
    await this.#install;
  }

  async state(): Promise<UpdateState> {
    const base = { busy: this.#busy, last: this.#store?.data.last ?? null, max_bundle_bytes: this.#maxBytes };
    let status: RaucStatus;
    try {
      status = await this.#engine.status();
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      return {
        ...base,
        available: false,
        problem,
        compatible: null,
        booted: null,
        running_version: this.#runningVersion,
        slots: [],
        reboot_required: false,
      };
    }
    return {
      ...base,
      available: true,
      problem: null,
      compatible: status.compatible,
      booted: status.booted,
      running_version: this.#bootedVersion(status),
      slots: status.slots,
      reboot_required: rebootPending(status, base.last) !== null,
    };
  }

  #bootedVersion(status: RaucStatus): string {
    return status.slots.find((slot) => slot.bootname === status.booted)?.version ?? this.#runningVersion;
  }

  /**
   * Receives a bundle from the request, checks it and starts its install; answers once RAUC has
   * accepted it (the install goes on, reported on the bus). Refusals throw before RAUC writes.
   */
  async start(request: Request, allowDowngrade: boolean): Promise<{ version: string; build: string | null; compatible: string }> {
    if (this.#busy) throw refused(UpdateErrorCode.busy, 409, `an update is already ${this.#busy.phase}`);
    // Taken before the first await: a second upload arriving meanwhile is refused.
    this.#busy = { phase: 'receiving', percent: null, message: 'Receiving the bundle', version: null, error: null };
    const dir = join(this.#ctx.dataDir, 'updates');
    const bundle = join(dir, 'incoming.raucb');
    let accepted = false;
    let published = false;
    try {
      const status = await this.#engine.status().catch((err: unknown) => {
        throw refused(UpdateErrorCode.unavailable, 503, `RAUC is not available: ${err instanceof Error ? err.message : String(err)}`);
      });
      const pending = rebootPending(status, this.#store?.data.last ?? null);
      if (pending) {
        throw refused(UpdateErrorCode.pending, 409, `version ${pending.version} is installed in ${pending.name} and waits for a reboot`);
      }
      await mkdir(dir, { recursive: true, mode: 0o700 });
      this.#publish(this.#busy);
      published = true;
      const size = await saveBody(request, bundle, this.#maxBytes);
      if (size === 0) throw refused(UpdateErrorCode.invalidBundle, 400, 'the body is empty: send the bundle file itself');
      this.#publish({ phase: 'checking', percent: null, message: 'Checking the bundle', version: null, error: null });
      const info = await this.#engine.inspect(bundle).catch((err: unknown) => {
        if (err instanceof BundleRejected && err.reason === 'signature') {
          throw refused(UpdateErrorCode.signature, 422, `the bundle's signature is not trusted: ${err.message}`);
        }
        throw refused(UpdateErrorCode.invalidBundle, 422, `not a usable bundle: ${err instanceof Error ? err.message : String(err)}`);
      });
      if (info.compatible !== status.compatible) {
        throw refused(UpdateErrorCode.incompatible, 422, `the bundle is for ${info.compatible}, this box is ${status.compatible}`, {
          bundle: info.compatible,
          system: status.compatible,
        });
      }
      const running = this.#bootedVersion(status);
      if (!isVersion(info.version)) throw refused(UpdateErrorCode.invalidBundle, 422, `the bundle's version "${info.version}" is no version number`);
      const order = compareVersions(info.version, running);
      if (order !== null && order < 0 && !allowDowngrade) {
        throw refused(
          UpdateErrorCode.downgrade,
          409,
          `${info.version} is older than the running ${running}; add ?allow_downgrade=true to install it anyway`,
          {
            bundle: info.version,
            running,
          },
        );
      }
      const target = status.slots.find((slot) => slot.bootname !== status.booted && slot.state !== 'booted') ?? null;
      await this.#record({
        version: info.version,
        build: info.build,
        slot: target?.name ?? null,
        started_at: new Date().toISOString(),
        finished_at: null,
        result: 'installing',
        error: null,
        allow_downgrade: allowDowngrade,
      });
      this.#install = this.#run(bundle, info.version);
      accepted = true;
      return { version: info.version, build: info.build, compatible: info.compatible };
    } catch (err) {
      // Others watching saw it arrive: they see it end.
      const error = err instanceof Error ? err.message : String(err);
      if (published) this.#publish({ phase: 'refused', percent: null, message: 'Refused', version: null, error });
      throw err;
    } finally {
      if (!accepted) {
        this.#busy = null;
        await rm(bundle, { force: true });
      }
    }
  }

  async #run(bundle: string, version: string): Promise<void> {
    this.#publish({ phase: 'installing', percent: 0, message: 'Installing', version, error: null });
    let error: string | null = null;
    try {
      await this.#engine.install(bundle, ({ percent, message }) => this.#publish({ phase: 'installing', percent, message, version, error: null }));
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    await rm(bundle, { force: true });
    const last = this.#store?.data.last;
    if (last) await this.#record({ ...last, result: error === null ? 'installed' : 'failed', finished_at: new Date().toISOString(), error });
    if (error === null) this.#log.info(`version ${version} installed: it boots after a reboot`);
    else this.#log.error(`the install of ${version} failed: ${error}`);
    this.#publish({
      phase: error === null ? 'installed' : 'failed',
      percent: error === null ? 100 : null,
      message: error === null ? 'Installed: reboot to start it' : 'The install failed',
      version,
      error,
    });
    this.#busy = null;
  }

  /** Reboots into the slot an install made primary; refused when there is none. */
  async reboot(): Promise<void> {
    if (this.#busy) throw refused(UpdateErrorCode.busy, 409, `an update is ${this.#busy.phase}: reboot once it is done`);
    const status = await this.#engine.status().catch((err: unknown) => {
      throw refused(UpdateErrorCode.unavailable, 503, `RAUC is not available: ${err instanceof Error ? err.message : String(err)}`);
    });
    if (rebootPending(status, this.#store?.data.last ?? null) === null)
      throw refused(UpdateErrorCode.noReboot, 409, 'no installed update waits for a reboot');
    const [command, ...args] = this.#rebootCommand;
    if (command === undefined) throw refused(UpdateErrorCode.unavailable, 503, 'no reboot command is configured');
    this.#log.info('rebooting into the updated slot');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, { stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${this.#rebootCommand.join(' ')} exited with ${code}`))));
    });
  }

  async #record(last: LastUpdate): Promise<void> {
    if (!this.#store) return;
    this.#store.data.last = last;
    await this.#store.write();
  }

  #publish(progress: UpdateProgress): void {
    if (progress.phase !== 'installed' && progress.phase !== 'failed' && progress.phase !== 'refused') this.#busy = progress;
    this.#ctx.bus.emit('system.update', progress);
  }
}
