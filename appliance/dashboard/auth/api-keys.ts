/**
 * API keys for machine clients, in `<data-dir>/api-keys.json`. A key is `pyk_` + 32 random bytes
 * (base64url); it is shown once, at creation, and stored only as its SHA-256 hash — enough for a
 * high-entropy secret, and cheap to check on every request. Each key belongs to the user who
 * made it (`owner_id`): it never acts above that user's current role and goes away with that user.
 *
 * `last_used_at` is kept exactly in memory but written at most once per key per
 * LAST_USED_WRITE_INTERVAL_MS, so a busy client does not rewrite the file on every request;
 * `saveUsage()` (at stop) writes what that held back.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { normalizeName } from '../../common/names.js';
import { ROLES, type Role } from '../http/route.js';

export const API_KEYS_STORE = 'api-keys';
export const API_KEY_PREFIX = 'pyk_';
export const API_KEY_PATTERN = '^pyk_[A-Za-z0-9_-]{43}$';
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const API_KEY = new RegExp(API_KEY_PATTERN);
const KEY_BYTES = 32;
/** How much of the key the list shows, so a person can tell keys apart. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export interface ApiKeyRecord {
  id: string;
  name: string;
  role: Role;
  /** The user the key acts for. */
  owner_id: string;
  /** The start of the key, e.g. `pyk_3fQx9a`. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
}

export type PublicApiKey = Omit<ApiKeyRecord, 'hash'>;

export interface NewApiKey {
  name: string;
  role: Role;
  ownerId: string;
}

interface ApiKeysFile {
  keys: ApiKeyRecord[];
}

function isApiKeyRecord(value: unknown): value is ApiKeyRecord {
  if (typeof value !== 'object' || value === null) return false;
  const k = value as Record<string, unknown>;
  return (
    typeof k.id === 'string' &&
    typeof k.name === 'string' &&
    ROLES.includes(k.role as Role) &&
    typeof k.owner_id === 'string' &&
    typeof k.prefix === 'string' &&
    typeof k.hash === 'string' &&
    typeof k.created_at === 'string' &&
    (k.last_used_at === null || typeof k.last_used_at === 'string')
  );
}

function checkApiKeysFile(data: unknown): string | null {
  const keys = (data as Partial<ApiKeysFile> | null)?.keys;
  if (!Array.isArray(keys)) return 'expected an object with a "keys" array';
  const bad = keys.findIndex((k) => !isApiKeyRecord(k));
  return bad === -1 ? null : `keys[${bad}] is not a valid API key record`;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function isApiKeyText(text: string): boolean {
  return text.startsWith(API_KEY_PREFIX);
}

export function toPublicKey(record: ApiKeyRecord): PublicApiKey {
  const { hash: _hash, ...rest } = record;
  return rest;
}

export class ApiKeyStore {
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly lastWritten = new Map<string, number>();
  private usageUnsaved = false;

  private constructor(
    private readonly store: JsonStore<ApiKeysFile>,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    for (const record of store.data.keys) this.byHash.set(record.hash, record);
  }

  static async open(stores: JsonStores, log: Logger, now: () => number = Date.now): Promise<ApiKeyStore> {
    return new ApiKeyStore(await stores.open<ApiKeysFile>(API_KEYS_STORE, { keys: [] }, checkApiKeysFile), log, now);
  }

  list(): PublicApiKey[] {
    return this.store.data.keys.map(toPublicKey);
  }

  /** Makes a key; the returned `key` is the only time it exists in clear. */
  async create(input: NewApiKey): Promise<{ key: string; record: PublicApiKey }> {
    const name = normalizeName(input.name);
    if (name === '') throw new AppError(ErrorCode.validation, 400, 'the API key needs a name');
    const key = API_KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
    const record: ApiKeyRecord = {
      id: randomUUID(),
      name,
      role: input.role,
      owner_id: input.ownerId,
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      hash: hashKey(key),
      created_at: new Date(this.now()).toISOString(),
      last_used_at: null,
    };
    this.store.data.keys.push(record);
    this.byHash.set(record.hash, record);
    await this.save();
    return { key, record: toPublicKey(record) };
  }

  get(id: string): ApiKeyRecord | undefined {
    return this.store.data.keys.find((k) => k.id === id);
  }

  async remove(id: string): Promise<void> {
    if (this.get(id) === undefined) throw new AppError(ErrorCode.notFound, 404, `no API key with id "${id}"`);
    await this.drop((k) => k.id === id);
  }

  /** Removes the keys of a user (who is being deleted); returns how many there were. */
  async removeOwnedBy(ownerId: string): Promise<number> {
    return this.drop((k) => k.owner_id === ownerId);
  }

  /** The record of a key given in clear, or undefined when it is not a current key. */
  find(key: string): ApiKeyRecord | undefined {
    return API_KEY.test(key) ? this.byHash.get(hashKey(key)) : undefined;
  }

  /** Notes a use of the key. */
  touch(record: ApiKeyRecord): void {
    const now = this.now();
    record.last_used_at = new Date(now).toISOString();
    const written = this.lastWritten.get(record.id);
    if (written !== undefined && now - written < LAST_USED_WRITE_INTERVAL_MS) {
      this.usageUnsaved = true;
      return;
    }
    this.lastWritten.set(record.id, now);
    this.save().catch((err: unknown) => {
      this.log.warn(`could not record the use of API key ${record.name}: ${(err as Error).message}`);
    });
  }

  /** Writes the last uses that `touch` held back, if any. */
  async saveUsage(): Promise<void> {
    if (this.usageUnsaved) await this.save();
  }

  /** Every write carries the in-memory last uses along. */
  private save(): Promise<void> {
    this.usageUnsaved = false;
    return this.store.write();
  }

  private async drop(match: (record: ApiKeyRecord) => boolean): Promise<number> {
    const dropped = this.store.data.keys.filter(match);
    if (dropped.length === 0) return 0;
    this.store.data.keys = this.store.data.keys.filter((k) => !match(k));
    for (const record of dropped) {
      this.byHash.delete(record.hash);
      this.lastWritten.delete(record.id);
    }
    await this.save();
    return dropped.length;
  }
}
