/**
 * The connection state of the slicer service, found by probing: at start, every 60 s, on demand
 * (`force`), right after the settings change, and soon after a real call found the service gone.
 * A result is cached 60 s; callers arriving while a probe runs share it.
 *
 * A probe is `GET /api/version` (the contract's compatibility check: `api` must be 1), the
 * service's `upstream` label (from the version body, else `/api/health`), and one cheap
 * authenticated call, so that a refused token shows here rather than on the first slice.
 *
 * Transitions, and only transitions, raise notifications (spec section 3):
 * - reachable → unreachable: `slicer_service_disconnected`;
 * - unreachable → reachable: `slicer_service_reconnected`;
 * - the first result after start (or after the integration is enabled) starts from "unknown":
 *   unreachable raises `slicer_service_disconnected` once, since a service that is down at boot
 *   is exactly what a person needs to hear about; reachable raises nothing, nothing changed.
 * A change of URL or token keeps the state, so moving from one dead URL to another is not news,
 * and fixing it is a reconnection. Disabling forgets the state: no probes, no notifications, and
 * the status says `enabled: false` so the UI hides the indicator.
 *
 * The status's `error` (and the notifications, which view users read) is the public reason
 * (errors.ts): every failure before the address has shown itself to be a slicer service is the
 * one sentence UNREACHABLE. What happened is `detail()`, for admins, and the log. The service's
 * version and upstream labels are its own free text, cleaned before they are kept.
 */
import { AppError } from '../../../common/errors.js';
import type { Logger } from '../../../common/logger.js';
import type { NotificationInput } from '../../notifications/notification.js';
import type { DashboardSettings } from '../../settings/settings.js';
import type { RemoteSlicerClient, VersionInfo } from './client.js';
import { BackendUnavailableError } from '../backend.js';
import { displayUrl } from './address.js';
import { detailOf, RemoteUnavailableError, UNREACHABLE } from './errors.js';

/** The contract version this dashboard speaks. */
export const SUPPORTED_API = 1;
export const DISCONNECTED = 'slicer_service_disconnected';
export const RECONNECTED = 'slicer_service_reconnected';

export type ConnectionState = 'unknown' | 'reachable' | 'unreachable';
type ServiceSettings = DashboardSettings['slicer_service'];

/** The status block: `/api/slicer/remote/status` and `slicer_service` in `/api/system/info`. */
export interface RemoteStatus {
  enabled: boolean;
  /** Enabled with a URL to probe; the indicator shows only when this is true. */
  configured: boolean;
  url: string;
  state: ConnectionState;
  /** Null until a probe has answered (and while disabled). */
  ok: boolean | null;
  version: string | null;
  api: number | null;
  upstream: string | null;
  last_check: string | null;
  error: string | null;
}

interface ProbeOutcome {
  ok: boolean;
  version: string | null;
  api: number | null;
  upstream: string | null;
  /** The public reason. */
  error: string | null;
  /** What happened, for admins and the log. */
  detail: string | null;
  at: Date;
}

export interface ProbeOptions {
  client: RemoteSlicerClient;
  settings: () => ServiceSettings;
  notify: (input: NotificationInput) => Promise<unknown>;
  /** Called when what the indicator shows changes (enabled, configured, state, ok, error, version). */
  onStatus?: (status: RemoteStatus) => void;
  log: Logger;
  intervalMs?: number;
  cacheMs?: number;
  now?: () => Date;
}

export const PROBE_INTERVAL_MS = 60_000;
export const PROBE_CACHE_MS = 60_000;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The public reason of a failed call: a RemoteUnavailableError's own, else `fallback`. */
function publicReason(err: unknown, fallback: string): string {
  return err instanceof RemoteUnavailableError ? err.message : fallback;
}

export class RemoteProbe {
  private state: ConnectionState = 'unknown';
  private last: ProbeOutcome | null = null;
  private inflight: Promise<void> | null = null;
  /** Bumped by every settings change; a probe of older settings is not taken as the state. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;
  private seen: ServiceSettings;
  private readonly now: () => Date;
  /** What `onStatus` was last given, as a key of the fields the indicator shows. */
  private announced = '';

