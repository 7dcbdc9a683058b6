/**
 * The configured outgoing channels, in `notification-channels.json`, and their deliveries.
 *
 * Records are flat in the API (`{type, name, enabled, kinds, url, secret…}`) and stored with the
 * type's own fields under `settings`, so common fields and type fields never collide. Secrets
 * leave only as `'***'` plus `<field>_set`; `'***'` sent back keeps the stored value.
 *
 * Deliveries run in the background: `dispatch` returns at once, each outcome is recorded on the
 * channel (last_status, last_error, last_delivery_at), and nothing a receiver does can throw into
 * the caller. `stop` aborts retries still waiting and lets the running tries end.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { normalizeName } from '../../common/names.js';
import { validationError } from '../http/validate.js';
import type { ValidationIssue } from '../../common/json-schema.js';
import type { ChannelType, DeliveryResult } from './channel.js';
import type { Notification } from './notification.js';

export const CHANNELS_STORE = 'notification-channels';
export const REDACTED = '***';

export interface ChannelRecord {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  /** Notification kinds this channel receives; null for all. */
  kinds: string[] | null;
  settings: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  last_status: 'delivered' | 'failed' | null;
  last_error: string | null;
  last_delivery_at: string | null;
}

/** A channel as the API shows it: flat, secrets redacted. */
export type ChannelView = Record<string, unknown>;
/** A validated request body: the common fields and the type's fields, flat. */
export type ChannelInput = Record<string, unknown>;

const COMMON_INPUT = new Set(['type', 'name', 'enabled', 'kinds']);

interface ChannelsFile {
  channels: ChannelRecord[];
}

function checkShape(data: unknown): string | null {
  const channels = (data as Partial<ChannelsFile> | null)?.channels;
  if (!Array.isArray(channels)) return 'expected an object with a "channels" list';
  for (const [i, c] of channels.entries()) {
    if (typeof c?.id !== 'string' || typeof c.type !== 'string' || typeof c.settings !== 'object' || c.settings === null) {
      return `channels[${i}] lacks an id, a type or settings`;
    }
  }
  return null;
}

/** null, or an empty text (what a cleared form field sends), removes a type field. */
function isUnset(value: unknown): boolean {
  return value === null || value === '';
}

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

export interface ChannelStats {
  channels: number;
  enabled: number;
  deliveries_ok: number;
  deliveries_failed: number;
  deliveries_running: number;
}

export class ChannelRegistry {
  private readonly types: ReadonlyMap<string, ChannelType>;
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private readonly counts = { deliveries_ok: 0, deliveries_failed: 0 };

  private constructor(
    private readonly store: JsonStore<ChannelsFile>,
    types: readonly ChannelType[],
    private readonly log: Logger,
    private readonly now: () => Date,
  ) {
    this.types = new Map(types.map((t) => [t.type, t]));
  }

  static async open(stores: JsonStores, types: readonly ChannelType[], log: Logger, now: () => Date = () => new Date()): Promise<ChannelRegistry> {
    return new ChannelRegistry(await stores.open<ChannelsFile>(CHANNELS_STORE, { channels: [] }, checkShape), types, log, now);
  }

  list(): ChannelView[] {
    return this.store.data.channels.map((c) => this.view(c));
  }

  get(id: string): ChannelView {
    return this.view(this.require(id));
  }