  constructor(private readonly options: ProbeOptions) {
    this.now = options.now ?? (() => new Date());
    this.seen = { ...options.settings() };
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(true), this.options.intervalMs ?? PROBE_INTERVAL_MS);
    this.timer.unref();
    void this.refresh(true);
  }

  /** Waits for a probe in flight, so nothing outlives the feature. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.generation++;
    await this.inflight;
  }

  /** The settings changed: forget the cached result, and probe the new settings at once. */
  settingsChanged(current: ServiceSettings): void {
    const before = this.seen;
    this.seen = { ...current };
    if (before.url === current.url && before.token === current.token && before.enabled === current.enabled) return;
    this.generation++;
    this.last = null;
    this.inflight = null;
    if (!current.enabled) this.state = 'unknown';
    else if (this.timer) void this.refresh(true);
    this.announce();
  }

  /** Tells `onStatus` of a change of what the indicator shows (repeated probes with the same result are not news). */
  private announce(): void {
    if (!this.options.onStatus) return;
    const status = this.snapshot();
    const key = JSON.stringify([status.enabled, status.configured, status.url, status.state, status.ok, status.error, status.version]);
    if (key === this.announced) return;
    this.announced = key;
    this.options.onStatus(status);
  }

  /**
   * Runs a real call to the service; when it finds the service unusable, the probe checks at
   * once, so the state and the notification follow without waiting for the next round.
   */
  async watch<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof BackendUnavailableError && this.timer) void this.refresh(true);
      throw err;
    }
  }

  /** The status from what is known, without probing (for /api/system/info). */
  snapshot(): RemoteStatus {
    const settings = this.options.settings();
    const last = settings.enabled ? this.last : null;
    return {
      enabled: settings.enabled,
      configured: settings.enabled && settings.url !== '',
      url: displayUrl(settings.url),
      state: settings.enabled ? this.state : 'unknown',
      ok: last?.ok ?? null,
      version: last?.version ?? null,
      api: last?.api ?? null,
      upstream: last?.upstream ?? null,
      last_check: last?.at.toISOString() ?? null,
      error: last?.error ?? null,
    };
  }

  /** What made the last probe fail, in full (for admins); null when it did not fail. */
  detail(): string | null {
    return this.options.settings().enabled ? (this.last?.detail ?? null) : null;
  }

  /** The status, probing first when the cached result is older than 60 s (or `force`). */
  async status(force = false): Promise<RemoteStatus> {
    await this.refresh(force);
    return this.snapshot();
  }

  /**
   * For expensive calls (slice, sync): resolves when the service is enabled, reachable, accepts
   * the token and speaks API 1 (as of the cached probe); throws RemoteUnavailableError otherwise.
   */
  async requireUsable(): Promise<void> {
    const status = await this.status();
    if (!status.enabled) throw new RemoteUnavailableError('the slicer service integration is disabled (slicer_service.enabled is false)');
    if (status.ok !== true) {
      const reason = status.error ?? 'the slicer service has not been reached yet';
      throw new RemoteUnavailableError(reason, this.detail() ?? reason);
    }
  }

  private async refresh(force: boolean): Promise<void> {
    if (!this.options.settings().enabled) return;
    const running = this.inflight;
    if (running) {
      await running;
      // A forced probe must start after the request for it: the one that was running may have
      // started before the service went away.
      if (!force) return;
      if (this.inflight && this.inflight !== running) return this.inflight;
    }
    const cacheMs = this.options.cacheMs ?? PROBE_CACHE_MS;
    if (!force && this.last && this.now().getTime() - this.last.at.getTime() < cacheMs) return;
    const generation = this.generation;
    const run = (async () => {
      const outcome = await this.probe();
      if (generation === this.generation) await this.record(outcome);
    })();
    this.inflight = run;
    try {
      await run;
    } finally {
      if (this.inflight === run) this.inflight = null;
    }
  }

  private async probe(): Promise<ProbeOutcome> {
    const { client } = this.options;
    const failed = (error: string, detail: string, known: Partial<ProbeOutcome> = {}): ProbeOutcome => ({
      ok: false,
      version: null,
      api: null,
      upstream: null,
      ...known,
      error,
      detail,
      at: this.now(),
    });
    let version: VersionInfo;
    try {
      version = await client.version();
    } catch (err) {
      // Refused, timed out, not JSON, an HTTP error page: from outside all the same.
      return failed(UNREACHABLE, detailOf(err));
    }
    const known = {
      version: typeof version.version === 'string' ? client.clean(version.version) : null,
      api: typeof version.api === 'number' ? version.api : null,
      upstream: typeof version.upstream === 'string' ? client.clean(version.upstream) : null,
    };
    if (known.api !== SUPPORTED_API) {
      const detail = `incompatible slicer service: it speaks API ${known.api ?? '(none)'}, this dashboard speaks API ${SUPPORTED_API}`;
      // Without an API number it is not a slicer service at all: nothing it said is shown.
      return known.api === null ? failed(UNREACHABLE, detail) : failed(detail, detail, known);
    }
    try {
      if (known.upstream === null) {
        const label = (await client.health()).upstream;
        known.upstream = typeof label === 'string' ? client.clean(label) : null;
      }
      await client.checkToken();
    } catch (err) {
      const refused = err instanceof AppError ? `the slicer service refused a check (${err.code})` : UNREACHABLE;
      const detail = err instanceof AppError ? `the slicer service refused a check: ${err.message} (${err.code})` : detailOf(err);
      return failed(publicReason(err, refused), detail, known);
    }
    return { ok: true, ...known, error: null, detail: null, at: this.now() };
  }

  private async record(outcome: ProbeOutcome): Promise<void> {
    this.last = outcome;
    const before = this.state;
    this.state = outcome.ok ? 'reachable' : 'unreachable';
    this.announce();
    const url = displayUrl(this.options.settings().url);
    if (outcome.ok && before === 'unreachable') {
      this.options.log.info(`slicer service at ${url} is reachable again`, { version: outcome.version });
      await this.raise({
        kind: RECONNECTED,
        level: 'info',
        title: 'Slicer service reconnected',
        message: `The slicer service at ${url} is reachable again (version ${outcome.version ?? 'unknown'}).`,
        data: { url, version: outcome.version, upstream: outcome.upstream },
      });
    } else if (!outcome.ok && before !== 'unreachable') {
      this.options.log.warn(`slicer service at ${url} is unreachable: ${outcome.detail}`);
      await this.raise({
        kind: DISCONNECTED,
        level: 'warning',
        title: 'Slicer service disconnected',
        message: `The slicer service at ${url} cannot be used: ${outcome.error}. Slicing falls back to the other backends.`,
        data: { url, error: outcome.error },
      });
    }
  }

  private async raise(input: NotificationInput): Promise<void> {
    try {
      await this.options.notify(input);
    } catch (err) {
      this.options.log.error(`notification ${input.kind} could not be raised: ${message(err)}`);
    }
  }
}