  async create(input: ChannelInput): Promise<ChannelView> {
    const type = this.typeOf(String(input.type));
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (COMMON_INPUT.has(key) || !Object.hasOwn(type.fields, key)) continue;
      if (value === REDACTED)
        throw validationError([{ path: `body/${key}`, message: `"${REDACTED}" stands for a stored secret; a new channel has none` }]);
      if (!isUnset(value)) settings[key] = value;
    }
    this.checkSettings(type, settings);
    const name = normalizeName(String(input.name));
    this.assertNameFree(name, null);
    const at = this.now().toISOString();
    const record: ChannelRecord = {
      id: randomUUID(),
      type: type.type,
      name,
      enabled: input.enabled === undefined ? true : Boolean(input.enabled),
      kinds: (input.kinds as string[] | null | undefined) ?? null,
      settings,
      created_at: at,
      updated_at: at,
      last_status: null,
      last_error: null,
      last_delivery_at: null,
    };
    this.store.data.channels.push(record);
    await this.store.write();
    return this.view(record);
  }

  /** Changes the fields present in `patch`; `type` cannot change. */
  async update(id: string, patch: ChannelInput): Promise<ChannelView> {
    const record = this.require(id);
    const type = this.typeOf(record.type);
    if (patch.type !== undefined && patch.type !== record.type) {
      throw validationError([{ path: 'body/type', message: `cannot change from ${record.type}; create a new channel instead` }]);
    }
    const settings = { ...record.settings };
    for (const [key, value] of Object.entries(patch)) {
      if (COMMON_INPUT.has(key) || !Object.hasOwn(type.fields, key)) continue;
      if (value === REDACTED && type.secrets.includes(key)) continue;
      if (isUnset(value)) delete settings[key];
      else settings[key] = value;
    }
    this.checkSettings(type, settings);
    const name = patch.name === undefined ? record.name : normalizeName(String(patch.name));
    this.assertNameFree(name, record.id);
    record.name = name;
    if (patch.enabled !== undefined) record.enabled = Boolean(patch.enabled);
    if (patch.kinds !== undefined) record.kinds = patch.kinds as string[] | null;
    record.settings = settings;
    record.updated_at = this.now().toISOString();
    await this.store.write();
    return this.view(record);
  }

  async remove(id: string): Promise<void> {
    const channels = this.store.data.channels;
    channels.splice(channels.indexOf(this.require(id)), 1);
    await this.store.write();
  }

  /**
   * Sends to every enabled channel that takes this kind. The deliveries run on their own: callers
   * need not wait, and the promise (which never rejects) is there for those that want the outcomes.
   */
  dispatch(notification: Notification): Promise<DeliveryResult[]> {
    const deliveries: Promise<DeliveryResult>[] = [];
    for (const record of this.store.data.channels) {
      if (!record.enabled || (record.kinds && !record.kinds.includes(notification.kind))) continue;
      deliveries.push(this.deliver(record, notification));
    }
    return Promise.all(deliveries);
  }

  /** Sends to one channel, enabled or not and whatever its kinds, and waits for the outcome. */
  async test(id: string, notification: Notification): Promise<DeliveryResult> {
    return this.deliver(this.require(id), notification);
  }

  stats(): ChannelStats {
    const channels = this.store.data.channels;
    return {
      channels: channels.length,
      enabled: channels.filter((c) => c.enabled).length,
      ...this.counts,
      deliveries_running: this.running.size,
    };
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running]);
  }

  private deliver(record: ChannelRecord, notification: Notification): Promise<DeliveryResult> {
    const delivery = this.attempt(record, notification);
    this.running.add(delivery);
    void delivery.finally(() => this.running.delete(delivery));
    return delivery;
  }

  private async attempt(record: ChannelRecord, notification: Notification): Promise<DeliveryResult> {
    let result: DeliveryResult;
    try {
      result = await this.typeOf(record.type).open(record.settings).send(notification, this.stopping.signal);
    } catch (err) {
      result = { ok: false, attempts: 1, http_status: null, error: err instanceof Error ? err.message : String(err), at: this.now().toISOString() };
    }
    if (result.ok) this.counts.deliveries_ok++;
    else {
      this.counts.deliveries_failed++;
      this.log.warn(`delivery to channel "${record.name}" failed: ${result.error}`, {
        channel: record.id,
        kind: notification.kind,
        attempts: result.attempts,
      });
    }
    await this.record(record.id, result);
    return result;
  }

  private async record(id: string, result: DeliveryResult): Promise<void> {
    const current = this.store.data.channels.find((c) => c.id === id);
    if (!current) return;
    current.last_status = result.ok ? 'delivered' : 'failed';
    current.last_error = result.error;
    current.last_delivery_at = result.at;
    try {
      await this.store.write();
    } catch (err) {
      this.log.error(`could not record a delivery result: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private view(record: ChannelRecord): ChannelView {
    const type = this.types.get(record.type);
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(type?.fields ?? record.settings)) {
      const value = record.settings[key];
      if (type?.secrets.includes(key)) {
        fields[key] = value === undefined ? null : REDACTED;
        fields[`${key}_set`] = value !== undefined;
      } else {
        fields[key] = value ?? null;
      }
    }
    const { settings: _settings, ...common } = record;
    return { ...common, ...fields };
  }

  private checkSettings(type: ChannelType, settings: Record<string, unknown>): void {
    const missing: ValidationIssue[] = type.required
      .filter((key) => settings[key] === undefined)
      .map((key) => ({ path: `body/${key}`, message: 'is required' }));
    if (missing.length > 0) throw validationError(missing);
    const issues = type.check(settings).map((i) => ({ path: `body/${i.path}`, message: i.message }));
    if (issues.length > 0) throw validationError(issues);
  }

  private assertNameFree(name: string, ownId: string | null): void {
    if (this.store.data.channels.some((c) => c.id !== ownId && sameName(c.name, name))) {
      throw new AppError(ErrorCode.conflict, 409, `a channel named "${name}" already exists`);
    }
  }

  private typeOf(name: string): ChannelType {
    const type = this.types.get(name);
    if (!type) throw validationError([{ path: 'body/type', message: `must be one of ${[...this.types.keys()].join(', ')}` }]);
    return type;
  }

  private require(id: string): ChannelRecord {
    const record = this.store.data.channels.find((c) => c.id === id);
    if (!record) throw new AppError(ErrorCode.notFound, 404, `no notification channel ${id}`);
    return record;
  }
}
